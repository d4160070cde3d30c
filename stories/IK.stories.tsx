import { useFrame } from '@react-three/fiber';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useContext, useEffect, useMemo, useRef, type RefObject } from 'react';
import { expect } from 'storybook/test';
import type { InstancedMesh } from 'three';
import { IKHandle, Particle, Ragdoll, SinewContext, Stick, World, particleSlot, writeCapsuleInstances, type ParticleHandle, type RagdollApi } from 'sinew-physics';
import { bodiesOf, distance, Floor, pointOnScreen, ragdollPart, waitForSteps } from './support/bodiesScene.js';
import { dragTo, pointer, waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { WorldProbe, type Probe } from './support/WorldProbe.js';

/**
 * Where the XY plane handle of an `<IKHandle>` gizmo (drei's `PivotControls`) is,
 * relative to the handle: its square sits scale × 1.7 / 7 along x and y.
 */
function planeHandle(at: readonly number[], scale: number): [number, number, number] {
  const offset = (scale / 7) * 1.7;
  return [at[0]! + offset, at[1]! + offset, at[2]!];
}

/**
 * Drags the XY plane handle of the IK gizmo that sits at `at` by `by` pixels and lets
 * go.
 */
async function dragGizmo(probe: Probe, at: readonly number[], scale: number, by: [number, number]): Promise<void> {
  const from = pointOnScreen(probe, planeHandle(at, scale));
  const to: [number, number] = [from[0] + by[0], from[1] + by[1]];
  await dragTo(probe.canvas, from, to, 16, 480);
  pointer(probe.canvas, 'pointerup', to[0], to[1]);
}

// ---- Arm with handle ----

interface ArmArgs {
  /** Length of the upper arm (m). */
  upperArm: number;
  /** Length of the forearm (m). */
  forearm: number;
  /** Size of the handle's gizmo (m). */
  gizmoScale: number;
  /** Per-second drag of the world. */
  damping: number;
}

const SHOULDER: [number, number, number] = [-0.55, 1.45, 0];

/** Shoulder, elbow and hand for the given bone lengths: the hand reaches out and down, the elbow sticks out toward you. */
function armPose(upper: number, fore: number) {
  const reach = 0.8 * (upper + fore);
  const dir = [0.96, -0.28, 0];
  const hand: [number, number, number] = [SHOULDER[0] + dir[0]! * reach, SHOULDER[1] + dir[1]! * reach, 0];
  // The elbow lies on the circle of points `upper` from the shoulder and `fore` from the hand; take its point nearest the camera.
  const a = (upper * upper - fore * fore + reach * reach) / (2 * reach);
  const h = Math.sqrt(Math.max(0, upper * upper - a * a));
  const elbow: [number, number, number] = [SHOULDER[0] + dir[0]! * a, SHOULDER[1] + dir[1]! * a, h];
  return { elbow, hand };
}

type Bone = readonly [RefObject<ParticleHandle | null>, RefObject<ParticleHandle | null>, number];

/** Draws capsules (`radius`) between the particles of `<Particle>` refs, written in place every frame. */
function Bones({ bones, color }: { bones: readonly Bone[]; color: string }) {
  const context = useContext(SinewContext);
  const cylinders = useRef<InstancedMesh>(null);
  const caps = useRef<InstancedMesh>(null);
  const limbs = useMemo<{ from: number; to: number; radius: number }[]>(() => bones.map(([, , radius]) => ({ from: -1, to: -1, radius })), [bones]);
  useFrame(() => {
    if (!context || !cylinders.current || !caps.current) return;
    for (let i = 0; i < bones.length; i++) {
      const [a, b] = bones[i]!;
      const from = a.current?.id ?? -1;
      const to = b.current?.id ?? -1;
      if (from < 0 || to < 0) return;
      limbs[i]!.from = from;
      limbs[i]!.to = to;
    }
    writeCapsuleInstances(cylinders.current, caps.current, context.world, limbs, context.frame);
  });
  return (
    <>
      <instancedMesh ref={cylinders} args={[undefined, undefined, bones.length]} castShadow>
        <cylinderGeometry args={[1, 1, 1, 16]} />
        <meshStandardMaterial color={color} roughness={0.45} metalness={0.2} />
      </instancedMesh>
      <instancedMesh ref={caps} args={[undefined, undefined, bones.length * 2]} castShadow>
        <sphereGeometry args={[1, 16, 12]} />
        <meshStandardMaterial color={color} roughness={0.45} metalness={0.2} />
      </instancedMesh>
    </>
  );
}

function Arm({ upperArm, forearm, gizmoScale }: ArmArgs) {
  const { elbow, hand } = armPose(upperArm, forearm);
  const shoulderRef = useRef<ParticleHandle>(null);
  const elbowRef = useRef<ParticleHandle>(null);
  const handRef = useRef<ParticleHandle>(null);
  const bones = useMemo<Bone[]>(
    () => [
      [shoulderRef, elbowRef, 0.055],
      [elbowRef, handRef, 0.045],
    ],
    [],
  );
  return (
    <group key={`${upperArm}-${forearm}`}>
      <Particle ref={shoulderRef} name="shoulder" position={SHOULDER} mass={0} />
      <Particle ref={elbowRef} name="elbow" position={elbow} mass={1.2} />
      <Particle ref={handRef} name="hand" position={hand} mass={0.5} />
      <Stick a="shoulder" b="elbow" />
      <Stick a="elbow" b="hand" />
      <Bones bones={bones} color="#e8894a" />
      <IKHandle particle="hand" scale={gizmoScale} />
    </group>
  );
}

function ArmScene(args: ArmArgs) {
  return (
    <Scene camera={[0.3, 1.6, 2.2]} target={[-0.1, 1.25, 0]} fov={45}>
      <fog attach="fog" args={['#15171c', 7, 16]} />
      <World damping={args.damping}>
        <Floor />
        <WorldProbe />
        <Arm {...args} />
        {/* The torso the shoulder is fixed to: a post with a socket. */}
        <mesh position={[SHOULDER[0] - 0.14, SHOULDER[1] / 2 + 0.1, 0]} castShadow receiveShadow>
          <boxGeometry args={[0.18, SHOULDER[1] + 0.2, 0.3]} />
          <meshStandardMaterial color="#4a5570" roughness={0.7} />
        </mesh>
        <mesh position={SHOULDER} castShadow>
          <sphereGeometry args={[0.085, 24, 16]} />
          <meshStandardMaterial color="#aab2c4" metalness={0.7} roughness={0.3} />
        </mesh>
      </World>
    </Scene>
  );
}

// ---- Posed ragdoll ----

interface PosedArgs {
  /** Height of the ragdoll (m). */
  height: number;
  /** Size of the handles' gizmos (m). */
  gizmoScale: number;
  /** Per-second damping of the limbs' motion relative to the body. */
  jointDamping: number;
}

function PosedDoll({ height, gizmoScale, jointDamping }: PosedArgs) {
  const doll = useRef<RagdollApi>(null);
  // A nudge at the start: the torso sways between the pinned hands and feet.
  useEffect(() => {
    doll.current?.hit('chest', [0, 0, 1], 0.004);
  }, [height, jointDamping]);
  return (
    <group key={`${height}-${jointDamping}`}>
      <Ragdoll ref={doll} name="doll" feet={[0, 0.02, 0]} pose="T" height={height} jointDamping={jointDamping} color="#e8b48a" castShadow />
      <IKHandle particle="doll.leftHand" scale={gizmoScale} />
      <IKHandle particle="doll.rightHand" scale={gizmoScale} />
      <IKHandle particle="doll.leftFoot" scale={gizmoScale} />
      <IKHandle particle="doll.rightFoot" scale={gizmoScale} />
    </group>
  );
}

function PosedScene(args: PosedArgs) {
  return (
    <Scene camera={[0.9, 1.5, 3.3]} target={[0, 0.95, 0]} fov={48}>
      <fog attach="fog" args={['#15171c', 8, 18]} />
      <World>
        <Floor />
        <WorldProbe />
        <PosedDoll {...args} />
      </World>
    </Scene>
  );
}

// ---- stories ----

const meta = {
  title: 'IK',
  component: IKHandle,
  parameters: { controls: { include: ['upperArm', 'forearm', 'gizmoScale', 'damping', 'height', 'jointDamping'] } },
} satisfies Meta;
export default meta;

/**
 * Inverse kinematics by pinning (paper section 6): the hand of a two-bone arm is
 * pinned to an `<IKHandle>`, the shoulder is fixed, and the elbow finds its own
 * place because the sticks keep the bones' lengths. Drag the gizmo's arrows or
 * squares and the arm reaches after it; let go and the elbow swings under gravity
 * about the line from shoulder to hand.
 */
export const ArmWithHandle: StoryObj<ArmArgs> = {
  name: 'Arm with handle',
  args: { upperArm: 0.5, forearm: 0.45, gizmoScale: 0.3, damping: 0.1 },
  argTypes: {
    upperArm: { control: { type: 'range', min: 0.2, max: 0.8, step: 0.01 } },
    forearm: { control: { type: 'range', min: 0.2, max: 0.8, step: 0.01 } },
    gizmoScale: { control: { type: 'range', min: 0.1, max: 0.6, step: 0.01 } },
    damping: { control: { type: 'range', min: 0, max: 2, step: 0.05 } },
  },
  render: (args) => <ArmScene {...args} />,
  play: async ({ args }) => {
    const probe = await waitForProbe();
    const { world } = probe;
    await waitForSteps(world, 5);
    // The hand is the one pinned particle; the shoulder is immovable, the elbow the other.
    // The pin table holds slots; the accessors take ids.
    const hand = world.particleId(world.pins.particle[0]!);
    const before = world.getPosition(hand);
    const handOnScreen = pointOnScreen(probe, before);
    const by: [number, number] = [-70, -90];
    await dragGizmo(probe, before, args.gizmoScale, by);
    // The hand follows the gizmo on its drag spring (5 Hz, see dragSpring): half a second brings it there.
    await waitForSteps(world, 30);
    const after = world.getPosition(hand);
    // The hand moved with the gizmo: in the gizmo's XY plane, as far on screen as the pointer went.
    await expect(distance(after, before)).toBeGreaterThan(0.1);
    await expect(Math.abs(after[2] - before[2])).toBeLessThan(1e-6);
    const [x, y] = pointOnScreen(probe, after);
    await expect(Math.hypot(x - (handOnScreen[0] + by[0]), y - (handOnScreen[1] + by[1]))).toBeLessThan(6);
    // The bones kept their lengths: the elbow followed.
    const elbow = [...Array(world.particles.end).keys()].find((i) => i !== hand && Number.isFinite(world.getMass(i)) && world.getMass(i) > 0)!;
    await expect(Math.abs(distance(world.getPosition(elbow), after) - args.forearm)).toBeLessThan(0.02);
  },
};

/**
 * A ragdoll posed by hand: `<IKHandle>`s pin its hands and feet, and the angle
 * limits keep the rest of the body in a human range as you move them. Drag a
 * hand's gizmo overhead, pull a foot forward, or lift both hands and the body
 * hangs between them. The figure starts with a nudge to the chest so you see it
 * sway between its four pins.
 */
export const PosedRagdoll: StoryObj<PosedArgs> = {
  name: 'Posed ragdoll',
  args: { height: 1.7, gizmoScale: 0.25, jointDamping: 2 },
  argTypes: {
    height: { control: { type: 'range', min: 1.2, max: 2.2, step: 0.05 } },
    gizmoScale: { control: { type: 'range', min: 0.1, max: 0.6, step: 0.01 } },
    jointDamping: { control: { type: 'range', min: 0, max: 10, step: 0.5 } },
  },
  render: (args) => <PosedScene {...args} />,
  play: async ({ args }) => {
    const probe = await waitForProbe();
    const { world } = probe;
    await waitForSteps(world, 5);
    const [body] = bodiesOf(world, 'ragdoll');
    if (!body) throw new Error('no ragdoll in the scene');
    const hand = ragdollPart(body, 'rightHand');
    const elbow = ragdollPart(body, 'rightElbow');
    const feet = [ragdollPart(body, 'leftFoot'), ragdollPart(body, 'rightFoot')];
    const handBefore = world.getPosition(hand);
    const elbowBefore = world.getPosition(elbow);
    const feetBefore = feet.map((f) => world.getPosition(f));
    // Raise the right hand: drag its gizmo's XY square up and in.
    await dragGizmo(probe, handBefore, args.gizmoScale, [40, -120]);
    await waitForSteps(world, 20);
    const handAfter = world.getPosition(hand);
    await expect(handAfter[1] - handBefore[1]).toBeGreaterThan(0.2);
    // The arm came along, and the feet stayed on their pins.
    await expect(world.getPosition(elbow)[1] - elbowBefore[1]).toBeGreaterThan(0.05);
    for (let k = 0; k < feet.length; k++) await expect(distance(world.getPosition(feet[k]!), feetBefore[k]!)).toBeLessThan(1e-6);
    // Let go, the hand's spring brings it to rest and the handle pins it there rigidly.
    const handPin = () => [...Array(world.pins.count).keys()].find((row) => world.pins.particle[row] === particleSlot(hand))!;
    // Counted in steps, not wall-clock time: a loaded machine runs the world slower than real time.
    for (let second = 0; second < 10 && !world.pins.isRigid(handPin()); second++) await waitForSteps(world, 60, 10_000);
    await expect(world.pins.isRigid(handPin())).toBe(true);
  },
};
