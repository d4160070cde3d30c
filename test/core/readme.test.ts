import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import * as core from '../../src/core/index.js';

// The README's first TypeScript example must run as printed.
it('the README example runs', async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const body = block!.replace(/^import .* from 'sinew\/core';$/m, '');
  const logged: string[] = [];
  const run = new Function('World', 'console', body) as (w: typeof core.World, c: Pick<Console, 'log'>) => void;
  run(core.World, { log: (line: string) => logged.push(line) });
  expect(logged).toHaveLength(1);
  const [, x, y] = /\((-?[\d.]+), (-?[\d.]+)\)/.exec(logged[0]!)!.map(Number);
  // The bob swings on a 1 m stick around (0, 2, 0) and stays above the floor.
  expect(Math.hypot(x!, y! - 2)).toBeCloseTo(1, 1);
  // Released level, a 1 m pendulum reaches the bottom after a quarter period of about
  // 0.59 s: after 0.5 s it has swung most of the way down (after 5 steps it would not have).
  expect(y).toBeLessThan(1.3);
});
