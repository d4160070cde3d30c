import { expect, it } from 'vitest';
import * as core from '../../src/core/index.js';
import { docBlock, runReadmeBlock } from '../support/readme.js';

// The engine's first example (docs/engine.md, "A first example") must run as printed.
it('the first example of docs/engine.md runs', () => {
  const { logged } = runReadmeBlock(docBlock('engine.md', '## A first example', 'ts'), { World: core.World });
  expect(logged).toHaveLength(1);
  const [, x, y] = /\((-?[\d.]+), (-?[\d.]+)\)/.exec(logged[0]!)!.map(Number);
  // The bob swings on a 1 m stick around (0, 2, 0) and stays above the floor.
  expect(Math.hypot(x!, y! - 2)).toBeCloseTo(1, 1);
  // Released level, a 1 m pendulum reaches the bottom after a quarter period of about
  // 0.59 s: after 0.5 s it has swung most of the way down (after 5 steps it would not have).
  expect(y).toBeLessThan(1.3);
});
