import { afterAll, bench, describe } from 'vitest';
import { clothWorkload } from './clothWorkload.js';
import { builtEngine } from './engine.js';
import { msPerStep, protocol } from './protocol.js';
import { runYardstick } from './yardstick.js';

// The yardstick workload (../shared/bench/README.md) through sinew's public API
// (the built library), timed with the yardstick's protocol, with each stick kernel
// (the WebAssembly one and the TypeScript one), next to the C builds measured in
// the same run.
const sizes = [32, 64, 128];
const kernels = ['wasm', 'js'] as const;
const p = protocol();
const core = await builtEngine();
const sinew = new Map(kernels.map((kernel) => [kernel, new Map(sizes.map((n) => [n, msPerStep(() => clothWorkload(n, core, kernel), (world) => world.step(), p)]))]));
const c = runYardstick(sizes, p);

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
