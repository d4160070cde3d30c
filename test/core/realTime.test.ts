import { describe, expect, it } from 'vitest';
import { World, type SlowerThanRealTimeReport, type Vec3, type WorldOptions } from '../../src/core/index.js';
import { leastAllocation } from '../support/heap.js';

// A world says, once, when advance() runs slower than real time for more than a
// second, and keeps stats.slowerThanRealTime and stats.realTimeRatio. The clock
// is a counter each step moves by `msPerStep`, so the step cost it reports is exact.

function chain(options: WorldOptions, cost: { msPerStep: number }) {
  let now = 0;
  const reports: SlowerThanRealTimeReport[] = [];
  const world = new World({ ...options, clock: () => now, onSlowerThanRealTime: (report) => void reports.push(report) });
  world.onAfterStep(() => void (now += cost.msPerStep));
  const first = world.addParticles(Array.from({ length: 11 }, (_, i) => ({ position: [0.1 * i, 0, 0] as Vec3 })));
  world.addPin(first);
  for (let i = 0; i < 10; i++) world.addStick(first + i, first + i + 1);
  return { world, reports };
}

/** `advance(seconds)` for `calls` calls. */
function run(world: World, seconds: number, calls: number) {
  for (let i = 0; i < calls; i++) world.advance(seconds);
}

describe('a world that cannot keep up with real time', () => {
  it('keeps up at one step per 1/60 s frame: ratio 1, no flag, nothing said', () => {
    const { world, reports } = chain({}, { msPerStep: 2 });
    run(world, 1 / 60, 300);
    expect(world.stats.realTimeRatio).toBe(1);
    expect(world.stats.slowerThanRealTime).toBe(false);
    expect(reports).toEqual([]);
  });

  it('says so once with the step cost, the share of real time and what to change, and the flag clears when it keeps up', () => {
    const cost = { msPerStep: 40 };
    const { world, reports } = chain({ maxStepsPerAdvance: 5 }, cost);
    // Frames of 0.2 s: 12 steps due, 5 run (5/60 s), the rest dropped: 5/12 of real time.
    run(world, 0.2, 4);
    expect(world.stats.slowerThanRealTime).toBe(false); // 0.8 s measured: not yet a second
    expect(reports).toEqual([]);
    run(world, 0.2, 1);
    expect(world.stats.slowerThanRealTime).toBe(true);
    expect(world.stats.realTimeRatio).toBeCloseTo(5 / 12, 12);
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(report).toMatchObject({ msPerStep: 40, stepsPerSecond: 60 });
    expect(report!.realTimeRatio).toBeCloseTo(5 / 12, 12);
    // 5 steps × 40 ms in each 200 ms frame: stepping is all of it.
    expect(report!.steppingShare).toBeCloseTo(1, 12);
    expect(report!.message).toMatch(/^World: running at 0\.42 of real time/);
    expect(report!.message).toContain('A step costs 40.00 ms and real time needs 60 steps a second; stepping alone needs 2400 ms per second of simulated time');
    expect(report!.message).toMatch(/fewer particles.*fewer substeps.*budgetMs.*sleep/);

    // Still slow for three more seconds: the flag stays, nothing more is said.
    run(world, 0.2, 15);
    expect(world.stats.slowerThanRealTime).toBe(true);
    expect(reports).toHaveLength(1);

    // Keeping up again for a second clears it.
    cost.msPerStep = 1;
    run(world, 1 / 60, 60);
    expect(world.stats.slowerThanRealTime).toBe(false);
    expect(world.stats.realTimeRatio).toBe(1);
    expect(reports).toHaveLength(1);
  });

  it('blames slow frames, not the step, when stepping takes a small share of the time', () => {
    const { world, reports } = chain({ maxStepsPerAdvance: 2 }, { msPerStep: 1 });
    // Frames of 0.1 s (rendering, say): 6 steps due, 2 run; stepping takes 2 ms of each 100.
    run(world, 0.1, 10);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.realTimeRatio).toBeCloseTo(1 / 3, 12);
    expect(reports[0]!.message).toContain('stepping took 2% of the time, so slow frames are the rest of it: at most 2 steps run per advance() (maxStepsPerAdvance)');
  });

  it('takes a stalled tab or a single hitch for what it is: no flag, nothing said', () => {
    const { world, reports } = chain({}, { msPerStep: 1 });
    world.advance(10); // a tab in the background for 10 s
    run(world, 1 / 60, 30);
    world.advance(0.5); // one long pause
    run(world, 1 / 60, 90);
    expect(world.stats.slowerThanRealTime).toBe(false);
    expect(reports).toEqual([]);
  });

  it('warns on the console without a callback', () => {
    const warned: unknown[] = [];
    const warn = console.warn;
    console.warn = (message: unknown) => void warned.push(message);
    try {
      const world = new World({ maxStepsPerAdvance: 1 });
      world.addParticle({ position: [0, 0, 0] });
      run(world, 0.05, 40);
    } finally {
      console.warn = warn;
    }
    expect(warned).toEqual([expect.stringMatching(/^World: running at 0\.33 of real time/)]);
  });

  it('only reports: the positions are the same bits with any step cost', () => {
    const fast = chain({}, { msPerStep: 0 });
    const slow = chain({}, { msPerStep: 100 });
    run(fast.world, 0.2, 20);
    run(slow.world, 0.2, 20);
    expect(slow.world.stats.slowerThanRealTime).toBe(true);
    expect(fast.world.stats.slowerThanRealTime).toBe(true);
    expect(Array.from(slow.world.positions)).toEqual(Array.from(fast.world.positions));
    expect(slow.reports[0]!.msPerStep).toBe(100);
    expect(fast.reports[0]!.msPerStep).toBe(0);
  });

  it('allocates nothing per frame while it measures, slow or not', () => {
    const { world } = chain({ maxStepsPerAdvance: 3 }, { msPerStep: 1 });
    // Slow and fast in turns (each call with its own constant: a computed argument would be boxed), so the flag keeps changing.
    const loop = (n: number) => {
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < 120; j++) world.advance(1 / 60);
        for (let j = 0; j < 20; j++) world.advance(0.1);
      }
    };
    loop(20);
    expect(world.stats.slowerThanRealTime).toBe(true);
    expect(leastAllocation(() => loop(40))).toBeLessThan(16 * 1024);
  }, 60_000);
});
