import {
  convexHullVolume,
  createBox,
  createCloth,
  createConvex,
  createRagdoll,
  createRope,
  createTetrahedron,
  DEFAULT_CLOTH_AREAL_DENSITY,
  DEFAULT_RIGID_DENSITY,
  DEFAULT_ROPE_LINEAR_DENSITY,
  World,
} from '../../src/core/index.js';

// Masses that follow from a body's size by default: a ragdoll weighs what a
// person of its height does, a rigid body its volume times a light wood's
// density, a cloth its area times a light cotton's, a rope its length times a
// climbing rope's. (Until 2026-11 every particle weighed 1 kg: a 24 × 16 flag
// 384 kg, which no wind lifts.)

function totalMass(world: World, ids: readonly number[]): number {
  return ids.reduce((sum, id) => sum + world.getMass(id), 0);
}

describe('default masses', () => {
  it('a ragdoll weighs 70 kg at 1.75 m and scales with the cube of its height', () => {
    const world = new World();
    const at = (height?: number) => createRagdoll(world, height === undefined ? {} : { height }).mass;
    expect(at(1.75)).toBeCloseTo(70, 12);
    expect(at()).toBeCloseTo(70 * (1.8 / 1.75) ** 3, 12); // the default 1.8 m: 76.2 kg
    expect(at(0.875)).toBeCloseTo(70 / 8, 12);
    const doll = createRagdoll(world, { height: 1.75 });
    expect(totalMass(world, doll.vertices)).toBeCloseTo(70, 9); // spread over its particles
    expect(createRagdoll(world, { mass: 50 }).mass).toBe(50);
  });

  it('a rigid body weighs its volume times its density, a light wood by default', () => {
    const world = new World();
    expect(DEFAULT_RIGID_DENSITY).toBe(500); // a light wood
    expect(totalMass(world, createBox(world, { size: [0.5, 0.2, 0.1], density: DEFAULT_RIGID_DENSITY }).vertices)).toBeCloseTo(500 * 0.01, 12);
    expect(totalMass(world, createBox(world, { size: [0.5, 0.2, 0.1] }).vertices)).toBeCloseTo(500 * 0.01, 12); // neither mass nor density: the default
    expect(totalMass(world, createBox(world).vertices)).toBeCloseTo(500, 12); // a 1 m cube of wood
    expect(totalMass(world, createBox(world, { size: 0.5, density: 1000 }).vertices)).toBeCloseTo(125, 12);
    // A regular tetrahedron of edge a holds a³ / (6√2).
    expect(totalMass(world, createTetrahedron(world, { size: 0.3, density: 500 }).vertices)).toBeCloseTo((500 * 0.3 ** 3) / (6 * Math.SQRT2), 12);
    // A convex body: the hull of its points (a unit cube's corners plus its centre and a point inside a face).
    const cube = [0, 1].flatMap((x) => [0, 1].flatMap((y) => [0, 1].map((z) => [x, y, z] as [number, number, number])));
    expect(totalMass(world, createConvex(world, { points: [...cube, [0.5, 0.5, 0.5], [0.5, 0.5, 0]], density: 2 }).vertices)).toBeCloseTo(2, 9);
    // An explicit mass wins, and 0 still means immovable.
    expect(totalMass(world, createBox(world, { size: 2, mass: 3 }).vertices)).toBeCloseTo(3, 12);
  });

  it("measures convex hulls, and refuses to take a flat body's mass from a density", () => {
    expect(convexHullVolume([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])).toBeCloseTo(1 / 6, 12);
    // An octahedron of "radius" 1: 4/3.
    expect(convexHullVolume([1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1])).toBeCloseTo(4 / 3, 12);
    const world = new World();
    expect(() =>
      createConvex(world, {
        points: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
        ],
        density: 500,
      }),
    ).toThrow('createConvex: points must not all lie on one line or in one plane when the mass comes from a density (they span no volume); give mass');
    expect(() => createBox(world, { density: -1 })).toThrow('createBox: density');
    expect(
      createConvex(world, {
        points: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
        ],
      }).count, // 1 kg: no density asked for
    ).toBe(3);
  });

  it('a cloth weighs its area times a light cotton, a rope its length times a climbing rope, unless told otherwise', () => {
    const world = new World();
    expect(DEFAULT_CLOTH_AREAL_DENSITY).toBe(0.15);
    expect(DEFAULT_ROPE_LINEAR_DENSITY).toBe(0.1);
    // The README's flag: 24 × 16 particles 0.08 m apart, each the 8 cm square of cotton around it: 0.37 kg (it weighed 384 kg).
    const flag = createCloth(world, { width: 24, height: 16, spacing: 0.08 });
    const flagIds = Array.from({ length: flag.count }, (_, i) => flag.first + i);
    expect(totalMass(world, flagIds)).toBeCloseTo(0.15 * 24 * 16 * 0.08 ** 2, 12);
    expect(world.getMass(flag.first)).toBeCloseTo(world.getMass(flag.first + 100), 15); // spread evenly
    const rope = createRope(world, { from: [0, 0, 0], to: [2, 0, 0], segments: 10, length: 2.5 });
    expect(
      totalMass(
        world,
        Array.from({ length: rope.count }, (_, i) => rope.first + i),
      ),
    ).toBeCloseTo(0.25, 12); // its length, not its span
    // What you ask for wins.
    expect(world.getMass(createCloth(world, { width: 2, height: 2, particleMass: 3 }).first)).toBe(3);
    expect(world.getMass(createRope(world, { from: [0, 0, 0], to: [1, 0, 0], segments: 3, mass: 2 }).first)).toBe(0.5);
  });
});
