import { describe, expect, it } from 'vitest';
import { runThrow, throwMatrix } from './clothSurfaceScenes.js';

// Issue 25, item 2: a box's edges and corners cannot pass between a cloth's
// particles. A rigid box collides as its hull: the cloth's particles are kept out
// of it (point against hull), and, with the cloth a surface by default, its
// corners against the cloth's triangles (point against triangle) and its edges
// against them too (segment against triangle), so that neither a corner nor an
// edge slices between the particles. Thrown at the default cloth at the default
// spacing (clothSurfaceScenes.ts), checked by clothCrossing.ts.
//
// Measured (24 throws × both kernels): with the cloth's triangles, no crossing,
// none even near the edge; with its particles alone (`surfaceContacts: false`),
// every throw went through (5,238 probe crossings). The test runs the first seed's
// 12 throws (CI time); the second seed's 12 also give 0.

describe('a cloth is a surface to a box', () => {
  it('a 0.3 m box thrown at a default cloth at 0–8 m/s, 0–63° off vertical, turned and tipped, never passes through it; both kernels agree bit for bit', () => {
    const report = throwMatrix('box', 0.3, {}, [1]);
    expect(report.crossed).toEqual([]);
    expect(report.crossings).toBe(0);
    // Near the edge the check cannot tell going round from going through (clothCrossing.ts); measured: none there either.
    expect(report.nearEdge).toBe(0);
    expect(report.sameBits).toBe(true);
  }, 120_000);

  it('with its particles alone (surfaceContacts: false) the same box goes through between them', () => {
    let crossed = 0;
    for (const speed of [0, 4]) crossed += runThrow({ thrown: 'box', speed, angle: 0, seed: 1, surfaceContacts: false }).check.crossings > 0 ? 1 : 0;
    expect(crossed).toBe(2);
  });
});
