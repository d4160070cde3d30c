// Summaries and Markdown for the browser benchmark's printout.

/** Mean, median and worst of a sample. */
export interface Summary {
  mean: number;
  median: number;
  worst: number;
  count: number;
}

/** Summarises `values` (NaNs when empty). */
export function summarise(values: ArrayLike<number>): Summary {
  const sorted = Array.from(values).sort((a, b) => a - b);
  const count = sorted.length;
  if (count === 0) return { mean: Number.NaN, median: Number.NaN, worst: Number.NaN, count };
  const mean = sorted.reduce((s, v) => s + v, 0) / count;
  const mid = count >> 1;
  const median = count % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { mean, median, worst: sorted[count - 1]!, count };
}

/** The median of `values`. */
export function median(values: ArrayLike<number>): number {
  return summarise(values).median;
}

/** Frames per second over the timestamps `at` (ms) of consecutive frames. */
export function fps(at: ArrayLike<number>, count = at.length): number {
  return count < 2 ? Number.NaN : ((count - 1) * 1000) / (at[count - 1]! - at[0]!);
}

/** `value` with `digits` decimals (— for NaN). */
export function fixed(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

/** A Markdown table of `rows` under `header`. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A verdict line: ✅ or ❌, the goal, and what was measured. */
export function verdict(met: boolean, goal: string, measured: string): string {
  return `${met ? '✅' : '❌'} ${goal}: ${measured}`;
}
