import { afterAll, bench, describe } from 'vitest';
import { builtEngine } from './engine.js';
import { median, protocol } from './protocol.js';

// Issue 27: what checking a particle id at the API boundary costs. 10^6
// getPosition calls (into one out array) over 1,000 particles, in nanoseconds
// per call; the ids of the second world went through a removal and re-add, so
// they carry a generation.
const p = protocol();
const core = await builtEngine();
type World = InstanceType<typeof core.World>;

function scene(reused: boolean): { world: World; ids: number[] } {
  const world = new core.World();
  const list = Array.from({ length: 1000 }, (_, i) => ({ position: [i, 0, 0] as [number, number, number] }));
  let first = world.addParticles(list);
  if (reused) {
    for (let i = 0; i < 1000; i++) world.removeParticle(first + i);
    first = world.addParticles(list);
  }
  return { world, ids: Array.from({ length: 1000 }, (_, i) => first + i) };
}

const out: [number, number, number] = [0, 0, 0];
function calls({ world, ids }: { world: World; ids: number[] }): number {
  let sum = 0;
  for (let r = 0; r < 1000; r++) for (let i = 0; i < 1000; i++) sum += world.getPosition(ids[i]!, out)[0];
  return sum;
}

function nsPerCall(reused: boolean): number {
  const s = scene(reused);
  calls(s);
  const samples: number[] = [];
  for (let r = 0; r < p.runs; r++) {
    const start = performance.now();
    calls(s);
    // Milliseconds for 10^6 calls are nanoseconds per call.
    samples.push(performance.now() - start);
  }
  return median(samples);
}
const fresh = nsPerCall(false);
const reused = nsPerCall(true);

afterAll(() => {
  console.log(`accessors: getPosition ${fresh.toFixed(2)} ns per call on fresh ids, ${reused.toFixed(2)} ns on ids of reused slots (10^6 calls, median of ${p.runs})`);
});

describe('particle accessors', () => {
  const s = scene(true);
  bench('10^6 getPosition', () => void calls(s), { time: 300 });
});
