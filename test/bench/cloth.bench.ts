import { afterAll, bench, describe } from 'vitest';
import { clothWorkload, type ClothSolver } from './clothWorkload.js';
import { builtEngine } from './engine.js';
import { msPerStep, protocol } from './protocol.js';
import { meanStickStretch } from './stretch.js';
import { runYardstick } from './yardstick.js';

// The yardstick workload (../shared/bench/README.md) through sinew's public API
// (the built library), timed with the yardstick's protocol, with each stick kernel
// (the WebAssembly one and the TypeScript one), next to the C builds measured in
// the same run.
const sizes = [32, 64, 128];
const kernels = ['wasm', 'js'] as const;
const p = protocol();
const core = await builtEngine();
const sinew = new Map(
  kernels.map((kernel) => [
    kernel,
    new Map(
      sizes.map((n) => [
        n,
        msPerStep(
          () => clothWorkload(n, core, kernel),
          (world) => world.step(),
          p,
        ),
      ]),
    ),
  ]),
);
// The same cloth with every stick an XPBD spring: what compliance costs. 1e-6 m/N on 1 kg particles
// hangs within 1% of the rigid cloth's shape, so the two runs do the same collision work.
const compliance = 1e-6;
const compliant = new Map(
  kernels.map((kernel) => [
    kernel,
    new Map(
      sizes.map((n) => [
        n,
        msPerStep(
          () => clothWorkload(n, core, kernel, undefined, compliance),
          (world) => world.step(),
          p,
        ),
      ]),
    ),
  ]),
);
const c = runYardstick(sizes, p);

// What the time buys: the mean stick stretch of the same cloth under the bench's
// solver (cloth.c's 1 substep × 10 passes) and sinew's default (10 substeps × 1
// pass, the same 10 stick passes per step), after a fixed 10 s from a fresh cloth,
// whatever BENCH_STEPS says. The world's default kernel: both give the same bits.
const stretchSteps = 600;
const solvers: ClothSolver[] = [
  { substeps: 1, iterations: 10 },
  { substeps: 10, iterations: 1 },
];
const stretch = new Map(
  sizes.map((n) => [
    n,
    solvers.map((solver) => {
      const world = clothWorkload(n, core, undefined, solver);
      for (let i = 0; i < stretchSteps; i++) world.step();
      return meanStickStretch(world);
    }),
  ]),
);

const fmt = (x: number | undefined, digits = 2) => (x === undefined ? '–' : x.toFixed(digits));
const ratio = (x: number, y: number | undefined) => (y ? fmt(x / y) : '–');
afterAll(() => {
  const wasm = sinew.get('wasm')!;
  const js = sinew.get('js')!;
  const lines = [
    `cloth-N, ${p.runs} runs × (${p.warmup} + ${p.steps}) steps, median ms per step` + (c.missing ? ` (C yardstick skipped: ${c.missing})` : ''),
    `stick kernel 'wasm' (the default where WebAssembly SIMD runs${core.wasmKernelAvailable() ? '' : '; unavailable here, so it ran the TypeScript loops'}) and 'js'`,
    '| N | sinew wasm | sinew js | scalar C | coloured, vectorised C | wasm / scalar C | js / scalar C | wasm / coloured C | js / coloured C | js / wasm |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...sizes.map((n) => {
      const w = wasm.get(n)!;
      const j = js.get(n)!;
      const scalar = c.scalar.get(n);
      const colored = c.colored.get(n);
      return `| ${n} | ${fmt(w)} | ${fmt(j)} | ${fmt(scalar)} | ${fmt(colored)} | ${ratio(w, scalar)} | ${ratio(j, scalar)} | ${ratio(w, colored)} | ${ratio(j, colored)} | ${fmt(j / w)} |`;
    }),
    `goal: sinew / coloured C <= 1.5 at N = 64 and 128`,
    `linear cost: N=128 / N=64 = ${fmt(wasm.get(128)! / wasm.get(64)!)} (wasm), ${fmt(js.get(128)! / js.get(64)!)} (js) (goal <= 4.5)`,
    '',
    `cost of compliance: the same cloth with every stick of compliance ${compliance} m/N (XPBD), median ms per step`,
    '| N | wasm rigid | wasm compliant | wasm compliant / rigid | js rigid | js compliant | js compliant / rigid |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...sizes.map((n) => {
      const [wr, wc, jr, jc] = [wasm.get(n)!, compliant.get('wasm')!.get(n)!, js.get(n)!, compliant.get('js')!.get(n)!];
      return `| ${n} | ${fmt(wr)} | ${fmt(wc)} | ${fmt(wc / wr)} | ${fmt(jr)} | ${fmt(jc)} | ${fmt(jc / jr)} |`;
    }),
    '',
    `mean stick stretch |length / rest - 1| after a fixed ${fmt(stretchSteps / 60, 0)} s (${stretchSteps} steps of 1/60 s) from a fresh cloth, not after the timed steps`,
    '| N | 1 substep × 10 passes (this bench, cloth.c) | 10 substeps × 1 pass (sinew default) | 1 × 10 / 10 × 1 |',
    '| --- | --- | --- | --- |',
    ...sizes.map((n) => {
      const [bench, standard] = stretch.get(n)!;
      return `| ${n} | ${fmt(bench! * 100, 3)}% | ${fmt(standard! * 100, 3)}% | ${fmt(bench! / standard!, 1)} |`;
    }),
  ];
  console.log(lines.join('\n'));
});

// vitest's own statistics for the same steps (a cloth that keeps falling, so only indicative).
for (const n of sizes) {
  describe(`cloth ${n}×${n}, 10 passes`, () => {
    for (const kernel of kernels) {
      const world = clothWorkload(n, core, kernel);
      for (let i = 0; i < 30; i++) world.step();
      bench(`step N=${n}, ${kernel}`, () => world.step(), { time: 500, warmupIterations: 30 });
    }
  });
}
