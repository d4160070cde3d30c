/**
 * The yardstick's timing protocol (../shared/bench/README.md): a fresh scene per
 * run, `warmup` untimed steps, then `steps` timed ones; the median over `runs`.
 * `BENCH_RUNS`, `BENCH_WARMUP` and `BENCH_STEPS` shorten a run.
 */
export interface Protocol {
  runs: number;
  warmup: number;
  steps: number;
}

/** The protocol from the environment, defaulting to the yardstick's 5 × (30 + 300). */
export function protocol(): Protocol {
  const env = (name: string, fallback: number) => {
    const value = Number(process.env[name]);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return { runs: env('BENCH_RUNS', 5), warmup: env('BENCH_WARMUP', 30), steps: env('BENCH_STEPS', 300) };
}

/** Median wall-clock milliseconds per call of `step` over fresh scenes from `make`. */
export function msPerStep<T>(make: () => T, step: (scene: T) => void, p: Protocol = protocol()): number {
  return timed(make, step, p).wall;
}

/**
 * Median wall-clock and CPU milliseconds per call of `step` over fresh scenes.
 * CPU time (this process, all threads) is what a busy machine's other jobs do
 * not add to; the wall clock is what the yardstick reports.
 */
export function timed<T>(make: () => T, step: (scene: T) => void, p: Protocol = protocol()): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < p.runs; r++) {
    const scene = make();
    for (let i = 0; i < p.warmup; i++) step(scene);
    const start = performance.now();
    const used = process.cpuUsage();
    for (let i = 0; i < p.steps; i++) step(scene);
    const spent = process.cpuUsage(used);
    wall.push((performance.now() - start) / p.steps);
    cpu.push((spent.user + spent.system) / 1000 / p.steps);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
