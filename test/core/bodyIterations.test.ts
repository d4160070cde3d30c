import { describe, expect, it } from 'vitest';
import { World, type Vec3, type WorldOptions } from '../../src/core/index.js';

/** A 20-link chain hanging from a pin at x, registered as a body with its own iteration count. */
function chain(world: World, x: number, iterations?: number) {
  const first = world.addParticles(Array.from({ length: 21 }, (_, i) => ({ position: [x, -0.1 * i, 0] as Vec3 })));
  const body = world.addBody(first, 21, { kind: 'chain', iterations });
  for (let i = 0; i < 20; i++) body.constraints.push(world.addStick(first + i, first + i + 1));
  body.constraints.push(world.addPin(first));
  return { body, first, last: first + 20 };
}

function stretch(world: World, c: { first: number; last: number }): number {
  const a = world.getPosition(c.first);
  const b = world.getPosition(c.last);
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / 2 - 1;
}

const plain: WorldOptions = { substeps: 1, iterations: 1 };

describe('per-body iteration counts (the paper: 1 to 10 depending on the object)', () => {
  it('a chain with 10 passes next to one with 1 stretches far less', () => {
    // Tethers hold both chains at their rest length whatever the passes; the pass count shows in plain relaxation.
    const world = new World({ ...plain, tethers: false });
    const one = chain(world, 0, 1);
    const ten = chain(world, 1, 10);
    for (let i = 0; i < 300; i++) world.step();
    // Measured: 1 pass 26%, 10 passes 2.5% (the fidelity table's plain relaxation).
    expect(stretch(world, one)).toBeGreaterThan(0.2);
    expect(stretch(world, ten)).toBeLessThan(0.03);
    expect(world.stats.passesUsed).toBe(10);
    expect(world.stats.iterationsUsed).toBe(1);
  });

  it('each body moves bit for bit as it would alone in a world with that iteration count', () => {
    const mixed = new World(plain);
    const one = chain(mixed, 0, 1);
    const ten = chain(mixed, 1, 10);
    const alone1 = new World({ ...plain, iterations: 1 });
    const solo1 = chain(alone1, 0);
    const alone10 = new World({ ...plain, iterations: 10 });
    const solo10 = chain(alone10, 1);
    mixed.setVelocity(one.last, [2, 0, 1]);
    alone1.setVelocity(solo1.last, [2, 0, 1]);
    mixed.setVelocity(ten.last, [-1, 0, 2]);
    alone10.setVelocity(solo10.last, [-1, 0, 2]);
    for (let i = 0; i < 200; i++) {
      mixed.step();
      alone1.step();
      alone10.step();
    }
    for (let k = 0; k <= 20; k++) {
      expect(mixed.getPosition(one.first + k)).toEqual(alone1.getPosition(solo1.first + k));
      expect(mixed.getPosition(ten.first + k)).toEqual(alone10.getPosition(solo10.first + k));
    }
  });

  it('a body without its own count follows the world’s; a change to either applies at the next step', () => {
    const world = new World(plain);
    const c = chain(world, 0);
    world.step();
    expect(world.stats.passesUsed).toBe(1);
    world.iterations = 4;
    world.step();
    expect(world.stats.passesUsed).toBe(4);
    c.body.iterations = 7;
    world.step();
    expect(world.stats.passesUsed).toBe(7);
  });

  it('loose sticks (no body) use the world’s count', () => {
    const world = new World({ substeps: 1, iterations: 3 });
    const first = world.addParticles([{ position: [0, 0, 0], mass: 0 }, { position: [0, -1, 0] }]);
    world.addStick(first, first + 1);
    chain(world, 1, 9);
    world.step();
    expect(world.stats.passesUsed).toBe(9);
    expect(world.sticks.segmentPasses[world.sticks.segmentCount - 1]).toBe(3);
    expect(world.sticks.segmentBody[world.sticks.segmentCount - 1]).toBe(-1);
  });

  it('rejects a count that is not a positive integer, naming it', () => {
    const world = new World();
    const first = world.addParticle({ position: [0, 0, 0] });
    expect(() => world.addBody(first, 1, { iterations: 0 })).toThrow(/addBody: iterations must be an integer >= 1, got 0/);
    expect(() => world.addBody(first, 1, { iterations: 2.5 })).toThrow(/addBody: iterations must be an integer >= 1, got 2.5/);
  });
});
