import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median, type Protocol } from './protocol.js';

/** ms per step of the C yardstick by N, for the scalar build and the coloured, vectorised one. */
export interface Yardstick {
  scalar: Map<number, number>;
  colored: Map<number, number>;
  /** Why there are no numbers, when there are none. */
  missing?: string;
}

/** Where the yardstick's source lives: `SINEW_YARDSTICK`, else `../shared/bench/cloth.c` beside the checkout. */
export function yardstickSource(): string {
  return process.env.SINEW_YARDSTICK ?? resolve(import.meta.dirname, '../../../shared/bench/cloth.c');
}

/**
 * Builds ../shared/bench/cloth.c twice in a temporary directory outside the repo
 * (`gcc -O3`, and with the README's vectorising flags), runs both on `sizes` with
 * the same protocol as sinew's side, and returns the median ms per step. Without
 * gcc or the source it returns empty maps and says why: the bench runs without it.
 */
export function runYardstick(sizes: readonly number[], p: Protocol): Yardstick {
  const source = yardstickSource();
  const none = (missing: string): Yardstick => ({ scalar: new Map(), colored: new Map(), missing });
  if (!existsSync(source)) return none(`no yardstick at ${source}`);
  const dir = mkdtempSync(join(tmpdir(), 'sinew-yardstick-'));
  try {
    const scalarExe = join(dir, 'cloth');
    const simdExe = join(dir, 'cloth-simd');
    try {
      execFileSync('gcc', ['-O3', '-o', scalarExe, source, '-lm'], { stdio: 'pipe' });
      execFileSync('gcc', ['-O3', '-march=native', '-fno-trapping-math', '-fno-math-errno', '-o', simdExe, source, '-lm'], { stdio: 'pipe' });
    } catch (error) {
      return none(`gcc failed or is missing: ${(error as Error).message.split('\n')[0]}`);
    }
    const env = { ...process.env, CLOTH_RUNS: String(p.runs), CLOTH_WARMUP: String(p.warmup), CLOTH_STEPS: String(p.steps) };
    const run = (exe: string, args: string[]) => {
      const out = execFileSync(exe, [...args, ...sizes.map(String)], { env, encoding: 'utf8' });
      const result = new Map<number, number>();
      for (const line of out.split('\n')) {
        if (!line.trim()) continue;
        const row = JSON.parse(line) as { N: number; msPerStep: number[] };
        result.set(row.N, median(row.msPerStep));
      }
      return result;
    };
    return { scalar: run(scalarExe, []), colored: run(simdExe, ['--order', 'colored']) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
