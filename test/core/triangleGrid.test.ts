import { describe, expect, it } from 'vitest';
import { TriangleGrid } from '../../src/core/collision/triangleGrid.js';

describe('TriangleGrid', () => {
  it('a query returns every box in the cells it reads, once each, however many (a dense crumple searched with wide cells)', () => {
    // 6,000 small boxes in one cell and 100 far away. A fixed buffer of 4,096 silently
    // dropped the rest, and with it the pairs they would have made.
    const count = 6100;
    const boxes = new Float64Array(count * 6);
    for (let t = 0; t < count; t++) {
      const far = t >= 6000 ? 10 : 0;
      const x = far + (t % 50) * 0.001;
      boxes.set([x, 0, 0, x + 0.0005, 0.0005, 0.0005], t * 6);
    }
    const grid = new TriangleGrid();
    grid.cellSize = 1;
    grid.build(boxes, count);
    const probe = Float64Array.from([0.5, 0.5, 0.5, 0.4]);
    const n = grid.gather(probe);
    expect(n).toBe(6000);
    const seen = new Set(Array.from(grid.found.subarray(0, n)));
    expect(seen.size).toBe(6000);
    expect(Math.max(...seen)).toBe(5999);
    // The same through a box query, and again: the buffer is reused.
    boxes.set([0.1, 0.1, 0.1, 0.2, 0.2, 0.2], 0);
    expect(grid.gatherBox(boxes, 0)).toBe(6000);
    expect(grid.gatherBox(boxes, 6050)).toBe(100);
  });
});
