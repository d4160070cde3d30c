import type { Meta, StoryObj } from '@storybook/react-vite';
import { BallCollider, Physics, RigidBody, type RapierRigidBody } from '@react-three/rapier';
import { useEffect, useRef } from 'react';
import { DoubleSide } from 'three';
import { expect } from 'storybook/test';
import { Cloth, DragControls, World } from '../src/react/index.js';
import { RapierBridge } from '../src/rapier/index.js';
import { sleep, waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { Floor, Hint, SOFT_PALETTE, documents, useCanvasTexture, waitForBody } from './support/softScenes.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Rapier',
  component: documents(RapierBridge),
};
export default meta;

declare global {
  interface Window {
    /** The story's Rapier balls, for its play function and the devtools console. */
    sinewRapierBalls?: (RapierRigidBody | null)[];
  }
}

interface HammockArgs {
  /** Balls dropped into the hammock. */
  balls: number;
  /** Mass of each ball (kg). */
  mass: number;
}

// Balls dropped near its middle, and damped against rolling (angularDamping 6): a hammock pinned at
// its corners sags at its edges too, and balls dropped 0.3 m off-centre, or nudged there by the
// others with angularDamping 1.5, rolled out over them.
const HAMMOCK = { width: 22, height: 22, spacing: 0.07, top: 1 } as const;
const RADIUS = 0.14;

/** A striped canvas. */
function paintStripes(g: CanvasRenderingContext2D, width: number, height: number) {
  g.fillStyle = '#f4f1e8';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#4fb3c4';
  for (let x = 0; x < width; x += 32) g.fillRect(x, 0, 14, height);
}

/** Rapier balls dropped one after another from above the hammock's middle, a little apart. */
function Balls({ balls, mass }: HammockArgs) {
  const refs = useRef<(RapierRigidBody | null)[]>([]);
  useEffect(() => {
    window.sinewRapierBalls = refs.current;
    return () => void delete window.sinewRapierBalls;
  }, []);
  return (
    <>
      {Array.from({ length: balls }, (_, i) => (
        <RigidBody
          key={i}
          ref={(body) => void (refs.current[i] = body)}
          colliders={false}
          position={[((i % 3) - 1) * 0.15, 1.7 + i * 0.45, ((i % 2) - 0.5) * 0.2]}
          linearDamping={1.5}
          angularDamping={6}
        >
          <BallCollider args={[RADIUS]} mass={mass} />
          <mesh castShadow>
            <sphereGeometry args={[RADIUS, 32, 16]} />
            <meshStandardMaterial color={SOFT_PALETTE[i % SOFT_PALETTE.length]} roughness={0.4} />
          </mesh>
        </RigidBody>
      ))}
    </>
  );
}

function HammockScene(args: HammockArgs) {
  const map = useCanvasTexture(paintStripes, 256, 256);
  const w = (HAMMOCK.width - 1) * HAMMOCK.spacing;
  const d = (HAMMOCK.height - 1) * HAMMOCK.spacing;
  const corners: [number, number][] = [
    [-w / 2, -d / 2],
    [w / 2, -d / 2],
    [-w / 2, d / 2],
    [w / 2, d / 2],
  ];
  return (
    <Scene camera={[1.6, 1.9, 2.4]} target={[0, 0.8, 0]} overlay={<Hint>Rapier balls (@react-three/rapier) fall into a sinew hammock, which catches them two-way. Drag the cloth.</Hint>}>
      {/* One clock: sinew's step steps Rapier (paused, timeStep "vary"). */}
      <Physics paused timeStep="vary">
        <World damping={0.1} sleep={false}>
          <Floor />
          <RapierBridge />
          <Cloth
            name="hammock"
            width={HAMMOCK.width}
            height={HAMMOCK.height}
            spacing={HAMMOCK.spacing}
            orientation="horizontal"
            corner={[-w / 2, HAMMOCK.top, -d / 2]}
            pin="corners"
            radius={0.02}
            mass={0.8}
            castShadow
          >
            <meshStandardMaterial map={map} side={DoubleSide} roughness={0.85} />
          </Cloth>
          <Balls {...args} />
          <DragControls />
          <WorldProbe />
        </World>
      </Physics>
      {corners.map(([x, z], i) => (
        <mesh key={i} position={[x, HAMMOCK.top / 2, z]} castShadow>
          <cylinderGeometry args={[0.025, 0.025, HAMMOCK.top, 10]} />
          <meshStandardMaterial color="#c9a66b" roughness={0.5} />
        </mesh>
      ))}
    </Scene>
  );
}

/**
 * A hammock of sinew cloth pinned at its four corners, and balls that Rapier
 * runs (`<RigidBody>` of @react-three/rapier) dropped into it. `<RapierBridge>`
 * makes each Rapier collider a sinew kinematic collider and couples the
 * dynamic bodies two-way inside sinew's step: every correction between a
 * particle and a ball is shared by their inverse masses, so the cloth gives
 * under a heavy ball and the ball comes to rest in the cloth, with no energy
 * gained. The balls are damped in Rapier (`linearDamping`, `angularDamping`):
 * the coupling adds no damping of its own.
 */
export const HammockCatchingRapierBalls: StoryObj<HammockArgs> = {
  name: 'Hammock catching Rapier balls',
  render: (args) => <HammockScene {...args} />,
  args: { balls: 3, mass: 1 },
  argTypes: {
    balls: { control: { type: 'range', min: 1, max: 6, step: 1 }, description: 'Balls dropped into the hammock.' },
    mass: { control: { type: 'range', min: 0.1, max: 3, step: 0.1 }, description: 'Mass of each ball (kg).' },
  },
  parameters: { controls: { include: ['balls', 'mass'] } },
  play: async () => {
    const probe = await waitForProbe();
    await waitForBody(probe, 'cloth');
    // Rapier loads its WebAssembly first; then every ball falls from 1.7 m or higher.
    for (let t = 0; t < 100 && (window.sinewRapierBalls?.filter(Boolean).length ?? 0) < 3; t++) await sleep(100);
    const balls = window.sinewRapierBalls!.filter((ball): ball is RapierRigidBody => ball !== null);
    await expect(balls).toHaveLength(3);
    let lowest = Infinity;
    // Three seconds of world time: the last ball, from 2.6 m, is caught 0.6 s after
    // it falls. No more: on a loaded machine headless Chromium runs far below 60
    // fps, world time falls behind, and 6 s of it once took longer than the
    // test's 30 s timeout.
    const start = probe.world.time;
    while (probe.world.time - start < 3) {
      await sleep(200);
      for (const ball of balls) lowest = Math.min(lowest, ball.translation().y);
    }
    // Caught: each lies in the cloth (sagging from its corners at 1 m), none fell through to the floor.
    for (const ball of balls) {
      await expect(ball.translation().y).toBeGreaterThan(0.4);
      await expect(ball.translation().y).toBeLessThan(1.1);
    }
    await expect(lowest).toBeGreaterThan(0.3);
    // Drop the first ball again from higher up: the scene is moving, not at rest, when its picture is checked.
    const again = balls[0]!;
    const at = again.translation();
    again.setTranslation({ x: at.x, y: 2.4, z: at.z }, true);
    again.setLinvel({ x: 0, y: 0, z: 0 }, true);
  },
};
