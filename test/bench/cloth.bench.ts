import { afterAll, bench, describe } from 'vitest';
import { clothWorkload } from './clothWorkload.js';
import { builtEngine } from './engine.js';
import { msPerStep, protocol } from './protocol.js';
import { runYardstick } from './yardstick.js';

// The yardstick workload (../shared/bench/README.md) through sinew's public API
// (the built library), timed with the yardstick's protocol, next to the C builds
// measured in the same run.
const sizes = [32, 64, 128];
const p = protocol();
const core = await builtEngine();
const sinew = new Map(sizes.map((n) => [n, msPerStep(() => clothWorkload(n, core), (world) => world.step(), p)]));
const c = runYardstick(sizes, p);

const fmt = (x: number | undefined, digits = 2) => (x === undefined ? '–' : x.toFixed(digits));
afterAll(() => {
  const lines = [
    `cloth-N, ${p.runs} runs × (${p.warmup} + ${p.steps}) steps, median ms per step` + (c.missing ? ` (C yardstick skipped: ${c.missing})` : ''),
    '| N | sinew | scalar C | coloured, vectorised C | sinew / scalar C | sinew / coloured C |',
    '| --- | --- | --- | --- | --- | --- |',
    ...sizes.map((n) => {
      const s = sinew.get(n)!;
      const scalar = c.scalar.get(n);
      const colored = c.colored.get(n);
      return `| ${n} | ${fmt(s)} | ${fmt(scalar)} | ${fmt(colored)} | ${scalar ? fmt(s / scalar) : '–'} | ${colored ? fmt(s / colored) : '–'} |`;
    }),
    `linear cost: N=128 / N=64 = ${fmt(sinew.get(128)! / sinew.get(64)!)} (goal <= 4.5)`,
  ];
  console.log(lines.join('\n'));
});

// vitest's own statistics for the same steps (a cloth that keeps falling, so only indicative).
for (const n of sizes) {
  describe(`cloth ${n}×${n}, 10 passes`, () => {
    const world = clothWorkload(n, core);
    for (let i = 0; i < 30; i++) world.step();
    bench(`step N=${n}`, () => world.step(), { time: 500, warmupIterations: 30 });
  });
}
