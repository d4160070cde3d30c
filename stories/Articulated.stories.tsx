import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import { expect, waitFor } from 'storybook/test';
import { DragControls, Particle, quatFromAxisAngle, quatMultiply, RigidBody, rotateVector, World, type CoreRigidBody, type CoreWorld, type Quat } from 'sinew-physics';
import { createBox, hinge } from 'sinew-physics/core';
import { bodiesOf, distance, Floor, FollowRigid, PALETTE, pointOnScreen, useCoreBuild, waitForSteps } from './support/bodiesScene.js';
import { dragTo, pointer, waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { WorldProbe } from './support/WorldProbe.js';

// ---- Hinged door ----

interface DoorArgs {
  /** How far the door starts open (degrees about its hinge; positive swings it toward you). */
  openAngle: number;
  /** Lean of the hinge toward the latch side (degrees): gravity then swings the door shut, like a self-closing door. 0 = no pull. */
  hingeLean: number;
  /** Mass of the door (kg). */
  mass: number;
  /** Per-second drag of the world. */
  damping: number;
}

const DOOR_SIZE: [number, number, number] = [1, 2, 0.06];
const POST_SIZE: [number, number, number] = [0.1, 2, 0.06];
/** The door's bottom edge, above the floor. */
const DOOR_LIFT = 0.12;

interface BuiltDoor {
  ranges: [number, number][];
  frame: CoreRigidBody;
  door: CoreRigidBody;
}

/**
 * The post (an immovable box) and the door (a box whose two hinge-side corners are
 * the post's corners: `hinge(frame, [1, 3], [0, 2])`). Both lean by `lean` about z.
 */
function buildDoor(world: CoreWorld, { openAngle, hingeLean, mass }: DoorArgs): BuiltDoor {
  const lean = quatFromAxisAngle([0, 0, 1], (-hingeLean * Math.PI) / 180);
  // The post leans about the foot of the hinge line, (-0.5, DOOR_LIFT, 0), as the drawn frame does.
  const offset = rotateVector(lean, [-POST_SIZE[0] / 2, POST_SIZE[1] / 2, 0]);
  const postCenter: [number, number, number] = [-0.5 + offset[0], DOOR_LIFT + offset[1], offset[2]];
  const frame = createBox(world, { size: POST_SIZE, position: postCenter, rotation: lean, mass: 0 });
  // The post's vertex 1 (+x, -y, -z) is where the door's vertex 0 (-x, -y, -z) goes.
  const bottom = world.getPosition(frame.vertices[1]!);
  const turn: Quat = quatMultiply(lean, quatFromAxisAngle([0, 1, 0], (-openAngle * Math.PI) / 180));
  const v0 = rotateVector(turn, [-DOOR_SIZE[0] / 2, -DOOR_SIZE[1] / 2, -DOOR_SIZE[2] / 2]);
  const door = createBox(world, {
    size: DOOR_SIZE,
    position: [bottom[0] - v0[0], bottom[1] - v0[1], bottom[2] - v0[2]],
    rotation: turn,
    mass,
    shared: hinge(frame, [1, 3], [0, 2]),
  });
  return {
    ranges: [
      [frame.first, frame.count],
      [door.first, door.count],
    ],
    frame,
    door,
  };
}

function Door(args: DoorArgs) {
  const { openAngle, hingeLean, mass } = args;
  const built = useCoreBuild(
    JSON.stringify([openAngle, hingeLean, mass]),
    (world) => buildDoor(world, args),
    ({ frame, door }) => {
      door.remove();
      frame.remove();
    },
  );
  const leanZ = (-hingeLean * Math.PI) / 180;
  return (
    <>
      <FollowRigid body={() => built.current?.door}>
        <mesh castShadow receiveShadow>
          <boxGeometry args={DOOR_SIZE} />
          <meshStandardMaterial color="#c9874f" roughness={0.6} />
        </mesh>
        {/* Panels and a knob, so the door's turn reads at a glance. */}
        {[0.45, -0.45].map((y) => (
          <mesh key={y} position={[0.02, y, 0.035]} castShadow>
            <boxGeometry args={[0.7, 0.7, 0.02]} />
            <meshStandardMaterial color="#b3733f" roughness={0.7} />
          </mesh>
        ))}
        <mesh position={[0.38, 0, 0.07]} castShadow>
          <sphereGeometry args={[0.045, 16, 12]} />
          <meshStandardMaterial color="#f2d06b" metalness={0.8} roughness={0.25} />
        </mesh>
      </FollowRigid>
      {/* The frame: the hinge post is the immovable box; the lintel and the latch post are drawn only. */}
      <group position={[-0.5, DOOR_LIFT, 0]} rotation={[0, 0, leanZ]}>
        <mesh position={[-0.05, DOOR_SIZE[1] / 2 - DOOR_LIFT / 2, 0]} castShadow receiveShadow>
          <boxGeometry args={[0.1, DOOR_SIZE[1] + DOOR_LIFT, 0.12]} />
          <meshStandardMaterial color="#5d6780" />
        </mesh>
        <mesh position={[0.5, DOOR_SIZE[1] + 0.05, 0]} castShadow receiveShadow>
          <boxGeometry args={[1.2, 0.1, 0.12]} />
          <meshStandardMaterial color="#5d6780" />
        </mesh>
        <mesh position={[1.05, DOOR_SIZE[1] / 2 - DOOR_LIFT / 2, 0]} castShadow receiveShadow>
          <boxGeometry args={[0.1, DOOR_SIZE[1] + DOOR_LIFT, 0.12]} />
          <meshStandardMaterial color="#5d6780" />
        </mesh>
        {/* Hinge knuckles. */}
        {[0.25, DOOR_SIZE[1] - 0.25].map((y) => (
          <mesh key={y} position={[0, y, -0.03]}>
            <cylinderGeometry args={[0.025, 0.025, 0.14, 12]} />
            <meshStandardMaterial color="#d8d8d8" metalness={0.9} roughness={0.3} />
          </mesh>
        ))}
      </group>
    </>
  );
}

function HingedDoorScene(args: DoorArgs) {
  return (
    <Scene camera={[1.7, 1.6, 3.1]} target={[0.1, 1.05, 0]} fov={45}>
      <fog attach="fog" args={['#15171c', 8, 18]} />
      <World damping={args.damping}>
        <Floor />
        <Door {...args} />
        <DragControls />
        <WorldProbe />
      </World>
    </Scene>
  );
}

// ---- Chain of boxes ----

interface ChainArgs {
  /** Boxes in the chain. */
  links: number;
  /** Length of each box (m). */
  linkLength: number;
  /** Relaxation passes per substep for each box. */
  iterations: number;
  /** Per-second drag of the world. */
  damping: number;
}

/** Gap between neighbouring boxes: the ball joint sits this far outside each box's end face. */
const GAP = 0.035;
const LINK_WIDTH = 0.15;
const ANCHOR: [number, number, number] = [-0.2, 2.75, 0];
/** Half the crossbar's length: the posts stand outside the chain's swing. */
const FRAME_HALF_WIDTH = 2.8;

/** Local points of one link: a box, plus a joint vertex just outside each end face's centre (8 above, 9 below). */
function linkPoints(linkLength: number): [number, number, number][] {
  const half = linkLength / 2;
  const w = LINK_WIDTH / 2;
  const points: [number, number, number][] = [];
  for (let i = 0; i < 8; i++) points.push([i & 1 ? w : -w, i & 2 ? half : -half, i & 4 ? w : -w]);
  points.push([0, half + GAP, 0], [0, -half - GAP, 0]);
  return points;
}

/** Local +y (toward the joint above) along -x: the chain starts lying along +x from the anchor. */
const SIDEWAYS = quatFromAxisAngle([0, 0, 1], Math.PI / 2);

/**
 * Boxes joined by ball joints, declared with `<RigidBody shared>`: each box's top
 * joint vertex (8) is the previous box's bottom one (`"link3.9"`), the first one's
 * is an immovable anchor `<Particle>`. The joint sphere rides on the box above it.
 */
function Chain({ links, linkLength, iterations }: ChainArgs) {
  const points = useMemo(() => linkPoints(linkLength), [linkLength]);
  const pitch = linkLength + 2 * GAP;
  return (
    <>
      <Particle name="anchor" position={ANCHOR} mass={0} />
      {Array.from({ length: links }, (_, k) => (
        <RigidBody
          key={k}
          name={`link${k}`}
          shape="convex"
          points={points}
          position={[ANCHOR[0] + (k + 0.5) * pitch, ANCHOR[1], ANCHOR[2] + k * 0.02]}
          rotation={SIDEWAYS}
          mass={1}
          iterations={iterations}
          shared={{ 8: k === 0 ? 'anchor' : `link${k - 1}.9` }}
        >
          <mesh castShadow receiveShadow>
            <boxGeometry args={[LINK_WIDTH, linkLength, LINK_WIDTH]} />
            <meshStandardMaterial color={PALETTE[k % PALETTE.length]} roughness={0.5} />
          </mesh>
          {/* The ball joint above this box. */}
          <mesh position={[0, linkLength / 2 + GAP, 0]} castShadow>
            <sphereGeometry args={[GAP * 1.15, 16, 12]} />
            <meshStandardMaterial color="#e6e6e6" metalness={0.85} roughness={0.25} />
          </mesh>
        </RigidBody>
      ))}
      {/* The crossbar the chain hangs from, on two posts clear of its swing. */}
      <mesh position={[ANCHOR[0], ANCHOR[1] + 0.07, 0]} rotation={[0, 0, Math.PI / 2]} castShadow>
        <cylinderGeometry args={[0.05, 0.05, 2 * FRAME_HALF_WIDTH, 16]} />
        <meshStandardMaterial color="#8a93a8" metalness={0.6} roughness={0.4} />
      </mesh>
      {[-1, 1].map((side) => (
        <mesh key={side} position={[ANCHOR[0] + side * FRAME_HALF_WIDTH, (ANCHOR[1] + 0.07) / 2, 0]} castShadow receiveShadow>
          <boxGeometry args={[0.1, ANCHOR[1] + 0.07, 0.1]} />
          <meshStandardMaterial color="#5d6780" />
        </mesh>
      ))}
    </>
  );
}

function ChainScene(args: ChainArgs) {
  return (
    <Scene camera={[0.2, 1.5, 4.8]} target={[-0.2, 1.4, 0]} fov={55}>
      <fog attach="fog" args={['#15171c', 9, 20]} />
      <World damping={args.damping}>
        <Floor />
        <Chain {...args} />
        <DragControls />
        <WorldProbe />
      </World>
    </Scene>
  );
}

// ---- stories ----

const meta = {
  title: 'Articulated',
  component: RigidBody,
  parameters: { controls: { include: ['openAngle', 'hingeLean', 'mass', 'damping', 'links', 'linkLength', 'iterations'] } },
} satisfies Meta;
export default meta;

/**
 * A door hung on a hinge (paper section 6, articulated bodies): the door is a rigid
 * box that shares two particles with an immovable post, so it can only turn about
 * the line through them. The hinge leans a few degrees, so gravity swings the door
 * shut and it oscillates through its frame. Grab the door anywhere with the mouse
 * and swing it; set `hingeLean` to 0 and it stays wherever you leave it.
 */
export const HingedDoor: StoryObj<DoorArgs> = {
  name: 'Hinged door',
  args: { openAngle: 70, hingeLean: 4, mass: 8, damping: 0.05 },
  argTypes: {
    openAngle: { control: { type: 'range', min: -90, max: 90, step: 5 } },
    hingeLean: { control: { type: 'range', min: 0, max: 15, step: 0.5 } },
    mass: { control: { type: 'range', min: 1, max: 40, step: 1 } },
    damping: { control: { type: 'range', min: 0, max: 2, step: 0.05 } },
  },
  render: (args) => <HingedDoorScene {...args} />,
  play: async () => {
    const probe = await waitForProbe();
    const { world, canvas } = probe;
    const [frame, door] = bodiesOf(world, 'box');
    if (!frame || !door) throw new Error('the door and its post were not built');
    // The post's vertices 1 and 3 are the hinge; the door's own particles are its vertices 1, 3..7, so its first is the free bottom corner.
    const hingeBottom = world.getPosition(frame.first + 1);
    const corner = door.first;
    const hingeTop = world.getPosition(frame.first + 3);
    const angleOf = (p: readonly number[]) => Math.atan2(p[2]! - hingeBottom[2]!, p[0]! - hingeBottom[0]!);
    const before = world.getPosition(corner);
    const startAngle = angleOf(before);
    // Drag the free corner about 70° round the hinge from where it is, toward the other side.
    const goal = startAngle > 0 ? startAngle - 1.2 : startAngle + 1.2;
    const r = Math.hypot(before[0] - hingeBottom[0], before[2] - hingeBottom[2]);
    const target: [number, number, number] = [hingeBottom[0] + r * Math.cos(goal), before[1], hingeBottom[2] + r * Math.sin(goal)];
    const from = pointOnScreen(probe, before);
    const to = pointOnScreen(probe, target);
    await dragTo(canvas, from, to, 16, 500);
    // The door comes round behind the hand on its drag spring (5 Hz, at most twice its weight), in a second or
    // two of simulated time: headless Chromium steps slower than that under load.
    await waitFor(() => expect(Math.abs(angleOf(world.getPosition(corner)) - goal)).toBeLessThan(0.45), { timeout: 15_000 });
    const after = world.getPosition(corner);
    const turned = Math.abs(angleOf(after) - startAngle);
    // The door turned about its hinge toward the pointer ...
    await expect(turned).toBeGreaterThan(0.5);
    // Let go: the door swings on, and its sticks pull it back into shape (a pin beyond reach stretches it).
    pointer(canvas, 'pointerup', to[0], to[1]);
    await waitForSteps(world, 20);
    await expect(Math.abs(distance(world.getPosition(corner), hingeBottom) - distance(before, hingeBottom))).toBeLessThan(0.02);
    await expect(distance(world.getPosition(frame.first + 3), hingeTop)).toBeLessThan(1e-9);
  },
};

/**
 * Boxes joined into a chain by ball joints (paper section 6): each box shares one
 * particle with the next, just outside their end faces, so neighbours turn freely
 * about it, declared in React as `<RigidBody shared={{ 8: 'link2.9' }}>` (this box's
 * vertex 8 is box 2's vertex 9). The chain starts sideways and swings down from
 * its beam. Drag any box with the mouse, swing the chain around and throw it.
 */
export const ChainOfBoxes: StoryObj<ChainArgs> = {
  name: 'Chain of boxes',
  args: { links: 6, linkLength: 0.34, iterations: 2, damping: 0.05 },
  argTypes: {
    links: { control: { type: 'range', min: 2, max: 12, step: 1 } },
    linkLength: { control: { type: 'range', min: 0.15, max: 0.6, step: 0.01 } },
    iterations: { control: { type: 'range', min: 1, max: 8, step: 1 } },
    damping: { control: { type: 'range', min: 0, max: 2, step: 0.05 } },
  },
  render: (args) => <ChainScene {...args} />,
  play: async ({ args }) => {
    const { world } = await waitForProbe();
    const links = bodiesOf(world, 'convex');
    await expect(links).toHaveLength(args.links);
    await waitForSteps(world, 90);
    // Each box's own particles are its vertices 0-7 and then 9, its joint below; vertex 8,
    // its joint above, is the previous box's vertex 9 (or the anchor).
    const below = (k: number) => world.getPosition(links[k]!.first + 8);
    const pitch = args.linkLength + 2 * GAP;
    for (let k = 0; k < links.length; k++) {
      const above = k === 0 ? ANCHOR : below(k - 1);
      await expect(Math.abs(distance(above, below(k)) - pitch)).toBeLessThan(0.01);
    }
    // Let go level with its anchor, the chain has swung down (and is still swinging).
    await expect(ANCHOR[1] - below(links.length - 1)[1]).toBeGreaterThan(0.3);
  },
};
