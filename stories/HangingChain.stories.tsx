import type { Meta, StoryObj } from '@storybook/react-vite';
import { OrbitControls } from '@react-three/drei';
import { Canvas, useFrame } from '@react-three/fiber';
import { useLayoutEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import { World, particleSlot } from '../src/core/index.js';

interface ChainArgs {
  /** Links in the chain. */
  links: number;
  /** Verlet + relaxation substeps per 1/60 s step. */
  substeps: number;
  /** Relaxation passes per substep. */
  iterations: number;
  /** Per-second drag. */
  damping: number;
}

/** Builds a chain pinned at its top, started sideways so it swings. */
function buildChain({ links, substeps, iterations, damping }: ChainArgs) {
  const world = new World({ substeps, iterations, damping });
  const length = 0.12;
  const first = world.addParticles(Array.from({ length: links + 1 }, (_, i) => ({ position: [i * length, 2, 0] as [number, number, number], radius: 0.03 })));
  world.addPin(first);
  for (let i = 0; i < links; i++) world.addStick(first + i, first + i + 1);
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  world.addCollider({ type: 'sphere', position: [0.2, 0.6, 0], radius: 0.35 });
  return { world, first, count: links + 1 };
}

/** Steps a core World in useFrame and writes particles and sticks straight into GPU buffers. */
function ChainScene(args: ChainArgs) {
  const { world, first, count } = useMemo(() => buildChain(args), [args]);
  const balls = useRef<THREE.InstancedMesh>(null);
  const lines = useRef<THREE.BufferGeometry>(null);
  const linePositions = useMemo(() => new Float32Array((count - 1) * 6), [count]);
  const matrix = useMemo(() => new THREE.Matrix4(), []);

  useLayoutEffect(() => {
    lines.current?.setAttribute('position', new THREE.BufferAttribute(linePositions, 3));
  }, [linePositions]);

  useFrame((_, delta) => {
    world.advance(Math.min(delta, 0.1));
    const p = world.positions;
    // The columns are indexed by slot: an id is its slot until the slot is reused.
    const slot = particleSlot(first);
    for (let i = 0; i < count; i++) {
      const k = (slot + i) * 3;
      matrix.makeTranslation(p[k]!, p[k + 1]!, p[k + 2]!);
      balls.current?.setMatrixAt(i, matrix);
      // Segment i-1 runs from particle i-1 to particle i: six floats copied from the core's array.
      if (i > 0) for (let c = 0; c < 6; c++) linePositions[(i - 1) * 6 + c] = p[k - 3 + c]!;
    }
    if (balls.current) balls.current.instanceMatrix.needsUpdate = true;
    const attribute = lines.current?.getAttribute('position');
    if (attribute) attribute.needsUpdate = true;
    lines.current?.computeBoundingSphere();
  });

  return (
    <>
      <instancedMesh ref={balls} args={[undefined, undefined, count]} frustumCulled={false}>
        <sphereGeometry args={[0.03, 12, 8]} />
        <meshStandardMaterial color="#f0a040" />
      </instancedMesh>
      <lineSegments frustumCulled={false}>
        <bufferGeometry ref={lines} />
        <lineBasicMaterial color="#dddddd" />
      </lineSegments>
      <mesh position={[0.2, 0.6, 0]}>
        <sphereGeometry args={[0.35, 32, 16]} />
        <meshStandardMaterial color="#4a6fa5" />
      </mesh>
      <mesh rotation-x={-Math.PI / 2}>
        <planeGeometry args={[6, 6]} />
        <meshStandardMaterial color="#333840" />
      </mesh>
    </>
  );
}

function HangingChain(args: ChainArgs) {
  return (
    <div style={{ width: '100%', height: '100vh', background: '#15171c' }}>
      <Canvas camera={{ position: [1.2, 1.6, 3.8], fov: 50 }}>
        <OrbitControls target={[0.8, 1.1, 0]} />
        <ambientLight intensity={0.6} />
        <directionalLight position={[3, 5, 2]} intensity={1.5} />
        <ChainScene {...args} />
      </Canvas>
    </div>
  );
}

const meta: Meta<typeof HangingChain> = {
  title: 'Core/Hanging chain',
  component: HangingChain,
  args: { links: 20, substeps: 10, iterations: 1, damping: 0.05 },
  argTypes: {
    links: { control: { type: 'range', min: 2, max: 60, step: 1 } },
    substeps: { control: { type: 'range', min: 1, max: 20, step: 1 } },
    iterations: { control: { type: 'range', min: 1, max: 20, step: 1 } },
    damping: { control: { type: 'range', min: 0, max: 2, step: 0.01 } },
  },
};
export default meta;

/** A chain of sticks pinned at one end, released sideways so it swings over a sphere onto the floor. */
export const Default: StoryObj<typeof HangingChain> = {};
