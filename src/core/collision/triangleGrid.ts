/** Per-axis multipliers of the cell hash (as in `SpatialHash`). */
const PX = 73856093;
const PY = 19349663;
const PZ = 83492791;

/**
 * A uniform grid of boxes (a surface's triangles, grown by how near counts),
 * hashed into a table of buckets and rebuilt from scratch each time (a counting
 * sort, like `SpatialHash`, but each box is listed in every cell it overlaps).
 * A point query then reads one or a few cells instead of the 27 around a point
 * that a grid sized for the largest box would need. Arrays grow only when more
 * box–cell entries are listed than ever before.
 */
export class TriangleGrid {
  /** Edge of a cell; set it before {@link TriangleGrid.build} (about a triangle's size). */
  cellSize = 1;
  /** Bucket b holds entries[cellStart[b] .. cellStart[b + 1]). */
  cellStart = new Int32Array(17);
  /** Box indices sorted by bucket. */
  entries = new Int32Array(16);

  private mask = 15;
  private inverse = 1;
  private cursor = new Int32Array(16);
  /** Per box, the number of the query that last returned it (dedupes in O(1)). */
  private stamp = new Int32Array(16);
  private query = 0;

  /** Lists boxes `[0, count)` of `boxes` (min xyz, max xyz per box) in the cells they overlap. */
  build(boxes: Float64Array, count: number): void {
    const inv = 1 / this.cellSize;
    this.inverse = inv;
    let total = 0;
    for (let t = 0; t < count; t++) total += this.cellsOf(boxes, t, inv);
    this.reserve(total, count);
    const start = this.cellStart;
    const size = this.mask + 1;
    for (let b = 0; b <= size; b++) start[b] = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (let t = 0; t < count; t++) {
        const o = t * 6;
        const x0 = Math.floor(boxes[o]! * inv) | 0;
        const y0 = Math.floor(boxes[o + 1]! * inv) | 0;
        const z0 = Math.floor(boxes[o + 2]! * inv) | 0;
        const x1 = Math.floor(boxes[o + 3]! * inv) | 0;
        const y1 = Math.floor(boxes[o + 4]! * inv) | 0;
        const z1 = Math.floor(boxes[o + 5]! * inv) | 0;
        for (let x = x0; x <= x1; x++)
          for (let y = y0; y <= y1; y++)
            for (let z = z0; z <= z1; z++) {
              const b = (Math.imul(x, PX) ^ Math.imul(y, PY) ^ Math.imul(z, PZ)) & this.mask;
              if (pass === 0) start[b + 1]!++;
              else this.entries[this.cursor[b]!++] = t;
            }
      }
      if (pass === 0) {
        for (let b = 0; b < size; b++) {
          start[b + 1] = start[b + 1]! + start[b]!;
          this.cursor[b] = start[b]!;
        }
      }
    }
  }

  /**
   * What the latest query found: the indices of `found[0 .. n)`, n being what
   * the query returned. Grows (the only allocation of a query) when a query
   * finds more boxes than any before; read it after the query.
   */
  found = new Int32Array(1024);

  /**
   * Lists in {@link TriangleGrid.found}, once each, the boxes listed in the cells
   * that the box `[x ± r, y ± r, z ± r]` overlaps (a superset of the boxes it
   * overlaps), with x, y, z read from `p[0..2]` and r from `p[3]` so that no
   * double crosses the call; returns how many.
   */
  gather(p: Float64Array): number {
    const inv = this.inverse;
    const r = p[3]!;
    const x0 = Math.floor((p[0]! - r) * inv) | 0;
    const y0 = Math.floor((p[1]! - r) * inv) | 0;
    const z0 = Math.floor((p[2]! - r) * inv) | 0;
    const x1 = Math.floor((p[0]! + r) * inv) | 0;
    const y1 = Math.floor((p[1]! + r) * inv) | 0;
    const z1 = Math.floor((p[2]! + r) * inv) | 0;
    return this.collect(x0, y0, z0, x1, y1, z1);
  }

  /** Entries listed by the latest build (box–cell pairs). */
  get entryCount(): number {
    return this.cellStart[this.mask + 1]!;
  }

  /** The bucket of the cell point `p` (xyz in `p[0..2]`) lies in: its boxes are `entries[cellStart[b] .. cellStart[b + 1])`, boxes of other cells sharing the bucket among them. */
  bucketAt(p: Float64Array): number {
    const inv = this.inverse;
    return (Math.imul(Math.floor(p[0]! * inv) | 0, PX) ^ Math.imul(Math.floor(p[1]! * inv) | 0, PY) ^ Math.imul(Math.floor(p[2]! * inv) | 0, PZ)) & this.mask;
  }

  /** As {@link TriangleGrid.gather}, for box `t` of `boxes` (min xyz, max xyz): a long thin box reads far fewer cells than a cube about it. */
  gatherBox(boxes: Float64Array, t: number): number {
    const inv = this.inverse;
    const o = t * 6;
    return this.collect(
      Math.floor(boxes[o]! * inv) | 0,
      Math.floor(boxes[o + 1]! * inv) | 0,
      Math.floor(boxes[o + 2]! * inv) | 0,
      Math.floor(boxes[o + 3]! * inv) | 0,
      Math.floor(boxes[o + 4]! * inv) | 0,
      Math.floor(boxes[o + 5]! * inv) | 0,
    );
  }

  private collect(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
    if (this.query === 0x7fffffff) {
      this.stamp.fill(0);
      this.query = 0;
    }
    const query = ++this.query;
    const stamp = this.stamp;
    const start = this.cellStart;
    const entries = this.entries;
    let n = 0;
    for (let x = x0; x <= x1; x++)
      for (let y = y0; y <= y1; y++)
        for (let z = z0; z <= z1; z++) {
          const b = (Math.imul(x, PX) ^ Math.imul(y, PY) ^ Math.imul(z, PZ)) & this.mask;
          for (let e = start[b]!; e < start[b + 1]!; e++) {
            const t = entries[e]!;
            if (stamp[t] === query) continue;
            stamp[t] = query;
            // Dropping what did not fit (as a fixed buffer of 4096 did) lost pairs in a
            // dense crumple searched with wide cells.
            if (n === this.found.length) {
              const grown = new Int32Array(n * 2);
              grown.set(this.found);
              this.found = grown;
            }
            this.found[n++] = t;
          }
        }
    return n;
  }

  /** Cells box `t` overlaps. */
  private cellsOf(boxes: Float64Array, t: number, inv: number): number {
    const o = t * 6;
    const nx = (Math.floor(boxes[o + 3]! * inv) | 0) - (Math.floor(boxes[o]! * inv) | 0) + 1;
    const ny = (Math.floor(boxes[o + 4]! * inv) | 0) - (Math.floor(boxes[o + 1]! * inv) | 0) + 1;
    const nz = (Math.floor(boxes[o + 5]! * inv) | 0) - (Math.floor(boxes[o + 2]! * inv) | 0) + 1;
    return nx * ny * nz;
  }

  /**
   * Room for `total` entries and `count` boxes, and a table of the least power
   * of two buckets at or above twice the entries. The arrays only grow; the
   * table in use shrinks with the entries (a cloth that was flung once, with
   * boxes grown large, does not go on clearing millions of buckets per build).
   */
  private reserve(total: number, count: number): void {
    if (total > this.entries.length) this.entries = new Int32Array(Math.max(total, this.entries.length * 2));
    if (count > this.stamp.length) {
      this.stamp = new Int32Array(Math.max(count, this.stamp.length * 2));
      this.query = 0;
    }
    let size = 16;
    while (size < 2 * total) size *= 2;
    if (size > this.cursor.length) {
      this.cellStart = new Int32Array(size + 1);
      this.cursor = new Int32Array(size);
    }
    this.mask = size - 1;
  }
}
