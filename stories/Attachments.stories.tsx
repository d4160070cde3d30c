import type { Meta, StoryObj } from '@storybook/react-vite';
import { useFrame } from '@react-three/fiber';
import { useRef, type RefObject } from 'react';
import { DoubleSide, type Group } from 'three';
import { expect } from 'storybook/test';
import { Attach, Cloth, DragControls, RigidBody, Rope, STEP_PRIORITY, World } from '../src/react/index.js';
import { sleep, waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { Floor, Hint, documents, waitForSteps } from './support/softScenes.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Attachments',
  component: documents(Attach),
};
export default meta;

/** Moves things before the world steps (and before `<Attach>` reads them, at STEP_PRIORITY - 1): what hangs on them follows in the same frame. */
const MOVE_PRIORITY = STEP_PRIORITY - 2;

// ---------------------------------------------------------------------------
// Cape on a running character

interface CapeArgs {
  /** Running speed (m/s). */
  speed: number;
}

const RUN_RADIUS = 1.4;
const SHOULDER = 1.42;
const CAPE = { width: 10, height: 13, spacing: 0.05 } as const;

/** A character of primitives that runs round a circle, legs and arms swinging; a cape hangs from its shoulders. */
function Runner({ speed, body }: CapeArgs & { body: RefObject<Group | null> }) {
  const legs = [useRef<Group>(null), useRef<Group>(null)];
  const arms = [useRef<Group>(null), useRef<Group>(null)];
  const angle = useRef(0);
  useFrame((_, delta) => {
    const g = body.current;
    if (!g) return;
    angle.current += (speed * Math.min(delta, 0.1)) / RUN_RADIUS;
    const a = angle.current;
    const stride = a * RUN_RADIUS * 3.2;
    // Round the circle, facing along it (local +z forward), bobbing with each stride.
    g.position.set(RUN_RADIUS * Math.cos(a), 0.04 * Math.abs(Math.sin(stride)), RUN_RADIUS * Math.sin(a));
    g.rotation.set(0.12, -a, 0);
    legs.forEach((leg, k) => leg.current?.rotation.set(0.8 * Math.sin(stride + k * Math.PI), 0, 0));
    arms.forEach((arm, k) => arm.current?.rotation.set(-0.7 * Math.sin(stride + k * Math.PI), 0, 0));
  }, MOVE_PRIORITY);
  const skin = <meshStandardMaterial color="#e0b08a" roughness={0.7} />;
  const suit = <meshStandardMaterial color="#3b5b92" roughness={0.6} />;
  return (
    <group ref={body} position={[RUN_RADIUS, 0, 0]}>
      <mesh position={[0, 1.15, 0]} castShadow>
        <boxGeometry args={[0.42, 0.58, 0.22]} />
        {suit}
      </mesh>
      <mesh position={[0, 1.62, 0.01]} castShadow>
        <sphereGeometry args={[0.14, 20, 14]} />
        {skin}
      </mesh>
      {legs.map((leg, k) => (
        <group key={k} ref={leg} position={[k === 0 ? -0.11 : 0.11, 0.86, 0]}>
          <mesh position={[0, -0.42, 0]} castShadow>
            <capsuleGeometry args={[0.075, 0.66, 4, 10]} />
            <meshStandardMaterial color="#2b2f3a" roughness={0.7} />
          </mesh>
        </group>
      ))}
      {arms.map((arm, k) => (
        <group key={k} ref={arm} position={[k === 0 ? -0.27 : 0.27, 1.38, 0]}>
          <mesh position={[0, -0.28, 0]} castShadow>
            <capsuleGeometry args={[0.055, 0.46, 4, 10]} />
            {suit}
          </mesh>
        </group>
      ))}
    </group>
  );
}

function CapeScene({ speed }: CapeArgs) {
  const runner = useRef<Group>(null);
  const top = Array.from({ length: CAPE.width }, (_, i) => `cape.${i}`);
  const left = RUN_RADIUS - ((CAPE.width - 1) * CAPE.spacing) / 2;
  return (
    <Scene camera={[3.4, 2.6, -3.6]} target={[0.4, 0.8, 0]} overlay={<Hint>The cape's top row is attached to the runner's shoulders with &lt;Attach&gt;. Drag the cape.</Hint>}>
      <World damping={0.15} sleep={false} substeps={12}>
        <Floor />
        <Runner body={runner} speed={speed} />
        <Cloth name="cape" width={CAPE.width} height={CAPE.height} spacing={CAPE.spacing} corner={[left, SHOULDER, -0.13]} mass={0.35} bend={{ stiffness: 0.2 }} castShadow>
          <meshStandardMaterial color="#b3262e" side={DoubleSide} roughness={0.75} />
        </Cloth>
        <Attach to={runner} particles={top} />
        <DragControls />
        <WorldProbe />
      </World>
    </Scene>
  );
}

/**
 * A character made of three.js primitives runs round a circle; a `<Cloth>` cape
 * hangs from its shoulders, its top row held by `<Attach to={runner}
 * particles={["cape.0", …, "cape.9"]}>`. The attachment reads the character's
 * world matrix every frame before the world steps and spreads the move over
 * the substeps, so the cape streams behind at running speed without a jerk.
 * Change the speed in the controls; drag the cape with the mouse.
 */
export const CapeOnARunningCharacter: StoryObj<CapeArgs> = {
  name: 'Cape on a running character',
  render: (args) => <CapeScene {...args} />,
  args: { speed: 3 },
  argTypes: { speed: { control: { type: 'range', min: 0, max: 8, step: 0.5 }, description: 'Running speed (m/s).' } },
  parameters: { controls: { include: ['speed'] } },
  play: async () => {
    const probe = await waitForProbe();
    await waitForSteps(probe, 90);
    const { world } = probe;
    // The top row stays on the shoulders: 10 rigid pins, and the cape trails below them, finite.
    expect(world.pins.count).toBe(CAPE.width);
    for (let i = 0; i < world.particles.end * 3; i++) expect(Number.isFinite(world.particles.position[i])).toBe(true);
  },
};

// ---------------------------------------------------------------------------
// Rope tied to a moving car

interface TowArgs {
  /** Greatest speed of the car on its back-and-forth run (m/s). */
  speed: number;
  /** The rope lets go of the car above this pull (N); 0 never. */
  breakForce: number;
}

const HITCH: [number, number, number] = [-0.55, 0.32, 0];

/** A box car with four wheels driving back and forth along x (inside the canvas: it moves in `useFrame`). */
function Car({ speed, car }: { speed: number; car: RefObject<Group | null> }) {
  const time = useRef(0);
  const wheels = useRef<Group>(null);
  const range = 2.2;
  useFrame((_, delta) => {
    time.current += Math.min(delta, 0.1);
    const w = speed / range;
    if (car.current) car.current.position.x = 1 + range * Math.sin(w * time.current);
    const v = speed * Math.cos(w * time.current);
    wheels.current?.children.forEach((wheel) => (wheel.rotation.y -= (v * Math.min(delta, 0.1)) / 0.14));
  }, MOVE_PRIORITY);
  return (
    <group ref={car} position={[1, 0, 0]}>
      <mesh position={[0, 0.33, 0]} castShadow>
        <boxGeometry args={[1.1, 0.3, 0.56]} />
        <meshStandardMaterial color="#e0a43a" roughness={0.5} />
      </mesh>
      <mesh position={[0.1, 0.6, 0]} castShadow>
        <boxGeometry args={[0.55, 0.26, 0.5]} />
        <meshStandardMaterial color="#9fc7d6" roughness={0.3} />
      </mesh>
      <group ref={wheels}>
        {[-0.36, 0.36].flatMap((x) =>
          [-0.3, 0.3].map((z) => (
            <mesh key={`${x},${z}`} position={[x, 0.14, z]} rotation={[Math.PI / 2, 0, 0]} castShadow>
              <cylinderGeometry args={[0.14, 0.14, 0.08, 16]} />
              <meshStandardMaterial color="#22252b" roughness={0.9} />
            </mesh>
          )),
        )}
      </group>
    </group>
  );
}

/** The car with a rope tied to its hitch, a crate on the rope's other end. */
function TowScene({ speed, breakForce }: TowArgs) {
  const car = useRef<Group>(null);
  return (
    <Scene camera={[0.8, 2.4, 5.6]} target={[0, 0.4, 0]} overlay={<Hint>A rope tied to the car (one-way) and to a crate (two-way), with &lt;Attach&gt;.</Hint>}>
      <World damping={0.1} sleep={false} substeps={12} iterations={2}>
        <Floor />
        <Car speed={speed} car={car} />
        <Rope name="tow" from={[1 + HITCH[0], HITCH[1], 0]} to={[-1.8, 0.2, 0]} segments={24} display="tube" thickness={0.025} color="#d9c9a3" radius={0.02} castShadow />
        <RigidBody name="crate" shape="box" size={0.3} position={[-1.95, 0.16, 0]} mass={1.5} color="#8a5a34" castShadow />
        <Attach to={car} particles={['tow.start']} breakForce={breakForce > 0 ? breakForce : undefined} />
        <Attach to="crate" particles={['tow.end']} />
        <DragControls />
        <WorldProbe />
      </World>
    </Scene>
  );
}

/**
 * A box car drives back and forth; a rope is tied to its hitch with `<Attach
 * to={car} particles={["tow.start"]}>` (one-way: the car is driven, the rope
 * follows its world matrix, the move spread over the substeps) and to a crate
 * with `<Attach to="crate" particles={["tow.end"]}>` (two-way: the rope pulls
 * the crate, the crate's mass holds the rope back). Driving off, the car drags
 * the crate; coming back, the rope goes slack and swings. Give a break force
 * and a hard pull snaps the rope off the car.
 */
export const RopeTiedToAMovingCar: StoryObj<TowArgs> = {
  name: 'Rope tied to a moving car',
  render: (args) => <TowScene {...args} />,
  args: { speed: 2.5, breakForce: 0 },
  argTypes: {
    speed: { control: { type: 'range', min: 0, max: 6, step: 0.5 }, description: 'Greatest speed of the car (m/s).' },
    breakForce: { control: { type: 'range', min: 0, max: 100, step: 5 }, description: 'The rope lets go of the car above this pull (N); 0 never.' },
  },
  parameters: { controls: { include: ['speed', 'breakForce'] } },
  play: async () => {
    const probe = await waitForProbe();
    await waitForSteps(probe, 120);
    await sleep(100);
    const { world } = probe;
    // One pin holds the rope's start on the car; the crate link is a constraint of its own.
    expect(world.pins.count).toBe(1);
    for (let i = 0; i < world.particles.end * 3; i++) expect(Number.isFinite(world.particles.position[i])).toBe(true);
  },
};
