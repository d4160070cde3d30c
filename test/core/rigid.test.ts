import { describe, expect, it } from 'vitest';
import { createBox, createConvex, createTetrahedron, quatFromAxisAngle, RIGID_MIN_ITERATIONS, quatMultiply, rotateVector, World, type Quat, type RigidBody, type Vec3 } from '../../src/core/index.js';

const ground = { type: 'plane', normal: [0, 1, 0], offset: 0 } as const;

/** Largest |(p + q·offset) − particle| over the body: how well the transform reproduces the particles. */
function transformError(world: World, body: RigidBody): number {
  const t = body.update();
  let worst = 0;
  body.vertices.forEach((id, i) => {
    const o = body.shape.offsets;
    const r = rotateVector(t.quaternion, [o[i * 3]!, o[i * 3 + 1]!, o[i * 3 + 2]!]);
    const p = world.getPosition(id);
    worst = Math.max(worst, Math.hypot(t.position[0] + r[0] - p[0], t.position[1] + r[1] - p[1], t.position[2] + r[2] - p[2]));
  });
  return worst;
}

/** Largest relative error of the body's stick lengths against their rest lengths. */
function stickError(world: World, body: RigidBody): number {
  let worst = 0;
  for (const id of body.sticks) {
    const row = world.stickRow(id);
    const a = world.getPosition(world.sticks.a[row]!);
    const b = world.getPosition(world.sticks.b[row]!);
    const rest = world.sticks.rest[row]!;
    worst = Math.max(worst, Math.abs(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) - rest) / rest);
  }
  return worst;
}

/** Σ mᵢ vᵢ over the particles of `body` (kg·m/s). */
function momentum(world: World, body: RigidBody): Vec3 {
  const p: Vec3 = [0, 0, 0];
  for (const id of body.vertices) {
    const v = world.getVelocity(id);
    const m = world.getMass(id);
    for (let k = 0; k < 3; k++) p[k] = p[k]! + m * v[k]!;
  }
  return p;
}

describe('rigid bodies from particles', () => {
  it('a box is 8 particles and 28 sticks (12 edges, 12 face and 4 body diagonals); a tetrahedron 4 and 6', () => {
    const world = new World();
    const box = createBox(world, { size: [1, 2, 3] });
    const tetra = createTetrahedron(world, { size: 0.5 });
    expect([box.count, box.sticks.length, box.edges.length]).toEqual([8, 28, 12]);
    expect([tetra.count, tetra.sticks.length, tetra.edges.length]).toEqual([4, 6, 6]);
    const lengths = box.sticks.map((id) => world.sticks.rest[world.stickRow(id)]!).sort((a, b) => a - b);
    const expected = [1, 2, 3, Math.hypot(1, 2), Math.hypot(1, 3), Math.hypot(2, 3), Math.hypot(1, 2, 3)].flatMap((l) => [l, l, l, l]).sort((a, b) => a - b);
    lengths.forEach((l, i) => expect(l).toBeCloseTo(expected[i]!, 12));
    for (const id of tetra.sticks) expect(world.sticks.rest[world.stickRow(id)]!).toBeCloseTo(0.5, 12);
  });

  it('a dropped box comes to rest flat on the ground with its edges intact and its transform matching the particles', () => {
    const world = new World();
    world.addCollider(ground);
    const size = [1, 0.6, 0.8];
    const rotation = quatFromAxisAngle([1, 0.3, 0.5], 0.7);
    const box = createBox(world, { size: size as Vec3, position: [0, 2, 0], rotation, angularVelocity: [1, 2, 0], mass: 5 });
    let worstStretch = 0;
    let worstFit = 0;
    for (let i = 0; i < 360; i++) {
      world.step();
      worstStretch = Math.max(worstStretch, stickError(world, box));
      worstFit = Math.max(worstFit, transformError(world, box));
    }
    const t = box.update();
    const speeds = box.vertices.map((id) => Math.hypot(...world.getVelocity(id)));
    expect(Math.max(...speeds)).toBeLessThan(1e-3);
    expect(Math.hypot(...t.angularVelocity)).toBeLessThan(1e-3);
    // Resting on a face: four corners on the plane, the centre half an edge above it.
    const heights = box.vertices.map((id) => world.getPosition(id)[1]).sort((a, b) => a - b);
    for (const y of heights.slice(0, 4)) expect(y).toBeCloseTo(0, 4);
    expect(size.some((s) => Math.abs(t.position[1] - s / 2) < 1e-4)).toBe(true);
    // Flat: one of the box's axes, turned by the transform's quaternion, is vertical.
    const axes = (
      [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ] as Vec3[]
    ).map((e) => Math.abs(rotateVector(t.quaternion, e)[1]));
    expect(Math.max(...axes)).toBeGreaterThan(1 - 1e-6);
    // One relaxation pass per substep leaves the weight's squeeze: 1e-4 of an edge.
    expect(stickError(world, box)).toBeLessThan(2e-4);
    expect(transformError(world, box)).toBeLessThan(2e-4);
    // During the tumble too (the impacts stretch the sticks a little for a substep).
    expect(worstStretch).toBeLessThan(0.02);
    expect(worstFit).toBeLessThan(0.02);
    expect(t.mass).toBe(5);
  });

  it('a thrown tetrahedron keeps its momentum and its spin, and turns by ω₀t', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const q0 = quatFromAxisAngle([0, 1, 0], 0.3);
    const v: Vec3 = [1.5, -0.5, 2];
    const omega: Vec3 = [2, -3, 1];
    const tetra = createTetrahedron(world, { size: 0.4, position: [1, 2, 3], rotation: q0, velocity: v, angularVelocity: omega, mass: 2 });
    const start = tetra.update();
    // The vertices start on the arc of the spin (their last substep's chord is a turn by ωh, see
    // vertexVelocity in rigid.ts); read back from those chords, ω comes out within (ωh)² ≈ 4e-5 of ω₀.
    for (let k = 0; k < 3; k++) {
      expect(start.velocity[k]).toBeCloseTo(v[k]!, 9);
      expect(start.angularVelocity[k]).toBeCloseTo(omega[k]!, 4);
    }
    const steps = 120;
    for (let i = 0; i < steps; i++) {
      world.step();
      tetra.update(); // read every frame, as a renderer does: that is what keeps q continuous
    }
    const t = tetra.update();
    const seconds = steps * world.timeStep;
    const p = momentum(world, tetra);
    for (let k = 0; k < 3; k++) {
      expect(p[k]).toBeCloseTo(2 * v[k]!, 9); // Σ mᵢvᵢ = M v: the sticks' corrections cancel pairwise
      expect(t.position[k]).toBeCloseTo([1, 2, 3][k]! + v[k]! * seconds, 9);
    }
    // A regular tetrahedron's inertia is isotropic, so ω keeps its direction, and with no
    // torque and no damping its size: the rigid-motion stage turns the body by the angle
    // its angular momentum asks for (before it, Verlet's chords shortened each turn
    // φ = ωh by φ³ and ω decayed as ω₀ / √(1 + 2ω₀²ht): 3% in these 2 s).
    const w0 = Math.hypot(...omega);
    const w = Math.hypot(...t.angularVelocity);
    expect(w / w0).toBeCloseTo(1, 4);
    const cosine = t.angularVelocity.reduce((s, x, k) => s + x * omega[k]!, 0) / (w * w0);
    expect(cosine).toBeGreaterThan(1 - 1e-9);
    // Its orientation: q0 turned about ω by ω₀t.
    const expected = quatMultiply(quatFromAxisAngle(omega, w0 * seconds), q0);
    const dot = expected.reduce((s, x, k) => s + x * t.quaternion[k]!, 0);
    expect(dot).toBeGreaterThan(1 - 1e-8);
  });

  it('an impulse on one vertex of an uneven tetrahedron gives the rigid-body response: v = J/M, L = r × J', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const masses = [1, 2, 3, 4];
    const body = createConvex(world, {
      points: [
        [0, 0, 0],
        [0.5, 0, 0],
        [0, 0.4, 0],
        [0.1, 0.1, 0.3],
      ],
      masses,
    });
    const c = [...body.update().position];
    const j: Vec3 = [0, 0.5, 0.2];
    const r = world.getPosition(body.vertices[1]!).map((x, k) => x - c[k]!);
    const expectedL = [r[1]! * j[2] - r[2]! * j[1], r[2]! * j[0] - r[0]! * j[2], r[0]! * j[1] - r[1]! * j[0]];
    world.applyImpulse(body.vertices[1]!, j);
    const angularMomentum = (): Vec3 => {
      const center = body.update().position;
      const l: Vec3 = [0, 0, 0];
      body.vertices.forEach((id, i) => {
        const d = world.getPosition(id).map((x, k) => x - center[k]!);
        const u = world.getVelocity(id);
        l[0] += masses[i]! * (d[1]! * u[2] - d[2]! * u[1]);
        l[1] += masses[i]! * (d[2]! * u[0] - d[0]! * u[2]);
        l[2] += masses[i]! * (d[0]! * u[1] - d[1]! * u[0]);
      });
      return l;
    };
    for (let i = 0; i < 60; i++) {
      world.step();
      const t = body.update();
      for (let k = 0; k < 3; k++) expect(t.velocity[k]).toBeCloseTo(j[k]! / 10, 9);
      const l = angularMomentum();
      for (let k = 0; k < 3; k++) expect(Math.abs(l[k]! - expectedL[k]!)).toBeLessThan(1e-3 * Math.hypot(...expectedL));
    }
    expect(body.update().position[1]).toBeCloseTo(c[1]! + 0.05 * 1, 9);
    expect(stickError(world, body)).toBeLessThan(1e-6);
  });

  it('the orientation quaternion stays unit and continuous through 10 full turns', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const axis: Vec3 = [0, 0, 1];
    const q0 = quatFromAxisAngle([1, 1, 0], 0.4);
    const cube = createBox(world, { size: 0.5, rotation: q0, angularVelocity: [0, 0, 2 * Math.PI] });
    const corner = cube.vertices[0]!;
    const azimuth = () => Math.atan2(world.getPosition(corner)[1], world.getPosition(corner)[0]);
    let turned = 0;
    let last = azimuth();
    let previous: Quat = [...cube.update().quaternion];
    let smallestStepDot = 1;
    // Count the turns on a corner's azimuth, independently of the quaternion.
    while (turned < 20 * Math.PI) {
      world.step();
      const now = azimuth();
      turned += ((now - last + 3 * Math.PI) % (2 * Math.PI)) - Math.PI;
      last = now;
      const q = cube.update().quaternion;
      expect(Math.hypot(...q)).toBeCloseTo(1, 12);
      smallestStepDot = Math.min(
        smallestStepDot,
        q.reduce((s, x, k) => s + x * previous[k]!, 0),
      );
      previous = [...q];
    }
    // A step turns the body by at most 2π/60, the quaternion by half that: cos(π/60) = 0.99863.
    expect(smallestStepDot).toBeGreaterThan(0.998);
    // The quaternion equals the rotation by the counted angle, sign included: after
    // 10 turns it is +q0 again (each turn alone flips the sign), continuity carried it.
    const expected = quatMultiply(quatFromAxisAngle(axis, turned), q0);
    const final = cube.update().quaternion;
    for (let k = 0; k < 4; k++) expect(final[k]).toBeCloseTo(expected[k]!, 2);
    expect(final.reduce((s, x, k) => s + x * q0[k]!, 0)).toBeGreaterThan(0.99);
  });

  it('a large convex point set stays rigid spinning and landing: anchors, neighbours and several passes instead of every pair', () => {
    // 30 points spread over a sphere of radius 0.3 (a golden-angle spiral).
    const points = Array.from({ length: 30 }, (_, i): [number, number, number] => {
      const y = 1 - (2 * (i + 0.5)) / 30;
      const r = Math.sqrt(1 - y * y);
      return [Math.cos(i * 2.399963) * r * 0.3, y * 0.3, Math.sin(i * 2.399963) * r * 0.3];
    });
    const world = new World();
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const ball = createConvex(world, { points, position: [0, 2, 0], angularVelocity: [3, 6, 1.5] });
    // Every point tied to four anchors and three neighbours: far fewer than the 435 pairs.
    expect(ball.sticks.length).toBeLessThan(30 * 7);
    // n / 10 = 3 passes would do for these sticks; every rigid body gets at least RIGID_MIN_ITERATIONS.
    expect(ball.body.iterations).toBe(RIGID_MIN_ITERATIONS);
    const worstPairError = () => {
      let worst = 0;
      for (let i = 0; i < 30; i++) {
        for (let j = i + 1; j < 30; j++) {
          const [a, b] = [world.getPosition(ball.vertices[i]!), world.getPosition(ball.vertices[j]!)];
          const rest = Math.hypot(points[i]![0] - points[j]![0], points[i]![1] - points[j]![1], points[i]![2] - points[j]![2]);
          worst = Math.max(worst, Math.abs(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) / rest - 1));
        }
      }
      return worst;
    };
    // Spinning in free fall (0.5 s, before it lands), every pairwise distance, stuck or not,
    // holds within 0.1% (with a stick between every pair and one pass: 160% off).
    let spinning = 0;
    for (let s = 0; s < 30; s++) {
      world.step();
      spinning = Math.max(spinning, worstPairError());
    }
    expect(spinning).toBeLessThan(1e-3);
    // It lands and comes to rest whole.
    for (let s = 0; s < 240; s++) world.step();
    expect(worstPairError()).toBeLessThan(0.01);
    expect(ball.update().position[1]).toBeLessThan(0.5);
  });

  it('an immovable box stays put and reports infinite mass', () => {
    const world = new World();
    const wall = createBox(world, { size: [0.2, 2, 3], position: [1, 1, 0], mass: 0 });
    for (let i = 0; i < 30; i++) world.step();
    const t = wall.update();
    expect(t.mass).toBe(Infinity);
    expect(t.position).toEqual([1, 1, 0]);
    [0, 0, 0, 1].forEach((x, k) => expect(t.quaternion[k]).toBeCloseTo(x, 12));
  });

  it('remove() takes the particles and sticks along', () => {
    const world = new World();
    const box = createBox(world);
    expect([world.particleCount, world.sticks.count]).toEqual([8, 28]);
    box.remove();
    box.remove();
    expect([world.particleCount, world.sticks.count]).toEqual([0, 0]);
  });

  it('rejects bad input, naming the function, the argument and the value', () => {
    const world = new World();
    expect(() => createBox(world, { size: [1, 0, 1] })).toThrow('createBox: size must be finite numbers > 0, got [1, 0, 1]');
    expect(() => createTetrahedron(world, { size: -1 })).toThrow('createTetrahedron: size must be a finite number > 0, got -1');
    expect(() => createTetrahedron(world, { mass: -2 })).toThrow('createTetrahedron: mass must be >= 0');
    expect(() => createBox(world, { rotation: [0, 0, 0, 0] })).toThrow('createBox: rotation must not be [0, 0, 0, 0]');
    expect(() =>
      createConvex(world, {
        points: [
          [0, 0, 0],
          [1, 0, 0],
          [2, 0, 0],
        ],
      }),
    ).toThrow('createConvex: points must not all lie on one line');
    expect(() =>
      createConvex(world, {
        points: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
        ],
        masses: [1, 1],
      }),
    ).toThrow('createConvex: masses must hold one mass per point (3)');
    expect(() => createBox(world, { shared: { 9: 0 } })).toThrow('createBox: shared vertex index must be an integer in [0, 8), got 9');
    expect(() => createBox(world, { shared: { 0: 42 } })).toThrow('createBox: shared[0]: no particle with id 42');
    expect(world.particleCount).toBe(0);
  });
});
