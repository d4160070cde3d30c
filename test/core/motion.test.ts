import { describe, expect, it } from 'vitest';
import { World, explode, hit, inheritAnimation, type Vec3 } from '../../src/core/index.js';

const noGravity = { gravity: [0, 0, 0] } as const;

function moved(before: Vec3, after: Vec3): Vec3 {
  return [after[0] - before[0], after[1] - before[1], after[2] - before[2]];
}

describe('explode', () => {
  it('pushes each particle straight away from the centre by strength/d², nearer ones farther', () => {
    const world = new World(noGravity);
    const center: Vec3 = [1, 1, 1];
    const dirs: Vec3[] = [
      [1, 0, 0],
      [0, -0.6, 0.8],
      [-0.48, 0.6, 0.64],
    ];
    const distances = [0.5, 1, 2];
    const ids = dirs.map((u, k) => world.addParticle({ position: [center[0] + u[0] * distances[k]!, center[1] + u[1] * distances[k]!, center[2] + u[2] * distances[k]!] }));
    const before = ids.map((id) => world.getPosition(id));
    const strength = 0.05;
    expect(explode(world, center, { strength })).toBe(3);
    const pushes = ids.map((id, k) => {
      const d = moved(before[k]!, world.getPosition(id));
      const length = Math.hypot(...d);
      for (let i = 0; i < 3; i++) expect(d[i]! / length).toBeCloseTo(dirs[k]![i]!, 12);
      expect(length).toBeCloseTo(strength / distances[k]! ** 2, 12);
      return length;
    });
    expect(pushes[0]).toBeGreaterThan(pushes[1]!);
    expect(pushes[1]).toBeGreaterThan(pushes[2]!);
  });

  it('moves positions only, so Verlet turns each push into a velocity of push / substep', () => {
    const world = new World({ ...noGravity, substeps: 4 });
    const id = world.addParticle({ position: [2, 0, 0] });
    explode(world, [0, 0, 0], { strength: 0.04 }); // push 0.01 m
    expect(world.getVelocity(id)[0]).toBeCloseTo(0.01 / world.substep, 9);
    world.step();
    expect(world.getPosition(id)[0]).toBeCloseTo(2.01 + 4 * 0.01, 12);
  });

  it('caps the push near the centre and still pushes a particle sitting on it', () => {
    const world = new World(noGravity);
    const close = world.addParticle({ position: [0.01, 0, 0] });
    const onCentre = world.addParticle({ position: [0, 0, 0] });
    const strength = 0.008; // default cap ∛strength = 0.2 m
    explode(world, [0, 0, 0], { strength });
    expect(world.getPosition(close)[0]).toBeCloseTo(0.01 + 0.2, 12);
    expect(Math.hypot(...world.getPosition(onCentre))).toBeCloseTo(0.2, 12);
    explode(world, [0, 0, 0], { strength, maxPush: 0.05 });
    expect(world.getPosition(close)[0]).toBeCloseTo(0.21 + Math.min(strength / 0.21 ** 2, 0.05), 12);
  });

  it('leaves alone what is beyond its radius, immovable, pinned or removed', () => {
    const world = new World(noGravity);
    const far = world.addParticle({ position: [3, 0, 0] });
    const fixed = world.addParticle({ position: [0.5, 0, 0], mass: 0 });
    const pinned = world.addParticle({ position: [0, 0.5, 0] });
    world.addPin(pinned);
    const removed = world.addParticle({ position: [0, 0, 0.5] });
    world.removeParticle(removed);
    const near = world.addParticle({ position: [0, 0, -1] });
    expect(explode(world, [0, 0, 0], { strength: 1, radius: 2 })).toBe(1);
    expect(world.getPosition(far)).toEqual([3, 0, 0]);
    expect(world.getPosition(fixed)).toEqual([0.5, 0, 0]);
    expect(world.getPosition(pinned)).toEqual([0, 0.5, 0]);
    expect(world.getPosition(near)[2]).toBeLessThan(-1);
  });

  it('rejects bad input, naming the argument and the value', () => {
    const world = new World();
    expect(() => explode(world, [0, 0, 0], { strength: NaN })).toThrow('explode: strength must be a finite number in [0, Infinity], got NaN');
    expect(() => explode(world, [0, Infinity, 0], { strength: 1 })).toThrow('explode: center y must be a finite number, got Infinity');
    expect(() => explode(world, [0, 0, 0], { strength: 1, radius: -2 })).toThrow('explode: radius must be > 0, got -2');
  });
});

describe('hit', () => {
  it('moves the particle by the given distance and Verlet carries it on', () => {
    const world = new World({ ...noGravity, substeps: 5 });
    const id = world.addParticle({ position: [0, 1, 0] });
    hit(world, id, [0, 0, -2], 0.03);
    expect(world.getPosition(id)).toEqual([0, 1, expect.closeTo(-0.03, 15)]);
    expect(world.getVelocity(id)[2]).toBeCloseTo(-0.03 / world.substep, 9);
    world.step();
    expect(world.getPosition(id)[2]).toBeCloseTo(-0.03 - 5 * 0.03, 12);
  });

  it('sets a stick-linked body moving: the blow’s momentum is shared, the centre moves at half the speed', () => {
    const world = new World({ ...noGravity, substeps: 1 });
    const shoulder = world.addParticle({ position: [0, 1.4, 0] });
    const hip = world.addParticle({ position: [0, 0.9, 0] });
    world.addStick(shoulder, hip);
    hit(world, shoulder, [-1, 0, 0], 0.01);
    for (let i = 0; i < 30; i++) world.step();
    const vs = world.getVelocity(shoulder);
    const vh = world.getVelocity(hip);
    expect((vs[0] + vh[0]) / 2).toBeCloseTo(-0.01 / world.substep / 2, 9);
    expect(vh[0]).toBeLessThan(0); // the hip was dragged along
    expect(Math.hypot(...moved(world.getPosition(hip), world.getPosition(shoulder)))).toBeCloseTo(0.5, 3);
  });

  it('ignores immovable particles and rejects bad input', () => {
    const world = new World(noGravity);
    const fixed = world.addParticle({ position: [0, 0, 0], mass: 0 });
    hit(world, fixed, [1, 0, 0], 1);
    expect(world.getPosition(fixed)).toEqual([0, 0, 0]);
    expect(() => hit(world, fixed, [0, 0, 0], 1)).toThrow('hit: direction must be non-zero, got [0, 0, 0]');
    expect(() => hit(world, fixed, [1, 0, 0], -1)).toThrow('hit: strength must be a finite number in [0, Infinity], got -1');
    expect(() => hit(world, 9, [1, 0, 0], 1)).toThrow('hit: particle: no particle with id 9');
  });
});

describe('inheritAnimation', () => {
  it('continues at the poses’ velocity whatever their interval, rescaled to the substep', () => {
    const world = new World(noGravity); // 60 Hz × 10 substeps
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [0, 0, 0] }]);
    const v = [
      [1.5, 0, -0.5],
      [0, 2, 0],
    ];
    const current = [0, 1, 0, 1, 1, 0];
    // Recorded at 30 Hz.
    const previous = current.map((c, k) => c - v[Math.floor(k / 3)]![k % 3]! / 30);
    inheritAnimation(world, first, previous, current, 1 / 30);
    expect(world.getVelocity(first)).toEqual(v[0]!.map((x) => expect.closeTo(x, 9)));
    for (let i = 0; i < 60; i++) world.step();
    expect(world.getPosition(first)).toEqual([expect.closeTo(1.5, 9), expect.closeTo(1, 9), expect.closeTo(-0.5, 9)]);
    expect(world.getPosition(first + 1)).toEqual([expect.closeTo(1, 9), expect.closeTo(3, 9), 0]);
  });

  it('keeps a spinning stick spinning at the animation’s angular velocity', () => {
    const world = new World(noGravity);
    const first = world.addParticles([{ position: [-0.5, 0, 0] }, { position: [0.5, 0, 0] }]);
    world.addStick(first, first + 1);
    const omega = 3; // rad/s about z, poses one world step apart (the default interval)
    const pose = (angle: number) => [-0.5 * Math.cos(angle), -0.5 * Math.sin(angle), 0, 0.5 * Math.cos(angle), 0.5 * Math.sin(angle), 0];
    inheritAnimation(world, first, pose(-omega / 60), pose(0));
    for (let i = 0; i < 60; i++) world.step();
    const p = world.getPosition(first + 1);
    // Projecting the stick back to length each substep bleeds under 1% of the spin in a second.
    expect(Math.atan2(p[1], p[0])).toBeCloseTo(omega * 1, 1);
  });

  it('rejects poses that do not fit, naming the argument and the value', () => {
    const world = new World();
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }]);
    expect(() => inheritAnimation(world, first, [0, 0, 0], [0, 0, 0, 1, 0, 0])).toThrow('inheritAnimation: previousPose and currentPose must have the same length, got 3 and 6');
    expect(() => inheritAnimation(world, first, [0, 0], [0, 0])).toThrow('inheritAnimation: previousPose must hold x, y, z per particle (a non-zero multiple of 3 values), got 2');
    expect(() => inheritAnimation(world, first, [0, NaN, 0], [0, 0, 0])).toThrow('inheritAnimation: previousPose[1] must be a finite number, got NaN');
    expect(() => inheritAnimation(world, first, [0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0])).toThrow('inheritAnimation: particle 2 (first + 2): no particle with id 2');
    expect(() => inheritAnimation(world, first, [0, 0, 0], [0, 0, 0], 0)).toThrow('inheritAnimation: dtBetweenPoses must be > 0, got 0');
  });
});
