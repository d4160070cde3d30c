import { convexHullVolume, createBox, createConvex, createRagdoll, createTetrahedron, DEFAULT_RIGID_DENSITY, World } from '../../src/core/index.js';

// Masses that follow from a body's size: a ragdoll weighs what a person of its
// height does by default; a rigid body given a density weighs its volume times
// that density (without one it still weighs 1 kg; the default is to follow).

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

  it('a rigid body given a density weighs its volume times it', () => {
    const world = new World();
    expect(DEFAULT_RIGID_DENSITY).toBe(500); // a light wood
    expect(totalMass(world, createBox(world, { size: [0.5, 0.2, 0.1], density: DEFAULT_RIGID_DENSITY }).vertices)).toBeCloseTo(500 * 0.01, 12);
    expect(totalMass(world, createBox(world, { size: [0.5, 0.2, 0.1] }).vertices)).toBeCloseTo(1, 12); // neither mass nor density: 1 kg
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
});
