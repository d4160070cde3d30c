import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CapedBox } from './readme/CapedBox.js';
import { mountWorld } from './helpers.js';
import { readme } from '../support/readme.js';

// The README's "Attaching to moving objects" example is ./readme/CapedBox.tsx, verbatim; here it runs.
const source = readFileSync(new URL('./readme/CapedBox.tsx', import.meta.url), 'utf8');

describe('the README attachment example', () => {
  it('is printed in the README exactly as it is tested', () => {
    expect(readme).toContain(source.trim());
  });

  it('runs: the cape keeps up with the box at 3 m/s, the rope holds the light crate down, nothing is left after unmounting', async () => {
    const scene = await mountWorld(<CapedBox />, { sleep: false });
    const x0 = scene.position('cape.0')[0];
    const crate0 = scene.position('crate.0')[1];
    await scene.frames(60);
    // One second at 3 m/s: the top row moved 3 m with the box (rigid holds, under the 20 N break force).
    expect(scene.position('cape.0')[0] - x0).toBeCloseTo(3, 6);
    expect(scene.world.pins.count).toBe(10);
    // Free fall together: after 1 s the crate fell g/2 = 4.9 m with its rope (no ground here), tied 15 cm above the rope's top.
    expect(crate0 - scene.position('crate.0')[1]).toBeGreaterThan(4.5);
    expect(Math.abs(scene.position('crate.0')[1] - 0.15 - scene.position('line.start')[1])).toBeLessThan(0.2);
    expect(await scene.unmount()).toEqual([]);
  });
});
