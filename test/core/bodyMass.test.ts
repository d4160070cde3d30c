import { describe, expect, it } from 'vitest';
import { createBox, createCloth, createConvex, createPlant, createRagdoll, createRope, createSoftBody, createTetrahedron, World } from '../../src/core/index.js';

// `mass` is the whole body's on every builder; `particleMass` is one particle's.

/** A body as every builder returns it: its particle range. */
interface Range {
  readonly first: number;
  readonly count: number;
}

function sum(world: World, body: Range): number {
  let m = 0;
  for (let i = body.first; i < body.first + body.count; i++) m += world.getMass(i);
  return m;
}

/** Each builder with its other options, taking the mass options under test. */
const builders: Record<string, (world: World, mass: { mass?: number; particleMass?: number }) => Range> = {
  cloth: (w, m) => createCloth(w, { width: 5, height: 4, pin: 'top', ...m }),
  rope: (w, m) => createRope(w, { from: [0, 1, 0], to: [1, 1, 0], segments: 6, pinStart: true, ...m }),
  plant: (w, m) => createPlant(w, { segments: 4, ...m }),
  softBody: (w, m) => createSoftBody(w, { shape: 'box', size: 0.4, resolution: 2, ...m }),
  box: (w, m) => createBox(w, { size: 0.3, ...(m.mass === undefined ? {} : { mass: m.mass }) }),
  tetrahedron: (w, m) => createTetrahedron(w, { size: 0.3, ...(m.mass === undefined ? {} : { mass: m.mass }) }),
  convex: (w, m) =>
    createConvex(w, {
      points: [
        [0, 0, 0],
        [0.3, 0, 0],
        [0, 0.3, 0],
        [0, 0, 0.3],
        [0.2, 0.2, 0.2],
      ],
      ...(m.mass === undefined ? {} : { mass: m.mass }),
    }),
  ragdoll: (w, m) => createRagdoll(w, m.mass === undefined ? {} : { mass: m.mass }),
};

describe('mass is the whole body’s', () => {
  for (const [kind, build] of Object.entries(builders)) {
    it(`${kind}: the particles' masses add up to mass`, () => {
      const world = new World();
      const body = build(world, { mass: 3.7 });
      expect(sum(world, body)).toBeCloseTo(3.7, 9);
      // A different mass gives a different sum: the option is read, not a default.
      const other = build(world, { mass: 0.4 });
      expect(sum(world, other)).toBeCloseTo(0.4, 9);
    });
  }

  for (const kind of ['cloth', 'rope', 'plant', 'softBody'] as const) {
    it(`${kind}: particleMass is each particle's, and both at once is an error naming both`, () => {
      const world = new World();
      const body = builders[kind]!(world, { particleMass: 0.25 });
      for (let i = body.first; i < body.first + body.count; i++) expect(world.getMass(i)).toBe(0.25);
      expect(sum(world, body)).toBeCloseTo(0.25 * body.count, 9);
      expect(() => builders[kind]!(world, { mass: 2, particleMass: 0.25 })).toThrow(/give mass \(the whole body's\) or particleMass \(each particle's\), not both; got mass 2 and particleMass 0.25/);
      expect(() => builders[kind]!(world, { mass: -1 })).toThrow(/: mass must be a finite number in .*got -1/);
      expect(() => builders[kind]!(world, { particleMass: Number.NaN })).toThrow(/: particleMass must be a finite number in .*got NaN/);
    });
  }

  it('a cloth and a rope given nothing weigh what their defaults say: 0.15 kg/m² and 0.1 kg/m', () => {
    const world = new World();
    const cloth = createCloth(world, { width: 11, height: 6, spacing: 0.1 });
    expect(sum(world, cloth)).toBeCloseTo(0.15 * 11 * 6 * 0.1 * 0.1, 12);
    const rope = createRope(world, { from: [0, 0, 0], to: [2, 0, 0], segments: 8 });
    expect(sum(world, rope)).toBeCloseTo(0.1 * 2, 12);
    // The same cloth by whole mass or by particle mass: the same particles.
    const byTotal = createCloth(world, { width: 20, height: 20, mass: 4 });
    const byParticle = createCloth(world, { width: 20, height: 20, particleMass: 0.01 });
    expect(world.getMass(byTotal.first)).toBeCloseTo(world.getMass(byParticle.first), 15);
  });
});
