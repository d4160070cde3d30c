import { describe, expect, it } from 'vitest';
import { JITTER, run, SETTLE_STEPS, stressCloth, type ClothBuild, type Start, type StressOptions, type StressRecord, type Support } from './stressScenes.js';

// Issue 9, "nothing gains energy": a net of loose particles whose sticks were added
// row by row rose above its pins at the default 10 substeps × 1 pass (64×64 at 30%
// mean stretch; 128×128 reached 1e36). These scenes step cloth.c's nets, 32×32 to
// 128×128, for 10 simulated seconds, built, started, held and solved in the ways
// that bug could hide behind, and check every coordinate after every step.
//
// Run against the engine before the fix (641c2ae, sticks coloured in blocks in the
// order they were added), this file fails 7 cases: the row-major 64×64 net rose
// 0.13 m above its pins within 2 s at 10 × 1 (3.76 m and 29% stretch by 10 s),
// 3.37 m at 20 × 1, 0.42 m at 5 × 2; the row-major 128×128 net went to NaN within
// 4 s at 10 × 1 and rose 32 m at 1 × 1; the reversed, jittered 128×128 net rose
// 2.9 m. 32×32 nets, and 3 × 3 or 2 × 5 passes at 64×64, stayed below their pins
// even there, which is why the tables go up to 128 and sample 20 × 1 and 5 × 2 at 64.

/** 10 s at the default 1/60 s step. */
const STEPS = 600;

/** Per test: a 128×128 run takes 4–8 s on a quiet 2-core machine. */
const TIMEOUT = 60_000;

/** What "never above" and "never into" allow for rounding (m). Planar nets measured exactly 0, at every size and solver. */
const EPSILON = 1e-6;

/**
 * How far a particle may rise above the ceiling (the supports, or a falling net's
 * highest start) during the first SETTLE_STEPS steps, by start; after those every
 * start must stay within SETTLED.
 *
 * - planar: never rose.
 * - pleated: starts without strain, yet when the folds open and the net jerks taut
 *   the straight top row, which starts exactly at the pins' height, rebounds like a
 *   plucked string: 3.3 mm at most (48×48 at 10 × 1; 2.2 mm at 64×64, 20 × 1; a
 *   falling pleated net never rose).
 * - jittered: starts with sticks strained up to 80%, and projection turns each
 *   correction Δx into a velocity Δx / h, the more substeps the faster: particles
 *   flew up to 7.3 cm above a falling net's highest start (48×48, 20 × 1) and
 *   3.6 cm above the pins of a hanging one (32×32, 20 × 1), with a 3 cm jitter.
 */
const KICK: Record<Start, number> = { planar: EPSILON, pleated: 0.01, jittered: 5 * JITTER };

/**
 * How far above the ceiling a particle may stay after SETTLE_STEPS, by start.
 * Planar nets: rounding. A net hung from two corners has a top row exactly as
 * long as the corners are apart; the long-range attachments hold it straight,
 * and where a pleated or jittered start's rebound left one of its particles
 * above the line, locked between its two opposing taut tethers, it stays there:
 * 0.24–0.82 mm measured (32×32 to 128×128), falling no further since it
 * cannot move down without the row's sticks pushing it back. A net that
 * rose would show here by centimetres.
 */
const SETTLED: Record<Start, number> = { planar: EPSILON, pleated: 1e-3, jittered: 1e-3 };

/**
 * Mean stick stretch allowed after 10 s at the default solver (the issue's
 * threshold; its diverging nets read 29% and more). Measured on hanging nets after
 * 10 s, identical to the digits shown for every build, support and kernel (the
 * solving order no longer depends on how the sticks came in):
 *
 * | N       | 32     | 48     | 64     | 96     | 128    |
 * | planar  | 0.242% | 0.373% | 0.491% | 0.759% | 0.954% |
 * | pleated | 0.260% | 0.397% | 0.528% | 0.797% | 1.047% |
 * | jittered| 0.259% | 0.397% | 0.527% | 0.773% | 1.021% |
 */
const DEFAULT_STRETCH = 0.015;

type Case = Pick<StressOptions, 'n' | 'build' | 'support' | 'start' | 'kernel'>;
type SolverCase = Case & Pick<StressOptions, 'substeps' | 'iterations'>;

/** A case's test name: `64×64 row-major, anchors, planar, wasm, 20 × 1`. */
function named<C extends Case & Partial<SolverCase>>(cases: C[]): [string, C][] {
  return cases.map((c) => {
    const solver = c.substeps === undefined ? '' : `, ${c.substeps} × ${c.iterations}`;
    return [`${c.n}×${c.n} ${c.build}, ${c.support}, ${c.start}, ${c.kernel}${solver}`, c];
  });
}

function solve(c: Case, substeps = 10, iterations = 1): StressRecord {
  return run(stressCloth({ ...c, substeps, iterations }), STEPS);
}

/**
 * Energy (J/kg of cloth) an unstrained start may seem to gain: 0.1 mm of height.
 * Measured at most 1.8e-5 J/kg (32×32 at 1 × 10), in the first step, where a
 * projection by more than g·h² reads as a little more kinetic energy than it takes
 * away in height: an artefact of the measure at the step's length, not a drift.
 * After it, and at every step with substeps, energy stayed below the start (10 × 1:
 * at most -7.0e-5 J/kg). Before the fix the nets gained 44 to 2190 J/kg
 * (64×64 at 5 × 2 and at 20 × 1) when they did not turn NaN first.
 */
const ENERGY = 1e-3;

/**
 * What every run must show: finite throughout, never above its ceiling (beyond its
 * start's kick), never into the ground, and, started unstrained, never more kinetic
 * plus gravitational energy than it started with (beyond ENERGY).
 */
function expectSound(record: StressRecord, start: Start): void {
  expect(record.finite, `a coordinate stopped being finite at step ${record.steps}`).toBe(true);
  if (start !== 'jittered') expect(record.energyGain, 'gained energy').toBeLessThanOrEqual(ENERGY);
  expect(record.kick, `rose above the ceiling in the first ${SETTLE_STEPS} steps`).toBeLessThanOrEqual(KICK[start]);
  expect(record.above, `rose above the ceiling after ${SETTLE_STEPS} steps`).toBeLessThanOrEqual(SETTLED[start]);
  expect(record.below, 'sank into the ground').toBeLessThanOrEqual(EPSILON);
}

/** Each build with the support its user would reach for: createCloth's `'top-corners'` pins, cloth.c's mass-0 corners. */
const hangs: [ClothBuild, Support][] = [
  ['row-major', 'anchors'],
  ['reversed', 'anchors'],
  ['shuffled', 'pins'],
  ['createCloth', 'pins'],
];

describe('a hanging net at the default solver (10 substeps × 1 pass), 10 s', () => {
  const cases: Case[] = [];
  // 32×32: every build with each kernel.
  for (const [build, support] of hangs) for (const kernel of ['wasm', 'js'] as const) cases.push({ n: 32, build, support, start: 'planar', kernel });
  // 64×64, where the issue showed: every build, the kernels alternating.
  hangs.forEach(([build, support], k) => cases.push({ n: 64, build, support, start: 'planar', kernel: k % 2 === 0 ? 'wasm' : 'js' }));
  for (const n of [32, 64]) {
    cases.push({ n, build: 'row-major', support: 'pins', start: 'pleated', kernel: 'wasm' });
    cases.push({ n, build: 'createCloth', support: 'anchors', start: 'jittered', kernel: 'js' });
  }
  // 128×128 costs 4–8 s a run: the net, and a pleated start (the kernels agree bit for bit,
  // test/core/stickKernel.test.ts; the jittered start runs at 32 and 64).
  cases.push({ n: 128, build: 'row-major', support: 'anchors', start: 'planar', kernel: 'wasm' }, { n: 128, build: 'createCloth', support: 'pins', start: 'pleated', kernel: 'wasm' });

  it.each(named(cases))(
    '%s: below its supports at ≤ 1.5% stretch',
    (_, c) => {
      const record = solve(c);
      expectSound(record, c.start);
      expect(record.stretch).toBeLessThanOrEqual(DEFAULT_STRETCH);
    },
    TIMEOUT,
  );
});

describe('a hanging net over substeps × iterations, 10 s', () => {
  // The corners of 1–20 substeps × 1–10 passes and a few between, where passes
  // differ from the default. Mean stretch measured after 10 s (row-major, mass-0
  // corners, planar; other builds, supports and kernels within 0.04 points, pleated
  // and jittered starts within 0.5, or 2.8 at 1 × 1, where the net lies heaped on
  // the ground). It documents what each solver buys; the bound is the default's.
  //
  // | N   | 1 × 1 | 1 × 10 | 20 × 1 | 20 × 10 | 5 × 2 | 2 × 5 | 3 × 3 | 10 × 1 |
  // | 32  | 17.1% | 2.24%  | 0.061% | 0.006%  | 0.48% | 1.16% | 0.87% | 0.24%  |
  // | 64  | 16.0% | 3.85%  | 0.13%  | 0.013%  | 1.00% | 2.31% | 1.73% | 0.49%  |
  // | 128 | 14.3% | 6.12%  | 0.26%  | –       | 1.59% | 2.98% | 2.25% | 0.95%  |
  //
  // At 1 × 1 (and 1 × 10 from 48×48) the net stretches down onto the ground.
  const solvers: [number, number][] = [
    [1, 1],
    [1, 10],
    [20, 1],
    [20, 10],
    [5, 2],
    [2, 5],
    [3, 3],
  ];
  const cases: SolverCase[] = [];
  for (const [substeps, iterations] of solvers) {
    cases.push({ n: 32, build: 'row-major', support: 'anchors', start: 'planar', kernel: 'wasm', substeps, iterations });
    // 20 × 10 costs 3.5 s with 'wasm', 5.4 s with 'js': once is enough.
    if (substeps * iterations < 200) cases.push({ n: 32, build: 'createCloth', support: 'pins', start: 'pleated', kernel: 'js', substeps, iterations });
  }
  // At 64×64, 20 × 1 and 5 × 2 are where the old order rose above the pins.
  for (const [substeps, iterations] of [
    [1, 1],
    [1, 10],
    [20, 1],
    [5, 2],
  ] as const) {
    cases.push({ n: 64, build: 'row-major', support: 'anchors', start: 'planar', kernel: substeps === 20 ? 'js' : 'wasm', substeps, iterations });
  }
  cases.push({ n: 64, build: 'shuffled', support: 'pins', start: 'jittered', kernel: 'wasm', substeps: 20, iterations: 1 });
  cases.push({ n: 128, build: 'row-major', support: 'anchors', start: 'planar', kernel: 'wasm', substeps: 1, iterations: 1 });
  cases.push({ n: 128, build: 'row-major', support: 'anchors', start: 'planar', kernel: 'wasm', substeps: 1, iterations: 10 });

  it.each(named(cases))(
    '%s: finite, below its supports',
    (_, c) => {
      expectSound(solve(c, c.substeps, c.iterations), c.start);
    },
    TIMEOUT,
  );
});

describe('a net falling flat onto the ground, 10 s', () => {
  // Nothing holds it; it lies 1 m above the plane y = -5. It must never rise above
  // where it started (beyond its start's KICK) nor sink into the ground: measured
  // exactly 0 below the plane at every solver, and lying flat on it after 10 s.
  const cases: SolverCase[] = [];
  cases.push({ n: 32, build: 'createCloth', support: 'falling', start: 'planar', kernel: 'wasm', substeps: 10, iterations: 1 });
  cases.push({ n: 32, build: 'reversed', support: 'falling', start: 'planar', kernel: 'js', substeps: 10, iterations: 1 });
  cases.push({ n: 32, build: 'createCloth', support: 'falling', start: 'pleated', kernel: 'js', substeps: 10, iterations: 1 });
  cases.push({ n: 32, build: 'shuffled', support: 'falling', start: 'jittered', kernel: 'wasm', substeps: 10, iterations: 1 });
  for (const [substeps, iterations] of [
    [1, 1],
    [1, 10],
    [20, 1],
    [3, 3],
  ] as const) {
    cases.push({ n: 32, build: 'row-major', support: 'falling', start: 'jittered', kernel: 'wasm', substeps, iterations });
  }
  cases.push({ n: 64, build: 'row-major', support: 'falling', start: 'pleated', kernel: 'js', substeps: 10, iterations: 1 });
  cases.push({ n: 64, build: 'createCloth', support: 'falling', start: 'jittered', kernel: 'wasm', substeps: 1, iterations: 10 });

  it.each(named(cases))(
    '%s: finite, never above its start nor into the ground',
    (_, c) => {
      expectSound(solve(c, c.substeps, c.iterations), c.start);
    },
    TIMEOUT,
  );
});
