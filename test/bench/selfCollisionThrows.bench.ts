import { afterAll, bench, describe } from 'vitest';
import { crossings, randomThrows } from '../core/layerThrows.js';

// How often a layer of cloth thrown onto another passes through it (issue 28, item 2): the
// throws of test/core/selfCollisionLayers.test.ts, a hundred from each seed, at several
// thicknesses, with and without edge–edge contact. A throw counts once the independent
// detector sees any crossing. Not a timing: it prints a table. By default one seed and three
// thicknesses (about half a minute); the table of docs/self-collision.md ("What is tested",
// about three minutes) is
//   BENCH_THROWS_SEEDS=99,5,77,1234 BENCH_THROWS_MM=1,2,3,4,5,6,8,10,12.5,25 npx vitest bench --run --project core test/bench/selfCollisionThrows.bench.ts

const seeds = (process.env.BENCH_THROWS_SEEDS ?? '99').split(',').map(Number);
const thicknesses = (process.env.BENCH_THROWS_MM ?? '1,5,10')
  .split(',')
  .map((mm) => Number(mm) / 1000)
  .sort((a, b) => a - b);
/** With edge–edge contact, the thin end only, the first two seeds (edges cost three times as much). */
const edgeThicknesses = thicknesses.filter((t) => t <= 0.005);
for (const value of [...seeds, ...thicknesses]) if (!Number.isFinite(value) || value < 0) throw new RangeError(`BENCH_THROWS_SEEDS and BENCH_THROWS_MM take non-negative numbers, got ${value}`);

/** Per thickness, throws that passed through and throws made, onto the ground and onto the hanging layer. */
function tally(thickness: number, edges: boolean, from: number[]): string[] {
  const counts = { ground: [0, 0], hanging: [0, 0] };
  for (const seed of from)
    for (const t of randomThrows(seed, 100)) {
      const n = crossings(t, thickness, 'js', edges);
      counts[t.below][1]!++;
      if (n > 0) counts[t.below][0]!++;
    }
  return [`${counts.ground[0]} of ${counts.ground[1]}`, `${counts.hanging[0]} of ${counts.hanging[1]}`];
}

const plain = thicknesses.map((t) => tally(t, false, seeds));
const edged = edgeThicknesses.map((t) => tally(t, true, seeds.slice(0, 2)));
const blank = thicknesses.slice(edged.length).map(() => '');
const rows = [
  ['onto the ground', ...plain.map((c) => c[0]!)],
  ['onto the hanging layer', ...plain.map((c) => c[1]!)],
  ['`edges: true`, ground', ...edged.map((c) => c[0]!), ...blank],
  ['`edges: true`, hanging', ...edged.map((c) => c[1]!), ...blank],
];

afterAll(() => {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    [
      `layers thrown onto each other (seeds ${seeds.join(', ')}; a throw counts once it has a crossing):`,
      line(['thickness (mm)', ...thicknesses.map((t) => String(t * 1000))]),
      line(['---', ...thicknesses.map(() => '---')]),
      ...rows.map(line),
    ].join('\n'),
  );
});

// What one throw costs (45 steps of two 8 × 8 layers), so that the run above can be foreseen.
describe('self-collision: a layer thrown onto another', () => {
  const [first] = randomThrows(seeds[0]!, 1);
  bench('one throw at 1 mm, without edge contact', () => void crossings(first!, 0.001, 'js', false), { time: 300 });
});
