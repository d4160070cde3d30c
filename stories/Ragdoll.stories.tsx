import { useFrame, useThree, type ThreeEvent } from '@react-three/fiber';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef, useState } from 'react';
import { expect, userEvent, within } from 'storybook/test';
import { Vector3, type Group } from 'three';
import { DragControls, ParticleCollisions, Pin, quatFromAxisAngle, quatMultiply, Ragdoll, World, type RagdollApi } from 'sinew-physics';
import { Bomb, BOMB } from './support/bomb.js';
import { bodiesOf, centreOfMass, distance, Floor, hash01, pointOnScreen, ragdollPart, waitForSteps } from './support/bodiesScene.js';
import { dragTo, particleOnScreen, pointer, waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { Staircase } from './support/Staircase.js';
import { WorldProbe } from './support/WorldProbe.js';

const buttonStyle = {
  font: 'inherit',
  padding: '6px 14px',
  borderRadius: 6,
  border: '1px solid #59627a',
  background: '#2b3040',
  color: '#f0f0f0',
  cursor: 'pointer',
} as const;

/** Colours of the ragdolls: skin-like warm tones and a few cool ones. */
const DOLL_COLORS = ['#e8b48a', '#7fb7d9', '#d98f7a', '#9bd3a0', '#c9a0dc', '#f2c14e', '#e07a6f', '#8fa8e8'] as const;

// ---- Falling down stairs ----

const STEPS = 7;
const RISE = 0.2;
const RUN = 0.34;
const STAIR_WIDTH = 2.6;
/** x of the top step's far edge; the steps go down toward +x from there. */
const STAIR_TOP_X = -1.9;
const PLATFORM = 1.2;

interface StairsArgs {
  /** Ragdolls dropped. */
  count: number;
  /** Height of each ragdoll (m). */
  height: number;
  /** Stiffness of the joints' angle limits, in (0, 1]: low lets limbs bend past their anatomical range. */
  angleStiffness: number;
  /** One-way elbows (`createRagdoll`'s `elbowHinges`): a forearm cannot pass straight the wrong way by more than 10°. */
  elbowHinges: boolean;
}

function StairsScene({ count, height, angleStiffness, elbowHinges }: StairsArgs) {
  const [round, setRound] = useState(0);
  // Lying face down across the landing, head toward the stairs, tipped forward.
  const lying = quatMultiply(quatFromAxisAngle([0, 0, 1], -Math.PI / 2 + 0.25), quatFromAxisAngle([0, 1, 0], Math.PI / 2));
  return (
    <Scene
      camera={[2.6, 2.1, 3.9]}
      target={[-0.7, 0.75, 0]}
      fov={50}
      overlay={
        <button type="button" onClick={() => setRound((r) => r + 1)} style={buttonStyle}>
          Drop again
        </button>
      }
    >
      <fog attach="fog" args={['#15171c', 9, 20]} />
      <World>
        <Floor />
        <Staircase steps={STEPS} rise={RISE} run={RUN} width={STAIR_WIDTH} landing={PLATFORM} topX={STAIR_TOP_X} />
        <ParticleCollisions />
        <DragControls />
        <WorldProbe />
        <group key={round}>
          {Array.from({ length: count }, (_, i) => (
            <Ragdoll
              key={i}
              feet={[STAIR_TOP_X - PLATFORM + 0.15, STEPS * RISE + 0.35 + i * 0.45, (i - (count - 1) / 2) * 0.55 + (hash01(i + round, 1) - 0.5) * 0.2]}
              rotation={lying}
              velocity={[1.6 + hash01(i + round, 2) * 0.8, 0.5, 0]}
              pose={i % 2 ? 'T' : 'standing'}
              height={height}
              angleStiffness={angleStiffness}
              elbowHinges={elbowHinges}
              color={DOLL_COLORS[i % DOLL_COLORS.length]}
              castShadow
            />
          ))}
        </group>
      </World>
    </Scene>
  );
}

// ---- Explosion ----

interface ExplosionArgs {
  /** Ragdolls standing in a ring around the bomb. */
  count: number;
  /** Strength of the blast: a particle at distance d is pushed strength / d² metres (m³). */
  strength: number;
  /** Particles farther than this are not pushed (m). */
  blastRadius: number;
}

function ExplosionScene({ count, strength, blastRadius }: ExplosionArgs) {
  const trigger = useRef<(() => void) | null>(null);
  const [round, setRound] = useState(0);
  return (
    <Scene
      camera={[0.3, 3.3, 5.7]}
      target={[0, 0.3, 0]}
      fov={50}
      overlay={
        <>
          <button type="button" onClick={() => trigger.current?.()} style={{ ...buttonStyle, background: '#8a2f22', borderColor: '#c0523e' }}>
            Explode
          </button>
          <button type="button" onClick={() => setRound((r) => r + 1)} style={buttonStyle}>
            Reset
          </button>
        </>
      }
    >
      <fog attach="fog" args={['#15171c', 10, 24]} />
      <World>
        <Floor />
        <ParticleCollisions />
        <DragControls />
        <WorldProbe />
        <Bomb trigger={trigger} strength={strength} blastRadius={blastRadius} />
        <group key={round}>
          {Array.from({ length: count }, (_, i) => {
            const angle = (i / count) * Math.PI * 2 + 0.3;
            const r = 1.0;
            // Facing the bomb: the figure faces +z unturned.
            const facing = quatFromAxisAngle([0, 1, 0], Math.atan2(-Math.sin(angle), -Math.cos(angle)));
            return (
              <Ragdoll
                key={i}
                feet={[Math.cos(angle) * r, 0, Math.sin(angle) * r]}
                rotation={facing}
                pose={i % 2 ? 'T' : 'standing'}
                height={1.5 + hash01(i, 3) * 0.3}
                color={DOLL_COLORS[i % DOLL_COLORS.length]}
                castShadow
              />
            );
          })}
        </group>
      </World>
    </Scene>
  );
}

// ---- Hit on click ----

interface HitArgs {
  /** How far the clicked particle is knocked (m): it leaves at strength / substep m/s. */
  strength: number;
  /** How fast the dummy swings on its bar at the start (m/s). */
  swing: number;
}

const BAR_HEIGHT = 2.45;
const DUMMY_HEIGHT = 1.7;
/** Where the hands hold the bar, either side of the middle (m). */
const GRIP = 0.4;

function HittableDummy({ strength, swing }: HitArgs) {
  const doll = useRef<RagdollApi>(null);
  const spark = useRef<Group>(null);
  const sparkAt = useRef(-Infinity);
  const clock = useThree((s) => s.clock);
  const onClick = (e: ThreeEvent<MouseEvent>) => {
    const api = doll.current;
    const ragdoll = api?.current;
    if (!api || !ragdoll) return;
    e.stopPropagation();
    // The particle nearest the point clicked takes the blow, along the ray: away from you.
    let best = 0;
    let bestDistance = Infinity;
    for (let i = 0; i < ragdoll.count; i++) {
      const [x, y, z] = api.world.getPosition(ragdoll.first + i);
      const d = Math.hypot(x - e.point.x, y - e.point.y, z - e.point.z);
      if (d < bestDistance) {
        bestDistance = d;
        best = i;
      }
    }
    api.hit(best, [e.ray.direction.x, e.ray.direction.y, e.ray.direction.z], strength);
    spark.current?.position.copy(e.point);
    sparkAt.current = clock.elapsedTime;
  };
  useFrame(({ clock: c }) => {
    const age = c.elapsedTime - sparkAt.current;
    if (!spark.current) return;
    spark.current.visible = age >= 0 && age < 0.35;
    const s = 0.05 + age * 0.8;
    spark.current.scale.set(s, s, s);
  });
  // Built in the T pose with its hands at the bar; the pins then pull them in to the grip.
  const shoulder = 0.815 * DUMMY_HEIGHT;
  return (
    <>
      <group onClick={onClick}>
        <Ragdoll key={swing} ref={doll} name="dummy" feet={[0, BAR_HEIGHT - shoulder - 0.03, 0]} pose="T" height={DUMMY_HEIGHT} velocity={[0, 0, swing]} color="#e8b48a" castShadow />
      </group>
      {/* The hands grip the bar a shoulder width and a half apart, so the arms hang in a V. */}
      <Pin particle="dummy.leftHand" target={[GRIP, BAR_HEIGHT, 0]} />
      <Pin particle="dummy.rightHand" target={[-GRIP, BAR_HEIGHT, 0]} />
      <group ref={spark} visible={false}>
        <mesh>
          <sphereGeometry args={[1, 16, 12]} />
          <meshBasicMaterial color="#fff2a8" transparent opacity={0.7} depthWrite={false} />
        </mesh>
      </group>
    </>
  );
}

function HitScene(args: HitArgs) {
  return (
    <Scene camera={[1.2, 1.9, 4.2]} target={[0, 1.45, 0]} fov={48}>
      <fog attach="fog" args={['#15171c', 8, 20]} />
      <World>
        <Floor />
        <WorldProbe />
        <HittableDummy {...args} />
        {/* The bar and its posts. */}
        <mesh position={[0, BAR_HEIGHT, 0]} rotation={[0, 0, Math.PI / 2]} castShadow>
          <cylinderGeometry args={[0.035, 0.035, 2.6, 16]} />
          <meshStandardMaterial color="#aab2c4" metalness={0.8} roughness={0.3} />
        </mesh>
        {[-1.25, 1.25].map((x) => (
          <mesh key={x} position={[x, BAR_HEIGHT / 2, 0]} castShadow receiveShadow>
            <boxGeometry args={[0.08, BAR_HEIGHT, 0.08]} />
            <meshStandardMaterial color="#5a6580" />
          </mesh>
        ))}
      </World>
    </Scene>
  );
}

// ---- Drag by the hand ----

interface DragArgs {
  /** Height of the ragdoll (m). */
  height: number;
  /** Coulomb friction μ of its particles: how hard it is to drag along the floor. */
  friction: number;
  /** Per-second damping of the limbs' motion relative to the body (the friction in its joints). */
  jointDamping: number;
}

function DragScene({ height, friction, jointDamping }: DragArgs) {
  const [round, setRound] = useState(0);
  const lying = quatMultiply(quatFromAxisAngle([1, 0, 0], -Math.PI / 2 + 0.3), quatFromAxisAngle([0, 1, 0], 0.4));
  return (
    <Scene
      camera={[0.6, 1.7, 3.7]}
      target={[0, 0.75, 0]}
      fov={50}
      overlay={
        <button type="button" onClick={() => setRound((r) => r + 1)} style={buttonStyle}>
          Reset
        </button>
      }
    >
      <fog attach="fog" args={['#15171c', 9, 20]} />
      <World>
        <Floor />
        <DragControls />
        <WorldProbe />
        <Ragdoll
          key={`${round}-${jointDamping}`}
          name="body"
          feet={[-0.2, 0.7, 0.6]}
          rotation={lying}
          pose="T"
          height={height}
          friction={friction}
          jointDamping={jointDamping}
          color="#e8b48a"
          castShadow
        />
      </World>
    </Scene>
  );
}

// ---- stories ----

const meta = {
  title: 'Ragdoll',
  component: Ragdoll,
  parameters: { controls: { include: ['count', 'height', 'angleStiffness', 'strength', 'blastRadius', 'swing', 'friction', 'jointDamping'] } },
} satisfies Meta;
export default meta;

/** Live ragdoll bodies in the world, oldest first. */
const ragdolls = (probe: { world: Parameters<typeof bodiesOf>[0] }) => bodiesOf(probe.world, 'ragdoll');

/**
 * Ragdolls (paper section 6: 16 particles, limbs as sticks, joints held in range by
 * angle constraints) thrown down a staircase. The stairs are ordinary box meshes
 * made one static triangle collider by `<MeshCollider>`; the limbs collide with it as
 * capsules (the paper's capped cylinders). Lower `angleStiffness` and
 * the joints bend past their limits; drag a body back to the top with the mouse, or
 * press **Drop again**.
 */
export const FallingDownStairs: StoryObj<StairsArgs> = {
  name: 'Falling down stairs',
  args: { count: 3, height: 1.7, angleStiffness: 1, elbowHinges: true },
  argTypes: {
    elbowHinges: { control: 'boolean' },
    count: { control: { type: 'range', min: 1, max: 6, step: 1 } },
    height: { control: { type: 'range', min: 1.2, max: 2.2, step: 0.05 } },
    angleStiffness: { control: { type: 'range', min: 0.05, max: 1, step: 0.05 } },
  },
  render: (args) => <StairsScene {...args} />,
};

/**
 * The paper's bomb (section 7): **Explode** pushes every particle within
 * `blastRadius` of the bomb away by strength / d², only their positions, so Verlet
 * turns the push into velocity and the sticks drag each body along. The ragdolls
 * stand in a ring and sag to the floor; press Explode, then **Reset**, or grab a
 * ragdoll with the mouse first and hold it over the bomb.
 */
export const Explosion: StoryObj<ExplosionArgs> = {
  args: { count: 5, strength: 0.008, blastRadius: 3 },
  argTypes: {
    count: { control: { type: 'range', min: 1, max: 8, step: 1 } },
    strength: { control: { type: 'range', min: 0.001, max: 0.05, step: 0.001 } },
    blastRadius: { control: { type: 'range', min: 0.5, max: 6, step: 0.1 } },
  },
  render: (args) => <ExplosionScene {...args} />,
  play: async ({ canvasElement }) => {
    const probe = await waitForProbe();
    const { world } = probe;
    await waitForSteps(world, 10);
    const bodies = ragdolls(probe);
    await expect(bodies.length).toBe(5);
    const spread = () => {
      let d = 0;
      let v = 0;
      let n = 0;
      for (const b of bodies) {
        for (let i = b.first; i < b.first + b.count; i++) {
          d += distance(world.getPosition(i), BOMB);
          const [vx, vy, vz] = world.getVelocity(i);
          v += Math.hypot(vx, vy, vz);
          n++;
        }
      }
      return { distance: d / n, speed: v / n };
    };
    const before = spread();
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Explode' }));
    await waitForSteps(world, 8);
    const after = spread();
    // Scattered: on average farther from the bomb, and flying fast.
    await expect(after.distance).toBeGreaterThan(before.distance + 0.2);
    await expect(after.speed).toBeGreaterThan(1.5);
    await expect(after.speed).toBeGreaterThan(before.speed * 3);
  },
};

/**
 * Click any body part and it is hit (paper section 7: "if a person is hit at the
 * shoulder, move the shoulder particle backwards"): the particle nearest the point
 * clicked is moved `strength` metres along your line of sight, and the sticks
 * carry the blow through the body. The training dummy hangs from a bar by its
 * pinned hands, so it swings and twists back. Try the shoulders, the head, a knee.
 */
export const HitOnClick: StoryObj<HitArgs> = {
  name: 'Hit on click',
  args: { strength: 0.012, swing: 0.8 },
  argTypes: {
    strength: { control: { type: 'range', min: 0.001, max: 0.04, step: 0.001 } },
    swing: { control: { type: 'range', min: 0, max: 3, step: 0.1 } },
  },
  render: (args) => <HitScene {...args} />,
  play: async ({ args }) => {
    const probe = await waitForProbe();
    const { world, canvas, camera } = probe;
    // Past the first swings, while the pins pull the hands in to the grip and the arms snap taut.
    await waitForSteps(world, 60);
    const [dummy] = ragdolls(probe);
    if (!dummy) throw new Error('no ragdoll in the scene');
    const shoulder = ragdollPart(dummy, 'rightShoulder');
    const view = camera.getWorldDirection(new Vector3());
    const positions = () => Array.from({ length: dummy.count }, (_, i) => world.getPosition(dummy.first + i));
    // Distance along the line of sight (away from the camera) of every particle of the dummy.
    const depths = () => positions().map(([x, y, z]) => x * view.x + y * view.y + z * view.z);
    const [x, y] = particleOnScreen(probe, shoulder);
    // What four steps do without the click (the dummy swings anyway), then the same four steps after it.
    // All synchronous, so no frame steps the world in between.
    const start = world.snapshot();
    const before = positions();
    for (let k = 0; k < 4; k++) world.step();
    const without = depths();
    world.restore(start);
    pointer(canvas, 'pointerdown', x, y);
    pointer(canvas, 'pointerup', x, y);
    pointer(canvas, 'click', x, y);
    // The click moved exactly one particle, by `strength` along the line of sight (the paper's hit: a position
    // change that Verlet turns into velocity): the one nearest the point the ray hit, so one of the particles
    // nearest the click on screen (the shoulder, or the arm or neck in front of it as the dummy swings).
    const moved = positions().map((p, i) => distance(p, before[i]!));
    const hits = moved.flatMap((d, i) => (d > 0 ? [i] : []));
    await expect(hits).toHaveLength(1);
    const struck = hits[0]!;
    await expect(moved[struck]).toBeCloseTo(args.strength, 6);
    const onScreen = (i: number) => {
      const [sx, sy] = particleOnScreen(probe, dummy.first + i);
      return Math.hypot(sx - x, sy - y);
    };
    const nearestOnScreen = moved.map((_, i) => i).sort((a, b) => onScreen(a) - onScreen(b));
    await expect(nearestOnScreen.slice(0, 5)).toContain(struck);
    for (let k = 0; k < 4; k++) world.step();
    const pushed = depths().map((d, i) => d - (without[i] ?? 0));
    // The click knocked it away from the camera, and farther than the rest of the body: the body turns.
    await expect(pushed[struck]).toBeGreaterThan(0.02);
    await expect(pushed[struck]! - Math.min(...pushed)).toBeGreaterThan(0.01);
  },
};

/**
 * Grab any limb with the mouse and drag the body around (the Hitman "drag the
 * corpse by the hand"): `<DragControls>` pins the particle under the pointer to
 * it, and the sticks and angle limits make the rest of the body follow. Let go
 * with a flick and the body is thrown.
 */
export const DragByTheHand: StoryObj<DragArgs> = {
  name: 'Drag by the hand',
  args: { height: 1.7, friction: 0.6, jointDamping: 2 },
  argTypes: {
    height: { control: { type: 'range', min: 1.2, max: 2.2, step: 0.05 } },
    friction: { control: { type: 'range', min: 0, max: 1.5, step: 0.05 } },
    jointDamping: { control: { type: 'range', min: 0, max: 10, step: 0.5 } },
  },
  render: (args) => <DragScene {...args} />,
  play: async () => {
    const probe = await waitForProbe();
    const { world, canvas } = probe;
    await waitForSteps(world, 40);
    const [body] = ragdolls(probe);
    if (!body) throw new Error('no ragdoll in the scene');
    const hand = ragdollPart(body, 'rightHand');
    const pelvis = ragdollPart(body, 'pelvis');
    const handBefore = world.getPosition(hand);
    const pelvisBefore = world.getPosition(pelvis);
    const massBefore = centreOfMass(world, body.first, body.count);
    const from = particleOnScreen(probe, hand);
    // Up to about shoulder height above the middle of the floor: the body is lifted by its hand.
    const to = pointOnScreen(probe, [0.1, 2.1, handBefore[2]]);
    await dragTo(canvas, from, to, 20, 600);
    // The hand comes under the pointer (the body swings on it: looked at every 15 steps, for up to 3 s) ...
    const offPointer = () => {
      const [hx, hy] = particleOnScreen(probe, hand);
      return Math.hypot(hx - to[0], hy - to[1]);
    };
    await waitForSteps(world, 45);
    for (let look = 0; look < 9 && offPointer() >= 12; look++) await waitForSteps(world, 15);
    await expect(offPointer()).toBeLessThan(12);
    const handAfter = world.getPosition(hand);
    await expect(distance(handAfter, handBefore)).toBeGreaterThan(0.5);
    // ... and the body came along: pelvis and centre of mass moved the way the hand did.
    const moved = [handAfter[0] - handBefore[0], handAfter[1] - handBefore[1], handAfter[2] - handBefore[2]];
    const massAfter = centreOfMass(world, body.first, body.count);
    const pelvisAfter = world.getPosition(pelvis);
    const dot = (a: readonly number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
    await expect(distance(pelvisAfter, pelvisBefore)).toBeGreaterThan(0.15);
    await expect(dot([massAfter[0] - massBefore[0], massAfter[1] - massBefore[1], massAfter[2] - massBefore[2]], moved)).toBeGreaterThan(0.1 * dot(moved, moved));
    // Still holding: the body dangles from the hand and swings.
  },
};
