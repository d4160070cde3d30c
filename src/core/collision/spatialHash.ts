/** Per-axis multipliers of the cell hash: large odd numbers below 2³¹, so the JIT keeps them integers. */
const PX = 73856093;
const PY = 19349663;
const PZ = 83492791;

/**
 * A uniform grid hashed into a table of buckets, rebuilt from scratch each time
 * it is used (a counting sort: count per bucket, prefix sums, scatter). Its
 * arrays grow only when more particles are listed than ever before, so a
 * rebuild in the step allocates nothing. Two particles closer than `cellSize`
 * always lie in neighbouring cells, so with a cell at least one contact
 * distance wide, the 27 cells around a particle hold all its partners.
 *
 * @example
 * ```ts
 * const hash = new SpatialHash();
 * hash.cellSize = 0.1;
 * hash.build(world.positions, ids, ids.length);
 * const n = hash.neighbourBuckets(world.positions, ids[0]);
 * for (let k = 0; k < n; k++) {
 *   const b = hash.buckets[k];
 *   for (let e = hash.cellStart[b]; e < hash.cellStart[b + 1]; e++) hash.entries[e]; // a candidate
 * }
 * ```
 */
export class SpatialHash {
  /** Edge of a grid cell; set it before {@link SpatialHash.build}. */
  cellSize = 1;
  /** Bucket b holds entries[cellStart[b] .. cellStart[b + 1]). */
  cellStart = new Int32Array(17);
  /** Particle ids sorted by bucket. */
  entries = new Int32Array(16);
  /** Distinct buckets found by the latest {@link SpatialHash.neighbourBuckets} or {@link SpatialHash.forwardBuckets}. */
  readonly buckets = new Int32Array(27);
  /**
   * Buckets in the table per item, at least (a power of two is kept): more
   * buckets, fewer items of far cells sharing one. Set before
   * {@link SpatialHash.build}.
   */
  bucketsPerItem = 2;

  private mask = 15;
  private inverse = 1;
  private bucketOfItem = new Int32Array(16);
  private cursor = new Int32Array(16);
  /** Per bucket, the number of the last neighbour query that listed it (dedupes in O(1)). */
  private stamp = new Int32Array(16);
  private query = 0;

  /** Sorts `ids[0 .. count)` into buckets by the positions in `pos` (xyz by id). */
  build(pos: Float64Array, ids: Int32Array, count: number): void {
    this.reserve(count);
    this.inverse = 1 / this.cellSize;
    const start = this.cellStart;
    const size = this.mask + 1;
    for (let b = 0; b <= size; b++) start[b] = 0;
    for (let k = 0; k < count; k++) {
      const p = ids[k]! * 3;
      const b = this.bucket(Math.floor(pos[p]! * this.inverse) | 0, Math.floor(pos[p + 1]! * this.inverse) | 0, Math.floor(pos[p + 2]! * this.inverse) | 0);
      this.bucketOfItem[k] = b;
      start[b + 1]!++;
    }
    for (let b = 0; b < size; b++) {
      start[b + 1] = start[b + 1]! + start[b]!;
      this.cursor[b] = start[b]!;
    }
    for (let k = 0; k < count; k++) {
      const b = this.bucketOfItem[k]!;
      this.entries[this.cursor[b]!++] = ids[k]!;
    }
  }

  /**
   * Writes into {@link SpatialHash.buckets} the distinct buckets of the 27 cells
   * around particle `id` and returns how many (hash collisions can merge cells).
   */
  neighbourBuckets(pos: Float64Array, id: number): number {
    const p = id * 3;
    return this.collect(Math.floor(pos[p]! * this.inverse) | 0, Math.floor(pos[p + 1]! * this.inverse) | 0, Math.floor(pos[p + 2]! * this.inverse) | 0, false);
  }

  /**
   * Writes into {@link SpatialHash.buckets} the distinct buckets of the cell at
   * (x, y, z) (`at`) first, then of the 13 cells after it of the 26 around it
   * (greater in x, then y, then z): each pair of neighbouring cells is then
   * visited from one side only. Returns how many.
   */
  forwardBuckets(at: Float64Array): number {
    return this.collect(Math.floor(at[0]! * this.inverse) | 0, Math.floor(at[1]! * this.inverse) | 0, Math.floor(at[2]! * this.inverse) | 0, true);
  }

  /** The buckets of the cells about integer cell (ix, iy, iz): all 27, or (`forward`) its own and the 13 after it. */
  private collect(ix: number, iy: number, iz: number, forward: boolean): number {
    const out = this.buckets;
    const stamp = this.stamp;
    if (this.query === 0x7fffffff) {
      stamp.fill(0);
      this.query = 0;
    }
    const query = ++this.query;
    const mask = this.mask;
    let n = 0;
    // The hash is a XOR of one product per axis: 3 + 3 + 3 products serve all 27 cells.
    for (let dx = forward ? 0 : -1; dx <= 1; dx++) {
      const hx = Math.imul(ix + dx, PX);
      for (let dy = forward && dx === 0 ? 0 : -1; dy <= 1; dy++) {
        const hxy = hx ^ Math.imul(iy + dy, PY);
        for (let dz = forward && dx === 0 && dy === 0 ? 0 : -1; dz <= 1; dz++) {
          const b = (hxy ^ Math.imul(iz + dz, PZ)) & mask;
          if (stamp[b] === query) continue;
          stamp[b] = query;
          out[n++] = b;
        }
      }
    }
    return n;
  }

  /** Bucket of integer cell (x, y, z); callers truncate the cell numbers to int32 (`| 0`) so they stay small integers. */
  private bucket(x: number, y: number, z: number): number {
    return (Math.imul(x, PX) ^ Math.imul(y, PY) ^ Math.imul(z, PZ)) & this.mask;
  }

  /** Room for `count` items and a table of at least {@link SpatialHash.bucketsPerItem} buckets per item. */
  private reserve(count: number): void {
    if (count > this.entries.length) {
      const capacity = Math.max(count, this.entries.length * 2);
      this.entries = new Int32Array(capacity);
      this.bucketOfItem = new Int32Array(capacity);
    }
    let size = this.mask + 1;
    while (size < this.bucketsPerItem * count) size *= 2;
    if (size !== this.mask + 1) {
      this.mask = size - 1;
      this.cellStart = new Int32Array(size + 1);
      this.cursor = new Int32Array(size);
      this.stamp = new Int32Array(size);
      this.query = 0;
    }
  }
}
