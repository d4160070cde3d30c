import { afterAll, bench, describe } from 'vitest';
import type { StickKernel } from '../../src/core/index.js';
import { clothWorkload, type ClothSolver } from './clothWorkload.js';
import { builtEngine } from './engine.js';
import { median, protocol, type Protocol } from './protocol.js';
import { frameScene } from './scenes.js';

// Light things carrying heavy things on the built library: what each loaded scene of
// test/support/loadedScenes.ts costs per step, mean and worst (the landing of a load and the
// first step's measuring of the tethers are single steps a mean hides), and what long-range
// attachments cost the cloth bench scene and the frame scene at equal passes (goal <= 1.2×).
const p = protocol();
const core = await builtEngine();
type World = InstanceType<typeof core.World>;

/** Long-range attachments on (the default) or off in `world`: every scene below goes through it. */
function tethers(world: World, on: boolean): World {
  world.tethers.enabled = on;
  return world;
}

// The scenes of test/support/loadedScenes.ts, built with the engine under test.

/** The hammock: a 30 × 30 cloth, 2.9 m square at spacing 0.1, pinned at its corners 1.5 m over the floor. */
function hammock(on = true): World {
  const world = tethers(new core.World(), on);
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  core.createCloth(world, { width: 30, height: 30, spacing: 0.1, orientation: 'horizontal', corner: [-1.45, 1.5, -1.45], pin: 'corners' });
  return world;
}

/** A 2 m rope of 20 segments hanging from a pin at 3.5 m, its end particle a 13.5 kg weight. */
function weightedRope(): World {
  const world = tethers(new core.World(), true);
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const rope = core.createRope(world, { from: [0, 3.5, 0], to: [0, 1.5, 0], segments: 20, pinStart: true });
  world.setMass(rope.first + rope.count - 1, 13.5);
  return world;
}

/** Ten 10 g links (eleven particles, the first pinned) holding a 10 kg particle: 1000:1. */
function heavyChain(): World {
  const world = tethers(new core.World(), true);
  const first = world.addParticles(Array.from({ length: 11 }, (_, k) => ({ position: [0, 3 - 0.1 * k, 0] as const, mass: k === 10 ? 10 : 0.01 })));
  world.addPin(first);
  for (let k = 0; k < 10; k++) world.addStick(first + k, first + k + 1);
  return world;
}

const loads: { name: string; make: () => World }[] = [
  { name: 'empty hammock (30 × 30 cloth, corners pinned)', make: () => hammock() },
  { name: 'empty hammock, tethers off (reference)', make: () => hammock(false) },
  {
    name: 'hammock + 32 kg box (0.4 m, dropped from 2.2 m)',
    make: () => {
      const world = hammock();
      core.createBox(world, { size: 0.4, position: [0, 2.2, 0] });
      return world;
    },
  },
  {
    name: 'hammock + default ragdoll (dropped lying)',
    make: () => {
      const world = hammock();
      core.createRagdoll(world, { feet: [0, 2.2, 0.9], rotation: [-Math.PI / 2, 0, 0] });
      return world;
    },
  },
  { name: '13.5 kg weight on a 2 m rope (20 segments)', make: weightedRope },
  { name: '10 kg on ten 10 g links (1000:1)', make: heavyChain },
];

/** Per-step times of one run: mean, worst, and the first step (which orders the sticks and measures the tethers). */
interface StepTimes {
  mean: number;
  worst: number;
  first: number;
}

/**
 * Times every step from a fresh scene's first, `p.steps` of them (5 s at the default 300: the
 * loads land within the first second), over `p.runs` scenes after one untimed run; the median
 * over the runs of each run's mean, worst and first step, in ms.
 */
function stepTimes(make: () => World, step: (world: World) => void, q: Protocol = p): StepTimes {
  const runs = { mean: [] as number[], worst: [] as number[], first: [] as number[] };
  for (let r = -1; r < q.runs; r++) {
    const world = make();
    let sum = 0;
    let worst = 0;
    let first = 0;
    for (let i = 0; i < q.steps; i++) {
      const start = performance.now();
      step(world);
      const ms = performance.now() - start;
      sum += ms;
      if (ms > worst) worst = ms;
      if (i === 0) first = ms;
    }
    if (r < 0) continue;
    runs.mean.push(sum / q.steps);
    runs.worst.push(worst);
    runs.first.push(first);
  }
  return { mean: median(runs.mean), worst: median(runs.worst), first: median(runs.first) };
}

// The tethers are measured once a scene, in its first step: every scene is built and stepped a few
// times first, so that the first steps timed run code the JIT has compiled (cold, in a fresh process,
// the hammock's first step takes 100–200 ms; an application measures its tethers a handful of times).
for (let k = 0; k < 5; k++) {
  for (const { make } of loads) {
    const world = make();
    for (let i = 0; i < 30; i++) world.step();
  }
}
const loadTimes = loads.map(({ name, make }) => ({ name, ...stepTimes(make, (world) => world.step()) }));

/**
 * The same scene with and without tethers at equal passes, timed in turns (off, on, off, …)
 * so that both see the same machine: median wall-clock and CPU ms per step over `p.runs`
 * fresh scenes each, `p.warmup` untimed steps then `p.steps` timed, as the yardstick times.
 */
function tethersCost(make: () => World, step: (world: World) => void): { off: number; on: number; offCpu: number; onCpu: number; count: number } {
  const samples = { off: [] as number[], on: [] as number[], offCpu: [] as number[], onCpu: [] as number[] };
  let count = 0;
  for (let r = 0; r < 2 * p.runs; r++) {
    const on = r % 2 === 1;
    const world = tethers(make(), on);
    for (let i = 0; i < p.warmup; i++) step(world);
    const start = performance.now();
    const used = process.cpuUsage();
    for (let i = 0; i < p.steps; i++) step(world);
    const spent = process.cpuUsage(used);
    (on ? samples.on : samples.off).push((performance.now() - start) / p.steps);
    (on ? samples.onCpu : samples.offCpu).push((spent.user + spent.system) / 1000 / p.steps);
    if (on) count = world.tethers.count;
  }
  return { off: median(samples.off), on: median(samples.on), offCpu: median(samples.offCpu), onCpu: median(samples.onCpu), count };
}

/**
 * The cloth bench's scene (cloth.c's workload: 1 substep × 10 passes) on the stick kernels the A/B
 * covers, and at sinew's default 10 substeps × 1 pass (the same 10 stick passes a step): tethers
 * project once a substep, so there they cost ten times what they cost in one substep.
 */
const clothBench: ClothSolver = { substeps: 1, iterations: 10 };
const clothCases: { n: number; kernel: StickKernel; solver: ClothSolver }[] = [
  { n: 32, kernel: 'wasm', solver: clothBench },
  { n: 64, kernel: 'wasm', solver: clothBench },
  { n: 128, kernel: 'wasm', solver: clothBench },
  { n: 64, kernel: 'js', solver: clothBench },
  { n: 64, kernel: 'wasm', solver: { substeps: 10, iterations: 1 } },
];
const clothAB = clothCases.map(({ n, kernel, solver }) => ({
  n,
  kernel,
  solver,
  ...tethersCost(
    () => clothWorkload(n, core, kernel, solver),
    (world) => world.step(),
  ),
}));
const frameAB = tethersCost(
  () => frameScene({}, core),
  (world) => void world.advance(1 / 60),
);

const fmt = (x: number, digits = 2) => x.toFixed(digits);
afterAll(() => {
  const lines = [
    `loads, tethers on, default settings, world.step() from a fresh scene: ${p.runs} runs × ${p.steps} steps after every scene ran 5 × 30 steps untimed, median over the runs of each run's figure, ms`,
    '| scene | mean per step | worst step | first step (orders the sticks, measures the tethers) |',
    '| --- | --- | --- | --- |',
    ...loadTimes.map((t) => `| ${t.name} | ${fmt(t.mean)} | ${fmt(t.worst)} | ${fmt(t.first)} |`),
    '',
    `tethers A/B at equal passes, timed in turns: ${p.runs} runs each × (${p.warmup} + ${p.steps}) steps, median ms per step (CPU in brackets); goal on / off <= 1.2`,
    '| scene | tethers | off | on | on / off | CPU on / off |',
    '| --- | --- | --- | --- | --- | --- |',
    ...clothAB.map(
      (c) =>
        `| cloth bench ${c.n}×${c.n}, ${c.solver.substeps} × ${c.solver.iterations} passes, ${c.kernel} sticks | ${c.count} | ${fmt(c.off)} (${fmt(c.offCpu)}) | ${fmt(c.on)} (${fmt(c.onCpu)}) | ${fmt(c.on / c.off)} | ${fmt(c.onCpu / c.offCpu)} |`,
    ),
    `| frame: 64×64 cloth + 4 ragdolls on stairs, advance(1/60), defaults | ${frameAB.count} | ${fmt(frameAB.off)} (${fmt(frameAB.offCpu)}) | ${fmt(frameAB.on)} (${fmt(frameAB.onCpu)}) | ${fmt(frameAB.on / frameAB.off)} | ${fmt(frameAB.onCpu / frameAB.offCpu)} |`,
  ];
  console.log(lines.join('\n'));
});

// vitest's own statistics for a settled load (only indicative: the tables above are the figures).
describe('loads', () => {
  const world = loads.find((l) => l.name.startsWith('hammock + 32 kg'))!.make();
  for (let i = 0; i < 120; i++) world.step();
  bench('hammock + 32 kg box, step', () => world.step(), { time: 500 });
});
