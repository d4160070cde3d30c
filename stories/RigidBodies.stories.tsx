import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { MeshStandardMaterial } from 'three';
import { BoxCollider, DragControls, ParticleCollisions, RigidBody, SoftBody, World } from 'sinew-physics';
import { boxPoints, Floor, hash01, PALETTE, tetrahedronPoints, useRoundedHull } from './support/bodiesScene.js';
import { Scene } from './support/Scene.js';
import { WorldProbe } from './support/WorldProbe.js';

// ---- the stage: a tilted board (an oriented box collider) into a three-sided bin ----

const RAMP_TILT = 0.5;
const RAMP_CENTER: [number, number, number] = [-0.45, 0.85, 0];
const RAMP_SIZE: [number, number, number] = [3.0, 0.12, 1.3];
/** Height of the ramp's top face above x (along its centre line). */
function rampTop(x: number): number {
  return RAMP_CENTER[1] + RAMP_SIZE[1] / 2 / Math.cos(RAMP_TILT) - (x - RAMP_CENTER[0]) * Math.tan(RAMP_TILT);
}

function Wall({ position, size, color = '#404756' }: { position: [number, number, number]; size: [number, number, number]; color?: string }) {
  return (
    <BoxCollider position={position} size={size}>
      <mesh castShadow receiveShadow>
        <boxGeometry args={size} />
        <meshStandardMaterial color={color} roughness={0.8} />
      </mesh>
    </BoxCollider>
  );
}

/** The ramp (an oriented `<BoxCollider>`) on two posts, and a bin of three walls at its foot. */
function Ramp() {
  const rotation: [number, number, number] = [0, 0, -RAMP_TILT];
  return (
    <>
      <BoxCollider position={RAMP_CENTER} size={RAMP_SIZE} rotation={rotation} friction={1}>
        <mesh castShadow receiveShadow>
          <boxGeometry args={RAMP_SIZE} />
          <meshStandardMaterial color="#56617a" roughness={0.7} />
        </mesh>
      </BoxCollider>
      {/* Side rails along the ramp keep the bodies in their lane. */}
      {[-1, 1].map((side) => (
        <BoxCollider key={side} position={[RAMP_CENTER[0], RAMP_CENTER[1] + 0.12, side * (RAMP_SIZE[2] / 2 + 0.03)]} size={[RAMP_SIZE[0], 0.36, 0.06]} rotation={rotation}>
          <mesh>
            <boxGeometry args={[RAMP_SIZE[0], 0.36, 0.06]} />
            <meshStandardMaterial color="#6b7690" roughness={0.7} transparent opacity={0.55} />
          </mesh>
        </BoxCollider>
      ))}
      {/* Posts under the ramp: drawn only. */}
      {[-1.5, 0.2].map((x) => (
        <mesh key={x} position={[x, rampTop(x) / 2 - 0.1, 0]} castShadow receiveShadow>
          <boxGeometry args={[0.12, rampTop(x) - 0.2, 0.12]} />
          <meshStandardMaterial color="#3b4252" />
        </mesh>
      ))}
      {/* A small bin at the foot of the ramp, so the bodies have to pile up. */}
      <Wall position={[1.51, 0.4, 0]} size={[0.12, 0.8, 1.5]} />
      <Wall position={[1.16, 0.3, -0.7]} size={[0.82, 0.6, 0.1]} />
      <Wall position={[1.16, 0.2, 0.7]} size={[0.82, 0.4, 0.1]} color="#4b5468" />
    </>
  );
}

/** Where body `i` of `count` starts: above the top half of the ramp, in rows, never overlapping. */
function dropPoint(i: number, lanes: readonly number[], xs: readonly number[]): [number, number, number] {
  const x = xs[i % xs.length]!;
  const z = lanes[Math.floor(i / xs.length) % lanes.length]!;
  const row = Math.floor(i / (xs.length * lanes.length));
  return [x + (hash01(i, 1) - 0.5) * 0.08, rampTop(x) + 0.45 + row * 0.55, z + (hash01(i, 2) - 0.5) * 0.1];
}

function Stage({ children, overlay, onReset }: { children: ReactNode; overlay?: ReactNode; onReset: () => void }) {
  return (
    <Scene
      camera={[1.1, 2.3, 4.3]}
      target={[0.05, 0.65, 0]}
      fov={50}
      overlay={
        <>
          <button type="button" onClick={onReset} style={buttonStyle}>
            Drop again
          </button>
          {overlay}
        </>
      }
    >
      <fog attach="fog" args={['#15171c', 8, 18]} />
      <World>
        <Floor />
        <Ramp />
        <ParticleCollisions />
        <DragControls />
        <WorldProbe />
        {children}
      </World>
    </Scene>
  );
}

const buttonStyle = {
  font: 'inherit',
  padding: '6px 12px',
  borderRadius: 6,
  border: '1px solid #59627a',
  background: '#2b3040',
  color: '#f0f0f0',
  cursor: 'pointer',
} as const;

// ---- rigid bodies whose collision points carry spheres, drawn as their rounded hull ----

/** Particle radius of the bodies' points: the rounding of their edges and corners. */
const RADIUS = 0.045;
const BOX_SIZE: [number, number, number] = [0.34, 0.3, 0.34];
const TETRA_EDGE = 0.5;

/** The two tumbling shapes: their particle points, mass, and where their seeded start pose is drawn from. */
const TUMBLERS = {
  crate: { points: () => boxPoints(BOX_SIZE, RADIUS), mass: 1, seed: 3, spinY: 0 },
  tetrahedron: { points: () => tetrahedronPoints(TETRA_EDGE, RADIUS), mass: 0.7, seed: 8, spinY: 4 },
} as const;

interface TumblerProps {
  kind: keyof typeof TUMBLERS;
  index: number;
  position: [number, number, number];
  friction: number;
  iterations: number;
  color: string;
}

/** A rigid body of particle spheres, drawn as their rounded hull, dropped in a seeded pose and spin. */
function Tumbler({ kind, index, position, friction, iterations, color }: TumblerProps) {
  const { points: makePoints, mass, seed, spinY } = TUMBLERS[kind];
  const points = useMemo(makePoints, [makePoints]);
  const hull = useRoundedHull(points, RADIUS);
  const h = (k: number) => hash01(index, seed + k);
  return (
    <RigidBody
      shape="convex"
      points={points}
      position={position}
      rotation={[h(0) * 3, h(1) * 3, h(2) * 3]}
      angularVelocity={[(h(3) - 0.5) * 6, (h(4) - 0.5) * spinY, (h(5) - 0.5) * 6]}
      mass={mass}
      radius={RADIUS}
      friction={friction}
      iterations={iterations}
    >
      <mesh geometry={hull} castShadow receiveShadow>
        <meshStandardMaterial color={color} roughness={0.55} flatShading />
      </mesh>
    </RigidBody>
  );
}

// ---- Tumbling down a ramp ----

interface TumbleArgs {
  /** Bodies dropped: boxes and tetrahedra, alternating. */
  count: number;
  /** Coulomb friction μ of the bodies' particles (the ramp's is 1). */
  friction: number;
  /** Relaxation passes per substep for each body: more keeps them stiffer in hard contacts. */
  iterations: number;
}

function TumblingScene({ count, friction, iterations }: TumbleArgs) {
  const [round, setRound] = useState(0);
  return (
    <Stage onReset={() => setRound((r) => r + 1)}>
      <group key={`${round}-${count}`}>
        {Array.from({ length: count }, (_, i) => {
          const position = dropPoint(i, [-0.28, 0.28], [-1.55, -1.05, -0.55]);
          const props = { index: i + round * 31, position, friction, iterations, color: PALETTE[i % PALETTE.length]! };
          return <Tumbler key={i} kind={i % 2 === 0 ? 'crate' : 'tetrahedron'} {...props} />;
        })}
      </group>
    </Stage>
  );
}

// ---- Rigid vs soft ----

interface RigidSoftArgs {
  /** Boxes in each lane. */
  perLane: number;
  /** Stiffness of the soft boxes' sticks, 1 (firm) down to 0.01 (jelly); changes live. */
  stiffness: number;
  /** Share of the soft boxes' volume error repaired per pass; changes live. */
  pressure: number;
  /** Coulomb friction μ of every box. */
  friction: number;
}

/** A soft box's particles sit `RADIUS` inside its drawn surface: this material grows the drawn mesh by the radius along its normals. */
function useGrownMaterial(color: string, grow: number) {
  const material = useMemo(() => {
    const m = new MeshStandardMaterial({ color, roughness: 0.35 });
    m.onBeforeCompile = (shader) => {
      shader.vertexShader = shader.vertexShader.replace('#include <begin_vertex>', `#include <begin_vertex>\ntransformed += normalize(objectNormal) * ${grow.toFixed(5)};`);
    };
    m.customProgramCacheKey = () => `grown-${grow}`;
    return m;
  }, [color, grow]);
  useEffect(() => () => material.dispose(), [material]);
  return material;
}

const SOFT_SIZE = 0.4;

function SoftCrate({ position, stiffness, pressure, friction, color }: { position: [number, number, number]; stiffness: number; pressure: number; friction: number; color: string }) {
  const material = useGrownMaterial(color, RADIUS);
  return (
    <SoftBody shape="box" position={position} size={SOFT_SIZE - 2 * RADIUS} resolution={3} mass={1} radius={RADIUS} stiffness={stiffness} pressure={pressure} friction={friction} castShadow>
      <primitive object={material} attach="material" />
    </SoftBody>
  );
}

function RigidSoftScene({ perLane, stiffness, pressure, friction }: RigidSoftArgs) {
  const [round, setRound] = useState(0);
  const points = useMemo(() => boxPoints([SOFT_SIZE, SOFT_SIZE, SOFT_SIZE], RADIUS), []);
  const hull = useRoundedHull(points, RADIUS);
  const xs = [-1.55, -0.95];
  return (
    <Stage
      onReset={() => setRound((r) => r + 1)}
      overlay={
        <span>
          <b style={{ color: '#e8894a' }}>rigid</b> (back lane) · <b style={{ color: '#4fb3c4' }}>soft, stiffness {stiffness}</b> (front lane)
        </span>
      }
    >
      <group key={`${round}-${perLane}`}>
        {Array.from({ length: perLane }, (_, i) => (
          <RigidBody
            key={`rigid-${i}`}
            shape="convex"
            points={points}
            position={dropPoint(i, [-0.3], xs)}
            rotation={[0, 0, 0.3 + hash01(i, 20) * 0.4]}
            angularVelocity={[0, 0, -4]}
            mass={1}
            radius={RADIUS}
            friction={friction}
          >
            <mesh geometry={hull} castShadow receiveShadow>
              <meshStandardMaterial color="#e8894a" roughness={0.5} flatShading />
            </mesh>
          </RigidBody>
        ))}
        {Array.from({ length: perLane }, (_, i) => (
          <SoftCrate key={`soft-${i}`} position={dropPoint(i, [0.3], xs)} stiffness={stiffness} pressure={pressure} friction={friction} color="#4fb3c4" />
        ))}
      </group>
    </Stage>
  );
}

// ---- stories ----

const meta = {
  title: 'Rigid bodies',
  component: RigidBody,
  parameters: { controls: { include: ['count', 'friction', 'iterations', 'perLane', 'stiffness', 'pressure'] } },
} satisfies Meta;
export default meta;

/**
 * Boxes and tetrahedra (the paper's rigid bodies: particles held by a stick between
 * every pair) tumble down an oriented-box ramp and pile up in the bin at its foot.
 * Each body is a handful of particles with a radius, drawn as the rounded hull those
 * spheres make; particle–particle collisions keep the bodies apart, so they stack.
 * Drag any body with the mouse and throw it; press **Drop again** to repeat; raise
 * `iterations` and the bodies stay stiffer when they hit hard.
 */
export const TumblingDownARamp: StoryObj<TumbleArgs> = {
  name: 'Tumbling down a ramp',
  args: { count: 10, friction: 0.3, iterations: 2 },
  argTypes: {
    count: { control: { type: 'range', min: 1, max: 16, step: 1 } },
    friction: { control: { type: 'range', min: 0, max: 1.5, step: 0.05 } },
    iterations: { control: { type: 'range', min: 1, max: 8, step: 1 } },
  },
  render: (args) => <TumblingScene {...args} />,
};

/**
 * The same ramp with rigid boxes in the back lane and soft boxes (`<SoftBody>`:
 * soft sticks over a box surface plus a volume constraint) in the front lane. At
 * `stiffness` 1 the soft boxes are nearly as firm as the rigid ones; slide it down
 * to 0.01 and they land like jelly, squash in the pile and spring back. Drag a box
 * with the mouse to feel the difference.
 */
export const RigidVsSoft: StoryObj<RigidSoftArgs> = {
  name: 'Rigid vs soft',
  args: { perLane: 3, stiffness: 0.08, pressure: 1, friction: 0.3 },
  argTypes: {
    perLane: { control: { type: 'range', min: 1, max: 5, step: 1 } },
    stiffness: { control: { type: 'range', min: 0.01, max: 1, step: 0.01 } },
    pressure: { control: { type: 'range', min: 0, max: 1, step: 0.05 } },
    friction: { control: { type: 'range', min: 0, max: 1.5, step: 0.05 } },
  },
  render: (args) => <RigidSoftScene {...args} />,
};
