import { describe, expect, it } from 'vitest';
import { createBox, createConvex, createTetrahedron, World, type RigidBody, type StickKernel, type Vec3 } from '../../src/core/index.js';

// Issue 11, first part: default rigid bodies keep their shape through a 5 m/s
// impact (every pairwise distance within 1% at every step) and a free spin keeps
// its angular momentum (within 1% per second at damping 0). Measured before the
// rigid-motion stage (bodies/rigidMotion.ts): a box spinning at 6 rad/s lost 5.6%
// of its angular momentum per second, a tetrahedron at 3.7 rad/s 1.6%; now both
// keep it to 1e-5 over 5 s. Impacts: 0.005–0.3% (RIGID_MIN_ITERATIONS passes).

const kernels: StickKernel[] = ['wasm', 'js'];

/** Angular momentum about the centre of mass of `ids`, from their Verlet velocities. */
function angularMomentum(world: World, ids: readonly number[]): Vec3 {
  const h = world.substep;
  const x = world.particles.position;
  const p = world.particles.previous;
  let mass = 0;
  const c: Vec3 = [0, 0, 0];
  const v: Vec3 = [0, 0, 0];
  for (const i of ids) {
    const m = world.getMass(i);
    mass += m;
    for (let k = 0; k < 3; k++) {
      c[k] = c[k]! + m * x[i * 3 + k]!;
      v[k] = v[k]! + (m * (x[i * 3 + k]! - p[i * 3 + k]!)) / h;
    }
  }
  const l: Vec3 = [0, 0, 0];
  for (const i of ids) {
    const m = world.getMass(i);
    const r = [0, 1, 2].map((k) => x[i * 3 + k]! - c[k]! / mass);
    const u = [0, 1, 2].map((k) => (x[i * 3 + k]! - p[i * 3 + k]!) / h - v[k]! / mass);
    l[0] += m * (r[1]! * u[2]! - r[2]! * u[1]!);
    l[1] += m * (r[2]! * u[0]! - r[0]! * u[2]!);
    l[2] += m * (r[0]! * u[1]! - r[1]! * u[0]!);
  }
  return l;
}

/** Largest |d/d₀ − 1| over every pair of `ids`, against the distances `rest`. */
function distortion(world: World, ids: readonly number[], rest: readonly number[]): number {
  let worst = 0;
  let k = 0;
  const x = world.particles.position;
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++, k++) {
      const a = ids[i]! * 3;
      const b = ids[j]! * 3;
      const d = Math.hypot(x[a]! - x[b]!, x[a + 1]! - x[b + 1]!, x[a + 2]! - x[b + 2]!);
      worst = Math.max(worst, Math.abs(d / rest[k]! - 1));
    }
  return worst;
}

function pairDistances(world: World, ids: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i++)
    for (let j = i + 1; j < ids.length; j++) {
      const a = world.getPosition(ids[i]!);
      const b = world.getPosition(ids[j]!);
      out.push(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    }
  return out;
}

const spins: { name: string; make: (world: World) => RigidBody }[] = [
  { name: 'a box about its long axis', make: (w) => createBox(w, { size: [1, 0.6, 0.3], angularVelocity: [6, 0, 0], collideEdges: false }) },
  { name: 'a box about its short axis', make: (w) => createBox(w, { size: [1, 0.6, 0.3], angularVelocity: [0, 0, 6], collideEdges: false }) },
  { name: 'a box tumbling about its middle axis', make: (w) => createBox(w, { size: [1, 0.6, 0.3], angularVelocity: [1, 6, 0.5], collideEdges: false }) },
  { name: 'a tetrahedron', make: (w) => createTetrahedron(w, { size: 0.4, angularVelocity: [2, -3, 1], collideEdges: false }) },
  {
    name: 'an uneven convex body',
    make: (w) =>
      createConvex(w, {
        points: [
          [0, 0, 0],
          [0.7, 0.1, 0],
          [0.2, 0.5, 0.1],
          [0.1, 0.2, 0.4],
          [0.5, 0.4, 0.3],
        ],
        masses: [1, 2, 0.5, 1.5, 1],
        angularVelocity: [4, 2, -3],
      }),
  },
];

describe('a free spin keeps its angular momentum (damping 0, default solver)', () => {
  for (const kernel of kernels)
    for (const { name, make } of spins)
      it(`${name}, ${kernel} kernel: |L| within 0.1% over 5 s (the issue asks 1% per second), and its direction`, () => {
        const world = new World({ gravity: [0, 0, 0], damping: 0, kernel });
        const body = make(world);
        const l0 = angularMomentum(world, body.vertices);
        let worst = 0;
        let turned = 0;
        for (let step = 0; step < 300; step++) {
          world.step();
          const l = angularMomentum(world, body.vertices);
          worst = Math.max(worst, Math.abs(Math.hypot(...l) / Math.hypot(...l0) - 1));
          turned = Math.max(turned, 1 - (l[0] * l0[0] + l[1] * l0[1] + l[2] * l0[2]) / (Math.hypot(...l) * Math.hypot(...l0)));
        }
        expect(worst).toBeLessThan(1e-3);
        // L is a vector: a torque-free body keeps its direction too (while ω, for the tumbling box, wanders).
        expect(turned).toBeLessThan(1e-6);
      });

  it('damping still takes the spin down as it takes every velocity: e^(−k·t)', () => {
    const world = new World({ gravity: [0, 0, 0], damping: 0.5 });
    const body = createBox(world, { size: [1, 0.6, 0.3], angularVelocity: [0, 0, 6], collideEdges: false });
    const l0 = Math.hypot(...angularMomentum(world, body.vertices));
    for (let step = 0; step < 120; step++) world.step();
    // Per substep the damped Verlet step keeps (1 − k·h) of every velocity.
    const expected = Math.pow(1 - 0.5 * world.substep, 120 * world.substeps);
    expect(Math.hypot(...angularMomentum(world, body.vertices)) / l0).toBeCloseTo(expected, 3);
  });
});

interface Impact {
  name: string;
  /** Colliders the body hits. */
  colliders: Parameters<World['addCollider']>[0][];
  position: Vec3;
  rotation: [number, number, number, number];
  velocity: Vec3;
}

const tilt: [number, number, number, number] = [0.3, 0.2, 0.1, 0.93];
const impacts: Impact[] = [
  { name: 'face-on onto a ground plane', colliders: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }], position: [0, 0.6, 0], rotation: [0, 0, 0, 1], velocity: [0, -5, 0] },
  { name: 'corner first onto a ground plane', colliders: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }], position: [0, 0.8, 0], rotation: tilt, velocity: [0, -5, 0] },
  { name: 'edge first into a wall', colliders: [{ type: 'plane', normal: [-1, 0, 0], offset: -1 }], position: [0.3, 0, 0], rotation: [0, 0.38, 0, 0.92], velocity: [5, 0, 0] },
  { name: 'corner first onto a box', colliders: [{ type: 'box', min: [-2, -1, -2], max: [2, 0, 2] }], position: [0, 0.8, 0], rotation: tilt, velocity: [0, -5, 0] },
  {
    name: 'corner first onto a triangle mesh',
    colliders: [{ type: 'mesh', vertices: [-3, 0, -3, 3, 0, -3, 3, 0, 3, -3, 0, 3], indices: [0, 2, 1, 0, 3, 2] }],
    position: [0, 0.8, 0],
    rotation: tilt,
    velocity: [0, -5, 0],
  },
];

describe('a rigid body keeps its shape through a 5 m/s impact (default solver)', () => {
  for (const kernel of kernels)
    for (const impact of impacts)
      it(`${impact.name}, ${kernel} kernel: every pairwise distance within 1% at every step`, () => {
        const world = new World({ kernel });
        for (const c of impact.colliders) world.addCollider(c);
        const box = createBox(world, { size: [0.6, 0.4, 0.3], position: impact.position, rotation: impact.rotation, velocity: impact.velocity, radius: 0.01 });
        const rest = pairDistances(world, box.vertices);
        let worst = 0;
        let stopped = false;
        for (let step = 0; step < 90; step++) {
          world.step();
          worst = Math.max(worst, distortion(world, box.vertices, rest));
          // Its speed along the throw fell below half: it hit.
          const v = box.update().velocity;
          const along = (v[0] * impact.velocity[0] + v[1] * impact.velocity[1] + v[2] * impact.velocity[2]) / 5;
          if (along < 2.5) stopped = true;
        }
        // It did hit (the impact stopped it), and came through whole.
        expect(stopped).toBe(true);
        expect(worst).toBeLessThan(0.01);
      });
});
