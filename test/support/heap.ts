import { GCProfiler, getHeapSpaceStatistics } from 'node:v8';

/**
 * Allocation probes for the "the step loop allocates nothing" tests.
 *
 * Why not `process.memoryUsage().heapUsed`: V8 keeps tiering the step up and down long
 * after a warm-up (feedback, deoptimisation data, new code), and on a loaded machine that
 * adds 90–220 kB of old-space and code-space objects to a 10,000-step run, now and then,
 * in any run — the same size as the allocation the tests look for. What a hot loop
 * allocates by mistake (a tuple, a closure, a boxed double) is short-lived and lands in
 * the young generation, which the compiler's bookkeeping does not touch. So the probes
 * measure the young generation only.
 *
 * The vitest projects run node with `--expose-gc` and `--min-semi-space-size=16`: a
 * collection empties the young generation and it holds 16 MB before the next scavenge,
 * so up to 16 MB allocated in a run stays visible (1.6 kB per step over 10,000 steps);
 * a run that allocates more sets off a collection, which the probe notices and reports.
 */

const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);
const MIN_YOUNG_CAPACITY = 16 * 1024 * 1024;

function collect(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') throw new Error('heap probe: run node with --expose-gc (vite.config.ts sets it for the core and react projects)');
  return gc;
}

/** Bytes in use in V8's young generation. */
function youngBytes(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) if (YOUNG_SPACES.has(space.space_name)) used += space.space_used_size;
  return used;
}

function youngCapacity(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * The least number of bytes `run()` left in the young generation over `runs` runs, each
 * started right after a full collection. A real per-call allocation shows in every run.
 */
export function leastAllocation(run: () => void, runs = 3): number {
  const gc = collect();
  let least = Infinity;
  for (let r = 0; r < runs; r++) {
    gc();
    gc();
    if (youngCapacity() < MIN_YOUNG_CAPACITY) throw new Error(`heap probe: the young generation holds ${youngCapacity()} bytes; run node with --min-semi-space-size=16`);
    const collections = new GCProfiler();
    collections.start();
    const start = youngBytes();
    run();
    const end = youngBytes();
    // A collection mid-run would hide what came before it.
    const during = collections.stop().statistics.length;
    if (during > 0) throw new Error(`heap probe: ${during} collection(s) ran during the measured run: it allocated more than the ${youngCapacity()}-byte young generation holds`);
    least = Math.min(least, end - start);
  }
  return least;
}

/**
 * The least growth of the whole heap that survives a full collection over `runs` runs of
 * `run()`: a leak (something kept per call) shows in every run, a late compilation in one.
 */
export async function leastRetained(run: () => void | Promise<void>, runs = 3): Promise<number> {
  const gc = collect();
  const heapAfterCollection = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  let least = Infinity;
  for (let r = 0; r < runs; r++) {
    const start = heapAfterCollection();
    await run();
    least = Math.min(least, heapAfterCollection() - start);
  }
  return least;
}
