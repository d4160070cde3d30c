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
// Measured (24 throws × both kernels): with the cloth's triangles, no crossing
// more than the box's size (0.3 m) inside the cloth's edge; with its particles
// alone (`surfaceContacts: false`), every throw went through. Nearer the edge the
// check cannot judge: in 3 throws (2 m/s at 29° and 63°, 8 m/s at 63°) the box,
// thrown back up by the springy hammock (issue 25, item 1) or sliding along it,
// leaves over the edge, which it drags under itself and curls over; the edge
// springs back past a corner, and seen once a step that looks like a crossing
// 0.16–0.22 m inside the edge (one such point each, 4 in all per kernel).

describe('a cloth is a surface to a box', () => {
  it('a 0.3 m box thrown at a default cloth at 0–8 m/s, 0–63° off vertical, turned and tipped, never passes through it away from its edge; both kernels agree bit for bit', () => {
    const report = throwMatrix('box', 0.3);
    expect(report.crossed).toEqual([]);
    expect(report.crossings).toBe(0);
    expect(report.nearEdge).toBeLessThanOrEqual(8);
    expect(report.sameBits).toBe(true);
  }, 300_000);

  it('with its particles alone (surfaceContacts: false) the same box goes through between them', () => {
    let crossed = 0;
    for (const speed of [0, 4]) crossed += runThrow({ thrown: 'box', speed, angle: 0, seed: 1, surfaceContacts: false }).check.crossings > 0 ? 1 : 0;
    expect(crossed).toBe(2);
  });
});
