import { describe, expect, it } from 'vitest';
import { World, type PlaneCollider, type Vec3, type WorldOptions } from '../../src/core/index.js';
import { leastAllocation } from '../support/heap.js';

/** A rigid box of 8 particles and 28 sticks (every pair), registered as one body. */
function box(world: World, center: Vec3, size = 0.2) {
  const corners = Array.from({ length: 8 }, (_, k) => ({
    position: [center[0] + ((k & 1) - 0.5) * size, center[1] + (((k >> 1) & 1) - 0.5) * size, center[2] + (((k >> 2) & 1) - 0.5) * size] as Vec3,
    radius: 0.01,
  }));
  const first = world.addParticles(corners);
  const body = world.addBody(first, 8, { kind: 'box' });
  for (let i = 0; i < 8; i++) for (let j = i + 1; j < 8; j++) body.constraints.push(world.addStick(first + i, first + j));
  return { body, first, ids: Array.from({ length: 8 }, (_, k) => first + k) };
}

function restingWorld(options: WorldOptions = {}) {
  const world = new World({ sleep: true, ...options });
  const ground = world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  return { world, ground };
}

/** Steps until `world.stats.sleepingBodies` reaches `count`; returns the steps taken (or fails). */
function stepUntilAsleep(world: World, count = 1, limit = 600): number {
  for (let i = 1; i <= limit; i++) {
    world.step();
    if (world.stats.sleepingBodies >= count) return i;
  }
  throw new Error(`no ${count} sleeping bodies after ${limit} steps`);
}

const snapshotOf = (world: World, ids: number[]) => ids.flatMap((id) => [...world.getPosition(id)]);

describe('sleeping bodies', () => {
  it('a box that comes to rest falls asleep after sleepTime, and from then on costs nothing', () => {
    const { world, ground } = restingWorld();
    const b = box(world, [0, 0.3, 0]);
    const steps = stepUntilAsleep(world);
    // It lands within half a second; then it must rest for sleepTime = 0.5 s (30 steps).
    expect(steps).toBeGreaterThan(30);
    expect(world.stats).toMatchObject({ sleepingBodies: 1, awakeBodies: 0, awakeParticles: 0 });
    expect(world.sleep.isAsleep(b.body.id)).toBe(true);
    b.ids.forEach((id) => expect(world.getVelocity(id)).toEqual([0, 0, 0]));
    const at = snapshotOf(world, b.ids);
    // Not integrated, no sticks solved, no collisions: break all three and nothing happens.
    const rows = b.body.constraints.map((id) => world.stickRow(id));
    for (const row of rows) world.sticks.rest[row] = 5;
    (world.getCollider(ground) as PlaneCollider).offset = 1;
    for (let i = 0; i < 120; i++) world.step();
    expect(snapshotOf(world, b.ids)).toEqual(at);
  });

  it('wakes when a particle of an awake body enters its bounds, and when a loose particle does', () => {
    const { world } = restingWorld();
    const resting = box(world, [0, 0.11, 0]);
    stepUntilAsleep(world);
    const falling = box(world, [0.05, 1.5, 0]);
    let woke = -1;
    for (let i = 0; i < 120 && woke < 0; i++) {
      world.step();
      if (!world.sleep.isAsleep(resting.body.id)) woke = i;
    }
    // Free fall from 1.5 m to the box's top at 0.21 m takes about 0.5 s.
    expect(woke).toBeGreaterThan(20);
    expect(world.getPosition(falling.first)[1]).toBeLessThan(0.4);
    stepUntilAsleep(world, 2);
    const stone = world.addParticle({ position: [0, 1, 0], radius: 0.02 });
    for (let i = 0; i < 60 && world.stats.sleepingBodies === 2; i++) world.step();
    expect(world.stats.sleepingBodies).toBeLessThan(2);
    expect(world.getPosition(stone)[1]).toBeLessThan(0.5);
  });

  it('wakes when its ground is removed or a collider is added, and on wakeAll', () => {
    const { world, ground } = restingWorld();
    const b = box(world, [0, 0.11, 0]);
    stepUntilAsleep(world);
    world.removeCollider(ground);
    for (let i = 0; i < 30; i++) world.step();
    // It fell (0.5 s of free fall, 1.2 m): a sleeper that stayed put would float where the ground was.
    expect(world.getPosition(b.first)[1]).toBeLessThan(-0.9);
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: -1.5 });
    stepUntilAsleep(world);
    world.wakeAll();
    expect(world.sleep.isAsleep(b.body.id)).toBe(false);
    stepUntilAsleep(world);
    world.addCollider({ type: 'box', min: [-1, -5, -1], max: [1, -1.4, 1] });
    expect(world.sleep.isAsleep(b.body.id)).toBe(false);
    // It was inside the new box, 10 cm under its top, and climbs out on top at the push-out speed limit (3 m/s: two steps).
    for (let i = 0; i < 10; i++) world.step();
    expect(world.getPosition(b.first)[1]).toBeGreaterThan(-1.41);
  });

  it('wakes on impulses, pins, teleports, forces, removed sticks, gravity, and force generators', () => {
    const cases: ((world: World, first: number, body: ReturnType<typeof box>) => void)[] = [
      (w, p) => w.applyImpulse(p, [0, 1, 0]),
      (w, p) => w.setVelocity(p, [1, 0, 0]),
      (w, p) => w.setPosition(p, [0, 0.5, 0]),
      (w, p) => w.addPin(p, [0, 1, 0]),
      (w, p) => w.applyForce(p, [0, 50, 0]),
      (w, p) => w.setMass(p, 3),
      (w, _, b) => w.removeConstraint(b.body.constraints[0]!),
      (w, _, b) => w.setStick(b.body.constraints[0]!, { length: 0.1 }),
      (w) => (w.gravity = [0, -9.81, 1]),
      (w, p) => w.wake(p),
      (w, p) => {
        w.addForce({ apply: (world) => void (world.particles.force[p * 3 + 1] = 40) });
      },
    ];
    cases.forEach((touch, k) => {
      const { world } = restingWorld();
      const b = box(world, [0, 0.11, 0]);
      stepUntilAsleep(world);
      touch(world, b.first + 3, b);
      world.step();
      expect(world.sleep.isAsleep(b.body.id), `case ${k}`).toBe(false);
      expect(world.stats.awakeBodies, `case ${k}`).toBe(1);
    });
  });

  it('bodies joined by a stick form an island: they fall asleep together and wake together', () => {
    const { world } = restingWorld();
    const a = box(world, [0, 0.11, 0]);
    const b = box(world, [1, 0.11, 0]);
    world.addStick(a.first + 1, b.first);
    // Keep b moving for a while: a stays awake with it.
    for (let i = 0; i < 60; i++) {
      world.setVelocity(b.first + 7, [0, 0, 0.3]);
      world.step();
      expect(world.stats.sleepingBodies).toBe(0);
    }
    stepUntilAsleep(world, 2);
    world.applyImpulse(b.first, [0, 0.5, 0]);
    world.step();
    expect(world.stats.sleepingBodies).toBe(0);
  });

  it('a body tied to a loose movable particle never sleeps; tied to a loose immovable anchor it does', () => {
    for (const mass of [1, 0]) {
      const { world } = restingWorld();
      const b = box(world, [0, 0.11, 0]);
      const loose = world.addParticle({ position: [0.5, 0.01, 0], mass, radius: 0.01 });
      world.addStick(b.first, loose);
      for (let i = 0; i < 300; i++) world.step();
      expect(world.stats.sleepingBodies).toBe(mass === 0 ? 1 : 0);
    }
  });

  it('does not freeze a slow swing: a pendulum moving 3 mm either side stays awake', () => {
    const { world } = restingWorld({ gravity: [0, -9.81, 0] });
    const first = world.addParticles([{ position: [0, 2, 0], mass: 0 }, { position: [0.003, 1, 0] }]);
    world.addBody(first, 2, { kind: 'pendulum' });
    world.addStick(first, first + 1);
    // Its top speed, about 1 cm/s, is near sleepSpeed; the drift over the rest period gives it away.
    let fastest = 0;
    for (let i = 0; i < 600; i++) {
      world.step();
      fastest = Math.max(fastest, Math.hypot(...world.getVelocity(first + 1)));
      expect(world.stats.sleepingBodies).toBe(0);
    }
    expect(fastest).toBeLessThan(0.012);
  });

  it('can be turned off (every body wakes) and is restored bit for bit by snapshots', () => {
    const { world } = restingWorld();
    const b = box(world, [0, 0.5, 0]);
    for (let i = 0; i < 40; i++) world.step();
    const snap = world.snapshot();
    const asleepAt = stepUntilAsleep(world);
    const after = snapshotOf(world, b.ids);
    world.restore(structuredClone(snap));
    expect(stepUntilAsleep(world)).toBe(asleepAt);
    expect(snapshotOf(world, b.ids)).toEqual(after);
    world.sleep.enabled = false;
    world.step();
    expect(world.stats.sleepingBodies).toBe(0);
    expect(new World().sleep.enabled).toBe(false);
    expect(() => new World({ sleepSpeed: -1 })).toThrow(/World: sleepSpeed must be a finite number in \[0, Infinity\], got -1/);
  });

  it('allocates nothing: 10,000 steps of boxes falling asleep and being woken leave the heap flat', () => {
    const { world } = restingWorld({ substeps: 2 });
    const boxes = Array.from({ length: 6 }, (_, k) => box(world, [k * 0.5, 0.11 + (k % 2) * 0.3, 0]));
    boxes[1]!.body.iterations = 4;
    world.addStick(boxes[4]!.first, boxes[5]!.first); // an island
    const loose = world.addParticle({ position: [3, 2, 0], radius: 0.02 });
    let tick = 0;
    world.onBeforeStep((w) => {
      tick++;
      // Kick one box every 97 steps by writing its previous positions (the setters allocate their tuples), then wake it.
      if (tick % 97 === 0) {
        const b = boxes[tick % boxes.length]!;
        for (let k = 0; k < 8; k++) w.particles.previous[(b.first + k) * 3 + 1] = w.particles.position[(b.first + k) * 3 + 1]! - 0.02;
        w.wake(b.first);
      }
      // Drop the loose particle through the sleepers now and then.
      if (tick % 400 === 0) {
        const p = loose * 3;
        w.particles.position[p] = ((tick % 2400) / 400) * 0.5;
        w.particles.position[p + 1] = 1;
        w.particles.previous[p] = w.particles.position[p]!;
        w.particles.previous[p + 1] = 1;
      }
    });
    let sleeping = 0;
    let changes = 0;
    world.onAfterStep((w) => {
      if (w.stats.sleepingBodies !== sleeping) changes++;
      sleeping = w.stats.sleepingBodies;
    });
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) world.step();
    };
    // Falling asleep and waking happen every hundred steps or so, and V8 optimises a
    // function only after enough calls; until then it boxes every double it touches.
    // Warm up long enough for the rare paths to be optimised too.
    run(60000);
    expect(world.stats.sleepingBodies + world.stats.awakeBodies).toBe(6);
    changes = 0;
    // The least of three runs: a real per-step allocation shows in every run,
    // a function V8 optimises late (on a busy machine) only in some.
    expect(leastAllocation(() => run(10000))).toBeLessThan(16 * 1024);
    // The runs did put bodies to sleep and wake them, again and again.
    expect(changes).toBeGreaterThan(500);
  }, 60_000);
});
