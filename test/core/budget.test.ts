import { describe, expect, it } from 'vitest';
import { createBox, World, type Vec3, type WorldOptions } from '../../src/core/index.js';
import { leastAllocation } from '../support/heap.js';

/**
 * A world whose clock is a counter the test advances: every step "costs"
 * `msPerPass` per substep-pass (read from the stats the step reports), so the
 * budget controller sees exactly the cost model it assumes, deterministically.
 */
function clockedWorld(options: WorldOptions, cost: { msPerPass: number }) {
  let now = 0;
  const world = new World({ ...options, clock: () => now });
  world.onAfterStep((w) => {
    now += w.stats.substepsUsed * w.stats.passesUsed * cost.msPerPass;
  });
  const first = world.addParticles(Array.from({ length: 11 }, (_, i) => ({ position: [0.1 * i, 0, 0] as Vec3 })));
  world.addPin(first);
  for (let i = 0; i < 10; i++) world.addStick(first + i, first + i + 1);
  return world;
}

const frame = 1 / 60;

describe('the time budget (the paper: "the error margin can even be adjusted adaptively at run-time")', () => {
  it('runs the full substeps and iterations while the frame fits, and reports them', () => {
    const cost = { msPerPass: 0.1 };
    const world = clockedWorld({ budgetMs: 4, substeps: 10, iterations: 2 }, cost);
    for (let i = 0; i < 10; i++) world.advance(frame);
    // 10 × 2 passes × 0.1 ms = 2 ms per frame: within 4 ms.
    expect(world.stats).toMatchObject({ substepsUsed: 10, iterationsUsed: 2, stepsPerFrame: 1 });
    expect(world.stats.msPerFrame).toBeCloseTo(2, 12);
    expect(world.stats.msPerStep).toBeCloseTo(2, 12);
  });

  it('rigid bodies report their true velocities while the budget runs fewer substeps', () => {
    let now = 0;
    // Every step "costs" 1 ms per substep: a 2 ms budget leaves 2 of the 10 substeps.
    const world = new World({ gravity: [0, 0, 0], budgetMs: 2, clock: () => now });
    world.onAfterStep((w) => void (now += w.stats.substepsUsed));
    const box = createBox(world, { size: 0.3, position: [0, 1, 0], velocity: [1, 0, 0], angularVelocity: [0, 2, 0] });
    for (let i = 0; i < 20; i++) world.advance(1 / 60);
    expect(world.stats.substepsUsed).toBeLessThan(10);
    const { velocity, angularVelocity } = box.update();
    expect(velocity[0]).toBeCloseTo(1, 6);
    // And its spin, through the changes of substep (each rescales the chords, which the rigid-motion
    // stage reads back as the same angular momentum). Before that stage Verlet's chords slowed it as
    // ω0 / √(1 + 2ω0²·h·t): 1.978 rad/s here.
    expect(angularVelocity[1]).toBeCloseTo(2, 3);
  });

  it('drops substeps, then iterations, to hold the budget when passes get dearer, and recovers', () => {
    const cost = { msPerPass: 0.1 };
    const world = clockedWorld({ budgetMs: 4, substeps: 10, iterations: 2 }, cost);
    for (let i = 0; i < 10; i++) world.advance(frame);
    cost.msPerPass = 0.5; // now the full 20 passes would take 10 ms
    const used: number[] = [];
    for (let i = 0; i < 30; i++) {
      world.advance(frame);
      used.push(world.stats.msPerFrame);
    }
    // Converged: 4 substeps × 2 iterations × 0.5 ms = 4 ms.
    expect(world.stats.substepsUsed).toBe(4);
    expect(world.stats.iterationsUsed).toBe(2);
    expect(used.slice(-10).every((ms) => ms <= 4 + 1e-9)).toBe(true);
    cost.msPerPass = 2; // even one substep of 2 passes is 4 ms: iterations go next
    for (let i = 0; i < 30; i++) world.advance(frame);
    expect(world.stats.substepsUsed).toBe(1);
    expect(world.stats.iterationsUsed).toBe(2);
    cost.msPerPass = 3;
    for (let i = 0; i < 30; i++) world.advance(frame);
    expect(world.stats.substepsUsed).toBe(1);
    expect(world.stats.iterationsUsed).toBe(1);
    cost.msPerPass = 0.1;
    for (let i = 0; i < 30; i++) world.advance(frame);
    expect(world.stats).toMatchObject({ substepsUsed: 10, iterationsUsed: 2 });
  });

  it('never drops below the minimum, even when the minimum does not fit', () => {
    const cost = { msPerPass: 50 };
    const world = clockedWorld({ budgetMs: 1, substeps: 8, iterations: 4, minSubsteps: 3, minIterations: 2 }, cost);
    for (let i = 0; i < 20; i++) world.advance(frame);
    expect(world.stats).toMatchObject({ substepsUsed: 3, iterationsUsed: 2 });
  });

  it('shares the budget among the steps of a frame that runs several', () => {
    const cost = { msPerPass: 0.2 };
    const world = clockedWorld({ budgetMs: 4, substeps: 10, iterations: 1 }, cost);
    for (let i = 0; i < 10; i++) world.advance(frame);
    expect(world.stats.substepsUsed).toBe(10); // 2 ms for one step
    for (let i = 0; i < 10; i++) world.advance(3 * frame);
    // Three steps a frame: 4 ms / 3 steps / 0.2 ms = 6 substeps each.
    expect(world.stats.stepsPerFrame).toBe(3);
    expect(world.stats.substepsUsed).toBe(6);
  });

  it('keeps velocities when it changes the substep, and gives bodies proportionally fewer passes', () => {
    const cost = { msPerPass: 0.1 };
    const world = clockedWorld({ budgetMs: 100, substeps: 10, iterations: 4, gravity: [0, 0, 0] }, cost);
    const free = world.addParticle({ position: [5, 0, 0], velocity: [1, 2, 3] });
    const first = world.addParticles([{ position: [9, 0, 0] }, { position: [9, 1, 0] }]);
    const body = world.addBody(first, 2, { iterations: 8 });
    body.constraints.push(world.addStick(first, first + 1));
    world.advance(frame);
    expect(world.stats.passesUsed).toBe(8);
    world.budgetMs = 0.5; // 5 passes of 0.1 ms fit: 1 substep, 2 of 4 iterations, so the body gets 4 of its 8
    world.advance(frame);
    world.advance(frame);
    expect(world.stats.substepsUsed).toBe(1);
    expect(world.stats.iterationsUsed).toBe(2);
    expect(world.stats.passesUsed).toBe(4);
    world.getVelocity(free).forEach((v, k) => expect(v).toBeCloseTo([1, 2, 3][k]!, 9));
    world.budgetMs = 0; // off: back to the settings
    world.advance(frame);
    expect(world.stats).toMatchObject({ substepsUsed: 10, iterationsUsed: 4, passesUsed: 8 });
    world.getVelocity(free).forEach((v, k) => expect(v).toBeCloseTo([1, 2, 3][k]!, 9));
  });

  it('reports wall-clock time per step and per frame without a budget', () => {
    const world = new World();
    world.addParticle({ position: [0, 0, 0] });
    world.advance(2 * frame);
    expect(world.stats.stepsPerFrame).toBe(2);
    expect(world.stats.msPerFrame).toBeGreaterThanOrEqual(0);
    expect(world.stats.msPerStep).toBeCloseTo(world.stats.msPerFrame / 2, 12);
    expect(world.stats.substepsUsed).toBe(10);
  });

  it('rejects bad settings, naming them', () => {
    expect(() => new World({ budgetMs: -1 })).toThrow(/World: budgetMs must be a finite number in \[0, Infinity\], got -1/);
    expect(() => new World({ minSubsteps: 0 })).toThrow(/World: minSubsteps must be an integer >= 1, got 0/);
    expect(() => new World({ minIterations: 1.5 })).toThrow(/World: minIterations must be an integer >= 1, got 1.5/);
    expect(() => new World({ clock: 5 as never })).toThrow(/World: clock must be a function, got 5/);
    expect(() => {
      new World().budgetMs = NaN;
    }).toThrow(/World: budgetMs must be a finite number/);
  });

  it('allocates nothing per frame under a budget (with a clock that returns small integers)', () => {
    const cost = { msPerPass: 1 };
    const world = clockedWorld({ budgetMs: 8, substeps: 10, iterations: 2 }, cost);
    let frames = 0;
    const run = (n: number) => {
      for (let i = 0; i < n; i++) {
        // Cost swings every 32 frames, so the controller keeps changing the substeps.
        cost.msPerPass = (frames++ >> 5) % 2 === 0 ? 1 : 4;
        world.advance(frame);
      }
    };
    run(20000);
    expect(leastAllocation(() => run(10000))).toBeLessThan(16 * 1024);
  }, 60_000);
});
