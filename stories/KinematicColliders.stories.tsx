import type { Meta, StoryObj } from '@storybook/react-vite';
import { useFrame } from '@react-three/fiber';
import { useRef } from 'react';
import { DoubleSide, type Group } from 'three';
import { expect } from 'storybook/test';
import { BoxCollider, Cloth, DragControls, STEP_PRIORITY, World } from '../src/react/index.js';
import { sleep, waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { Floor, Hint, centroid, documents, useCanvasTexture, waitForBody } from './support/softScenes.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Kinematic colliders',
  component: documents(BoxCollider),
};
export default meta;

// ---------------------------------------------------------------------------
// A paddle batting a cloth

interface PaddleArgs {
  /** Swings per second. */
  rate: number;
  /** Half the swing's arc (rad). */
  amplitude: number;
}

const CURTAIN = { width: 21, height: 17, spacing: 0.05, top: 2 } as const;
const PIVOT: [number, number, number] = [0, 2.35, 0.35];
const ARM = 1.15;

/** A plain dotted cotton. */
function paintDots(g: CanvasRenderingContext2D, width: number, height: number) {
  g.fillStyle = '#3f9fb0';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#f4f1e8';
  for (let y = 8; y < height; y += 16) for (let x = (y / 16) % 2 === 0 ? 8 : 16; x < width; x += 16) g.fillRect(x - 2, y - 2, 4, 4);
}

/**
 * The paddle's arm: a group turning about the pivot, animated before the world
 * steps (a priority below `STEP_PRIORITY - 1`, where following colliders read
 * their parents), so the paddle is where the frame shows it.
 */
function SwingingPaddle({ rate, amplitude }: PaddleArgs) {
  const arm = useRef<Group>(null);
  useFrame((state) => {
    arm.current!.rotation.x = 0.15 + amplitude * Math.sin(2 * Math.PI * rate * state.clock.elapsedTime);
  }, STEP_PRIORITY - 2);
  return (
    <group ref={arm} position={PIVOT}>
      <mesh position={[0, -ARM / 2, 0]} castShadow>
        <cylinderGeometry args={[0.015, 0.015, ARM, 8]} />
        <meshStandardMaterial color="#c9a66b" roughness={0.5} />
      </mesh>
      <group position={[0, -ARM, 0]}>
        <BoxCollider follow size={[0.55, 0.4, 0.04]} friction={0.6}>
          <mesh castShadow>
            <boxGeometry args={[0.55, 0.4, 0.04]} />
            <meshStandardMaterial color="#e8605c" roughness={0.45} />
          </mesh>
        </BoxCollider>
      </group>
    </group>
  );
}

function PaddleScene(args: PaddleArgs) {
  const map = useCanvasTexture(paintDots, 256, 256);
  const left = (-(CURTAIN.width - 1) * CURTAIN.spacing) / 2;
  return (
    <Scene camera={[1.9, 1.75, 0.9]} target={[0, 1.55, 0.1]} overlay={<Hint>A paddle inside an animated group: a kinematic collider. Fast swings do not pass through.</Hint>}>
      <World damping={0.05} sleep={false}>
        <Floor />
        <Cloth name="curtain" width={CURTAIN.width} height={CURTAIN.height} spacing={CURTAIN.spacing} corner={[left, CURTAIN.top, 0]} pin="top" mass={0.3} radius={0.012} castShadow>
          <meshStandardMaterial map={map} side={DoubleSide} roughness={0.85} />
        </Cloth>
        <SwingingPaddle {...args} />
        <DragControls />
        <WorldProbe />
      </World>
      <mesh position={[0, CURTAIN.top + 0.02, 0]} rotation-z={Math.PI / 2} castShadow>
        <cylinderGeometry args={[0.015, 0.015, (CURTAIN.width - 1) * CURTAIN.spacing + 0.2, 12]} />
        <meshStandardMaterial color="#c9ccd2" metalness={0.6} roughness={0.35} />
      </mesh>
    </Scene>
  );
}

/**
 * A curtain pinned along its top and a paddle on an arm that swings through
 * it. The paddle is an ordinary `<BoxCollider follow>` inside the animated arm:
 * every frame it takes the arm's world pose, and the world spreads the move over
 * its substeps, sweeps the cloth in the paddle's frame and hands the cloth the
 * paddle's speed. Raise the rate: at 2 swings per second the paddle's face moves
 * at about 9 m/s, over 1.5 cm per substep against a 4 cm paddle, and still
 * no particle slips through.
 */
export const PaddleBattingCloth: StoryObj<PaddleArgs> = {
  name: 'A paddle batting a cloth',
  render: (args) => <PaddleScene {...args} />,
  args: { rate: 0.7, amplitude: 0.75 },
  argTypes: {
    rate: { control: { type: 'range', min: 0.1, max: 2, step: 0.05 }, description: 'Swings per second.' },
    amplitude: { control: { type: 'range', min: 0.1, max: 1.2, step: 0.05 }, description: "Half the swing's arc (rad)." },
  },
  parameters: { controls: { include: ['rate', 'amplitude'] } },
  play: async () => {
    const probe = await waitForProbe();
    const curtain = await waitForBody(probe, 'cloth');
    // Over a swing and a half the paddle pushes the curtain back (-z) and lets it go.
    let deepest = 0;
    for (let t = 0; t < 30; t++) {
      await sleep(100);
      deepest = Math.min(deepest, centroid(probe, curtain.first, curtain.count)[2]);
    }
    await expect(deepest).toBeLessThan(-0.05);
    const collider = probe.world.kinematicColliders[0]!;
    await expect(Math.hypot(...collider.velocity)).toBeGreaterThan(0);
  },
};
