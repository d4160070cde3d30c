import { afterAll, bench, describe } from 'vitest';
import { builtEngine } from './engine.js';
import { median, protocol } from './protocol.js';
import { selfCollisionScenes, type SelfCollisionScene } from './selfCollisionScenes.js';

// What cloth self-collision costs (issues 10 and 28): every scene of
// ./selfCollisionScenes.ts with and without `enableSelfCollision`, in the same run,
// each step timed on its own: the mean and the worst step, medians over the
// protocol's runs. The goals are issue 28's: the Ten Minute Physics scene at most 4×
// the cloth without per frame; the 64² drop onto a ball with no step over 33 ms and
// its first 90 steps at most 3×; hanging and draped at most 2×.
//
// Only some scenes, fewer runs (a quick look while working on self-collision):
//   BENCH_SELF=episode15,drop BENCH_RUNS=1 npx vitest bench --run --project core test/bench/selfCollision.bench.ts
// (BENCH_SELF takes scene names: hanging, draped, drop, drag, episode15.)
const p = protocol();
const core = await builtEngine();
const only = process.env.BENCH_SELF?.split(',').map((name) => name.trim());
const scenes = selfCollisionScenes(p.warmup, p.steps).filter((scene) => !only || only.includes(scene.name));
if (only && scenes.length !== only.length)
  throw new RangeError(
    `BENCH_SELF: scene names are ${selfCollisionScenes(0, 0)
      .map((s) => s.name)
      .join(', ')}; got ${only.join(', ')}`,
  );

/** A step's time: the wall clock, and the CPU time of this process (all threads), which a busy machine's other jobs do not add to (ms). */
type Times = { wall: number; cpu: number };

/** One run of `scene`: the mean and the worst of its timed steps, by the wall clock and in CPU time. */
function run(scene: SelfCollisionScene, selfCollide: boolean): { mean: Times; worst: Times } {
  const { world, before } = scene.make(core, selfCollide);
  for (let s = 0; s < scene.skip; s++) world.step();
  const total = { wall: 0, cpu: 0 };
  const worst = { wall: 0, cpu: 0 };
  for (let k = 0; k < scene.steps; k++) {
    const start = performance.now();
    const used = process.cpuUsage();
    before?.(k);
    world.step();
    const spent = process.cpuUsage(used);
    const wall = performance.now() - start;
    const cpu = (spent.user + spent.system) / 1000;
    total.wall += wall;
    total.cpu += cpu;
    worst.wall = Math.max(worst.wall, wall);
    worst.cpu = Math.max(worst.cpu, cpu);
  }
  return { mean: { wall: total.wall / scene.steps, cpu: total.cpu / scene.steps }, worst };
}

// The runs alternate without / with, scene by scene, so that a change in the
// machine's load falls on both: timed one after the other, a busy moment during
// the runs without once showed the draped ratio as 1.92× instead of 3.7×.
type Samples = Record<'mean' | 'worst', Record<keyof Times, number[]>>;
const samples: Samples[][] = scenes.map(() => [false, true].map(() => ({ mean: { wall: [], cpu: [] }, worst: { wall: [], cpu: [] } })));
for (let r = 0; r < p.runs; r++) {
  scenes.forEach((scene, s) => {
    [false, true].forEach((on, k) => {
      const t = run(scene, on);
      const into = samples[s]![k]!;
      for (const stat of ['mean', 'worst'] as const) for (const clock of ['wall', 'cpu'] as const) into[stat][clock].push(t[stat][clock]);
    });
  });
}

/** Prints the tables (Markdown): by the wall clock, the yardstick's, and in CPU time, the steadier on a busy machine. */
function report(): void {
  const fmt = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
  const table = (clock: keyof Times) => [
    '| scene | timed | without: mean | worst | with: mean | worst | with / without: mean | worst |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...scenes.map((scene, s) => {
      const [off, on] = samples[s]!.map((x) => ({ mean: median(x.mean[clock]), worst: median(x.worst[clock]) }));
      return `| ${scene.name} | ${scene.what} | ${fmt(off!.mean)} | ${fmt(off!.worst)} | ${fmt(on!.mean)} | ${fmt(on!.worst)} | ${fmt(on!.mean / off!.mean)} | ${fmt(on!.worst / off!.worst)} |`;
    }),
  ];
  console.log(
    [
      `cloth self-collision, ms per step (1/60 s), without and with in turns, medians of ${p.runs} runs; wall clock:`,
      ...table('wall'),
      'CPU time (this process):',
      ...table('cpu'),
      'goals (issue 28): episode15 mean with / without <= 4; drop worst <= 33 ms and mean with / without <= 3; hanging and draped with / without <= 2',
    ].join('\n'),
  );
}
afterAll(report);

// One step of a scene already going, timed by vitest's bench: the draped cloth, or the first
// scene BENCH_SELF picks. (Settling it first takes seconds.)
const timedAlone = scenes.find((scene) => scene.name === 'draped') ?? scenes[0]!;
describe(`cloth self-collision, one step of ${timedAlone.name}`, () => {
  const { world } = timedAlone.make(core, true);
  for (let s = 0; s < 60; s++) world.step();
  bench(`step, ${timedAlone.name}, self-collision on`, () => world.step(), { time: 500, warmupIterations: 10 });
});
