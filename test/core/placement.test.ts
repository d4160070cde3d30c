import {
  World,
  createBox,
  createCloth,
  createConvex,
  createPlant,
  createRagdoll,
  createSoftBody,
  createTetrahedron,
  quatFromEuler,
  quatMultiply,
  toRotation,
  type ClothPin,
  type ObbCollider,
  type Quat,
  type SphereCollider,
} from '../../src/core/index.js';
import { pinnedIndices } from '../../src/core/bodies/cloth.js';

// Issue 15, part 6: `position` is where every body is and names a documented
// point; the old names still work; a rotation is a quaternion or Euler angles
// everywhere; a cloth's pin names every edge and corner.

/** Every particle position of a range, flattened. */
function positions(world: World, first: number, count: number): number[] {
  return Array.from(world.positions.subarray(first * 3, (first + count) * 3));
}

function mean(world: World, first: number, count: number): [number, number, number] {
  const p = positions(world, first, count);
  const m: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < p.length; i++) m[i % 3]! += p[i]! / count;
  return m;
}

function expectClose(actual: readonly number[], expected: readonly number[], digits = 9): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v, `component ${i}`).toBeCloseTo(expected[i]!, digits));
}

/** The same rotation up to the double cover. */
function expectSameRotation(a: Quat, b: Quat): void {
  const sign = Math.sign(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) || 1;
  expectClose(
    a,
    b.map((c) => c * sign),
  );
}

describe('toRotation', () => {
  it('reads Euler angles [x, y, z] in XYZ order and quaternions [x, y, z, w] as the same rotation', () => {
    // XYZ order (three.js's default): the rotation is the x turn, then y, then z applied to the
    // object's own axes, q = qx·qy·qz, built here from plain axis turns.
    const axis = (x: number, y: number, z: number, angle: number): Quat => [x * Math.sin(angle / 2), y * Math.sin(angle / 2), z * Math.sin(angle / 2), Math.cos(angle / 2)];
    const q = quatMultiply(quatMultiply(axis(1, 0, 0, 0.3), axis(0, 1, 0, -0.4)), axis(0, 0, 1, 1.1));
    expectSameRotation(toRotation([0.3, -0.4, 1.1], 'test'), q);
    expectSameRotation(toRotation(q, 'test'), q);
    expectSameRotation(toRotation({ x: q[0], y: q[1], z: q[2], w: q[3] }, 'test'), q);
    expectSameRotation(toRotation({ x: 0.3, y: -0.4, z: 1.1 }, 'test'), q);
    // A quarter turn about y, both ways.
    expectSameRotation(toRotation([0, Math.PI / 2, 0], 'test'), [0, Math.SQRT1_2, 0, Math.SQRT1_2]);
    // ZYX: q = qz·qy·qx.
    const zyx = quatMultiply(quatMultiply(axis(0, 0, 1, 1.1), axis(0, 1, 0, -0.4)), axis(1, 0, 0, 0.3));
    expectSameRotation(toRotation({ x: 0.3, y: -0.4, z: 1.1, order: 'ZYX' }, 'test'), zyx);
  });

  it('names the argument and the bad value', () => {
    expect(() => toRotation([1, 2] as unknown as Quat, 'createBox: rotation')).toThrow(
      'createBox: rotation must be a quaternion [x, y, z, w] or Euler angles [x, y, z] in radians (or a three.js Quaternion or Euler), got [1, 2] (2 components)',
    );
    expect(() => toRotation([Number.NaN, 0, 0], 'createBox: rotation')).toThrow('createBox: rotation must be finite Euler angles in radians, got [NaN, 0, 0]');
    expect(() => toRotation([0, 0, 0, 0], 'createBox: rotation')).toThrow('createBox: rotation must not be [0, 0, 0, 0]');
    expect(() => toRotation('up' as unknown as Quat, 'createBox: rotation')).toThrow(/createBox: rotation must be a quaternion .*, got up$/);
    expect(() => toRotation({ x: 0, y: 0, z: 0, order: 'XXY' } as never, 'createBox: rotation')).toThrow('createBox: rotation: Euler order must be one of XYZ, YXZ, ZXY, ZYX, YZX, XZY, got "XXY"');
    expect(() => toRotation({} as never, 'createBox: rotation')).toThrow(/got \{\}$/);
  });
});

describe('rotation in every builder', () => {
  const euler = [0.4, -0.2, 0.9] as const;
  const quat = quatFromEuler(...euler);

  it('a box, a tetrahedron and a convex body take Euler angles and quaternions to the same pose', () => {
    for (const build of [
      (w: World, rotation: typeof euler | Quat) => createBox(w, { size: [0.4, 0.2, 0.3], position: [1, 2, 3], rotation }),
      (w: World, rotation: typeof euler | Quat) => createTetrahedron(w, { size: 0.5, position: [1, 2, 3], rotation }),
      (w: World, rotation: typeof euler | Quat) =>
        createConvex(w, {
          points: [
            [0, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
            [0, 0, 1],
          ],
          position: [1, 2, 3],
          rotation,
        }),
    ]) {
      const a = new World();
      const b = new World();
      const fromEuler = build(a, euler);
      const fromQuat = build(b, quat);
      expectClose(positions(a, fromEuler.first, fromEuler.count), positions(b, fromQuat.first, fromQuat.count));
      expectSameRotation(fromEuler.update().quaternion, quat);
    }
  });

  it('a ragdoll takes Euler angles and quaternions to the same pose', () => {
    const a = new World();
    const b = new World();
    const fromEuler = createRagdoll(a, { feet: [0, 1, 0], rotation: [0, Math.PI / 2, 0] });
    const fromQuat = createRagdoll(b, { feet: [0, 1, 0], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] });
    expectClose(positions(a, fromEuler.first, fromEuler.count), positions(b, fromQuat.first, fromQuat.count));
    // Turned a quarter about y, the left hand (at +x unturned) points to -z.
    expect(a.getPosition(fromEuler.part('leftHand'))[2]).toBeLessThan(-0.3);
  });

  it('an obb collider takes rotation in either form', () => {
    const world = new World();
    const fromEuler = world.getCollider(world.addCollider({ type: 'obb', halfExtents: [1, 0.1, 1], rotation: euler })) as ObbCollider;
    const fromQuat = world.getCollider(world.addCollider({ type: 'obb', halfExtents: [1, 0.1, 1], rotation: quat })) as ObbCollider;
    expectClose(Array.from(fromEuler.axes), Array.from(fromQuat.axes));
    fromQuat.setPose([0, 1, 0], [0, 0, 0]);
    expectClose(Array.from(fromQuat.axes), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(() => world.addCollider({ type: 'obb', halfExtents: [1, 1, 1], rotation: [1, 2] as never })).toThrow('obb collider: rotation must be a quaternion');
    expect(() => createBox(world, { rotation: [0, Infinity, 0] })).toThrow('createBox: rotation must be finite Euler angles in radians, got [0, Infinity, 0]');
    expect(() => createRagdoll(world, { rotation: [1, 2, 3, 4, 5] as never })).toThrow(
      'createRagdoll: rotation must be a quaternion [x, y, z, w] or Euler angles [x, y, z] in radians (or a three.js Quaternion or Euler), got [1, 2, 3, 4, 5] (5 components)',
    );
  });
});

describe('position is the centre; the bodies placed by another point name it', () => {
  it('cloth: corner is particle (0, 0), the top-left corner', () => {
    const world = new World();
    const vertical = createCloth(world, { width: 4, height: 3, spacing: 0.5, corner: [1, 2, 3] });
    expect(world.getPosition(vertical.particle(0, 0))).toEqual([1, 2, 3]);
    expect(world.getPosition(vertical.particle(3, 2))).toEqual([2.5, 1, 3]); // right along +x, down along -y
    const flat = createCloth(world, { width: 4, height: 3, spacing: 0.5, corner: [1, 2, 3], orientation: 'horizontal' });
    expect(world.getPosition(flat.particle(3, 2))).toEqual([2.5, 2, 4]); // along +x and +z
    expect(() => createCloth(world, { width: 2, height: 2, corner: [0, Number.NaN, 0] })).toThrow('createCloth: corner must be finite numbers, got [0, NaN, 0]');
    expect(() => createCloth(world, { width: 2, height: 2, corner: [0, 1] as never })).toThrow('createCloth: corner must have 3 components, got 2');
  });

  it('box and tetrahedron: the centre', () => {
    const world = new World();
    const box = createBox(world, { size: [1, 2, 3], position: [4, 5, 6], rotation: [0.3, 0.2, 0.1] });
    expectClose(mean(world, box.first, box.count), [4, 5, 6]);
    const tetra = createTetrahedron(world, { size: 0.7, position: [-1, 2, 0], rotation: [0.5, 0, 0] });
    expectClose(mean(world, tetra.first, tetra.count), [-1, 2, 0]);
  });

  it("ragdoll: feet is the ground point between the feet, which the feet's spheres touch", () => {
    const world = new World();
    const doll = createRagdoll(world, { feet: [2, 1, -1] });
    const left = world.getPosition(doll.part('leftFoot'));
    const right = world.getPosition(doll.part('rightFoot'));
    expectClose([(left[0] + right[0]) / 2, (left[2] + right[2]) / 2], [2, -1]);
    expect(left[1] - world.particles.radius[doll.part('leftFoot')]!).toBeCloseTo(1, 9);
    expect(() => createRagdoll(world, { feet: [0, Infinity, 0] })).toThrow('createRagdoll: feet must be finite numbers, got [0, Infinity, 0]');
  });

  it('soft body: the centre of its box or sphere', () => {
    const world = new World();
    for (const shape of ['box', 'sphere'] as const) {
      const body = createSoftBody(world, { shape, position: [1, 2, 3], size: 0.5 });
      expectClose(mean(world, body.first, body.count), [1, 2, 3]);
    }
  });

  it('plant: root is the centre of its foot', () => {
    const world = new World();
    const plant = createPlant(world, { root: [1, 0, 2], segments: 4, width: 0.1, fold: 0 });
    // Level 0 is the foot: its left edge, midrib and right edge straddle the root across the blade.
    const foot = mean(world, plant.first, 3);
    expectClose(foot, [1, 0, 2]);
    expect(() => createPlant(world, { root: [0, 0] as never })).toThrow('createPlant: root must have 3 components, got 2');
  });

  it('sphere and obb colliders: the centre', () => {
    const world = new World();
    const sphere = world.getCollider(world.addCollider({ type: 'sphere', position: [1, 2, 3], radius: 1 })) as SphereCollider;
    expect(sphere.center).toEqual([1, 2, 3]);
    const obb = world.getCollider(world.addCollider({ type: 'obb', position: [1, 2, 3], halfExtents: [1, 1, 1] })) as ObbCollider;
    expect(obb.center).toEqual([1, 2, 3]);
    expect(() => world.addCollider({ type: 'sphere', position: [0, 'a', 0] as never, radius: 1 })).toThrow('sphere collider: position must be finite numbers, got [0, a, 0]');
    // A particle dropped on the sphere placed by position comes to rest on its top, at y = 2 + 1.
    const p = world.addParticle({ position: [1, 4.5, 3] });
    for (let i = 0; i < 120; i++) world.step();
    expect(world.getPosition(p)[1]).toBeCloseTo(3, 2);
  });
});

describe('cloth pin names', () => {
  // A 4 × 3 grid: index j * 4 + i.
  const cases: [ClothPin, number[]][] = [
    ['top', [0, 1, 2, 3]],
    ['bottom', [8, 9, 10, 11]],
    ['left', [0, 4, 8]],
    ['right', [3, 7, 11]],
    ['top-left', [0]],
    ['top-right', [3]],
    ['bottom-left', [8]],
    ['bottom-right', [11]],
    ['top-corners', [0, 3]],
    ['corners', [0, 3, 8, 11]],
    ['none', []],
    [
      ['top-left', 'bottom-right', 5, 0],
      [0, 11, 5],
    ],
  ];
  for (const [pin, expected] of cases) {
    it(`${JSON.stringify(pin)} pins grid indices ${JSON.stringify(expected)}, and only they hold still`, () => {
      expect(pinnedIndices(pin, 4, 3)).toEqual(expected);
      const world = new World();
      const cloth = createCloth(world, { width: 4, height: 3, spacing: 0.2, corner: [0, 2, 0], pin });
      const start = positions(world, cloth.first, cloth.count);
      // Gravity alone does not tell: an inextensible cloth hanging from its whole top row is already at rest (with tethers
      // its free particles move by 1e-17 m in 20 steps, round-off). A push out of the cloth's plane sets every free
      // particle moving and the pins hold theirs. A free particle on an edge taut between two pins moves least, only as
      // far as its sticks stretch (measured 0.34 mm for particle 1 of 'top-corners'), still far above round-off.
      for (let index = 0; index < 12; index++) world.setVelocity(cloth.first + index, [0, 0, 1]);
      for (let i = 0; i < 20; i++) world.step();
      const now = positions(world, cloth.first, cloth.count);
      for (let index = 0; index < 12; index++) {
        const moved = Math.hypot(now[index * 3]! - start[index * 3]!, now[index * 3 + 1]! - start[index * 3 + 1]!, now[index * 3 + 2]! - start[index * 3 + 2]!);
        if (expected.includes(index)) expect(moved, `pinned ${index}`).toBe(0);
        else expect(moved, `free ${index}`).toBeGreaterThan(1e-6);
      }
    });
  }

  it('rejects an unknown name or index, naming it', () => {
    const world = new World();
    expect(() => createCloth(world, { width: 3, height: 3, pin: 'middle' as never })).toThrow(/createCloth: pin must be 'none', 'top', 'bottom', 'left', 'right', 'top-left', .* got "middle"/);
    expect(() => createCloth(world, { width: 3, height: 3, pin: ['top', 'topLeft' as never] })).toThrow(/createCloth: pin names must be 'top', .*, got "topLeft"/);
    expect(() => createCloth(world, { width: 3, height: 3, pin: ['bottom', 9] })).toThrow('createCloth: pin indices must be integers in [0, 8] (j * width + i), got 9');
  });
});
