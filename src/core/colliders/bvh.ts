/**
 * A static bounding-volume hierarchy over axis-aligned boxes: the broad phase of
 * the triangle mesh collider (the paper's Hitman culls background triangles by
 * the bounding box of the simulated object, section 7). Built once, top-down by
 * median split on the longest axis, and flattened into typed arrays in
 * depth-first order, so a query walks arrays with a preallocated stack and
 * allocates nothing.
 *
 * @example
 * ```ts
 * // two unit boxes, items 0 and 1
 * const bvh = new Bvh(new Float64Array([0, 0, 0, 1, 1, 1, 5, 5, 5, 6, 6, 6]));
 * bvh.queryBox.set([0.5, 0.5, 0.5, 2, 2, 2]);
 * const hits = new Int32Array(bvh.itemCount);
 * bvh.query(hits); // 1, and hits[0] === 0
 * ```
 */
export class Bvh {
  /** Number of boxes the tree was built over. */
  readonly itemCount: number;
  /** Node bounds, 6 per node: min xyz then max xyz. */
  readonly nodeBounds: Float64Array;
  /** For an inner node, the index of its second child (the first is the next node); -1 for a leaf. */
  readonly nodeRight: Int32Array;
  /** For a leaf, its first slot in {@link Bvh.items}. */
  readonly nodeStart: Int32Array;
  /** For a leaf, how many items it holds (0 for inner nodes). */
  readonly nodeCount: Int32Array;
  /** Item indices, permuted so that every leaf's items are contiguous. */
  readonly items: Int32Array;
  /** Set the box to query here (min xyz, max xyz) before calling {@link Bvh.query}. */
  readonly queryBox = new Float64Array(6);

  private readonly boxes: Float64Array;
  private readonly stack: Int32Array;
  private nodeTotal = 0;

  /**
   * @param boxes 6 numbers per item (min xyz, max xyz); kept, not copied.
   * @param leafSize most items per leaf.
   */
  constructor(boxes: Float64Array, leafSize = 4) {
    if (boxes.length % 6 !== 0) throw new RangeError(`Bvh: boxes must hold 6 numbers per item, got length ${boxes.length}`);
    if (!Number.isInteger(leafSize) || leafSize < 1) throw new RangeError(`Bvh: leafSize must be an integer >= 1, got ${String(leafSize)}`);
    this.boxes = boxes;
    this.itemCount = boxes.length / 6;
    const maxNodes = Math.max(1, 2 * this.itemCount);
    this.nodeBounds = new Float64Array(maxNodes * 6);
    this.nodeRight = new Int32Array(maxNodes);
    this.nodeStart = new Int32Array(maxNodes);
    this.nodeCount = new Int32Array(maxNodes);
    this.items = Int32Array.from({ length: this.itemCount }, (_, i) => i);
    const centroids = new Float64Array(this.itemCount * 3);
    for (let i = 0; i < this.itemCount; i++) for (let k = 0; k < 3; k++) centroids[i * 3 + k] = (boxes[i * 6 + k]! + boxes[i * 6 + 3 + k]!) / 2;
    const depth = this.build(0, this.itemCount, leafSize, centroids);
    this.stack = new Int32Array(depth + 2);
  }

  /**
   * Writes into `out` the items whose boxes overlap {@link Bvh.queryBox} (touching
   * counts) and returns how many. `out` must hold {@link Bvh.itemCount} entries.
   */
  query(out: Int32Array): number {
    if (this.itemCount === 0) return 0;
    const q = this.queryBox;
    const qx0 = q[0]!;
    const qy0 = q[1]!;
    const qz0 = q[2]!;
    const qx1 = q[3]!;
    const qy1 = q[4]!;
    const qz1 = q[5]!;
    const nb = this.nodeBounds;
    const boxes = this.boxes;
    const stack = this.stack;
    let top = 0;
    let found = 0;
    stack[top++] = 0;
    while (top > 0) {
      const node = stack[--top]!;
      const o = node * 6;
      if (nb[o]! > qx1 || nb[o + 1]! > qy1 || nb[o + 2]! > qz1 || nb[o + 3]! < qx0 || nb[o + 4]! < qy0 || nb[o + 5]! < qz0) continue;
      const right = this.nodeRight[node]!;
      if (right >= 0) {
        stack[top++] = right;
        stack[top++] = node + 1;
        continue;
      }
      const start = this.nodeStart[node]!;
      const end = start + this.nodeCount[node]!;
      for (let s = start; s < end; s++) {
        const item = this.items[s]!;
        const b = item * 6;
        if (boxes[b]! > qx1 || boxes[b + 1]! > qy1 || boxes[b + 2]! > qz1 || boxes[b + 3]! < qx0 || boxes[b + 4]! < qy0 || boxes[b + 5]! < qz0) continue;
        out[found++] = item;
      }
    }
    return found;
  }

  /** Builds the subtree of items[from, to) at the next free node; returns its depth. */
  private build(from: number, to: number, leafSize: number, centroids: Float64Array): number {
    const node = this.nodeTotal++;
    this.fitBounds(node, from, to);
    if (to - from <= leafSize) {
      this.nodeRight[node] = -1;
      this.nodeStart[node] = from;
      this.nodeCount[node] = to - from;
      return 1;
    }
    const axis = this.longestCentroidAxis(from, to, centroids);
    const slice = Array.from(this.items.subarray(from, to));
    slice.sort((a, b) => centroids[a * 3 + axis]! - centroids[b * 3 + axis]!);
    this.items.set(slice, from);
    const middle = (from + to) >> 1;
    const left = this.build(from, middle, leafSize, centroids);
    this.nodeRight[node] = this.nodeTotal;
    this.nodeCount[node] = 0;
    const right = this.build(middle, to, leafSize, centroids);
    return 1 + Math.max(left, right);
  }

  private fitBounds(node: number, from: number, to: number): void {
    const nb = this.nodeBounds;
    const o = node * 6;
    for (let k = 0; k < 3; k++) {
      nb[o + k] = Infinity;
      nb[o + 3 + k] = -Infinity;
    }
    for (let s = from; s < to; s++) {
      const b = this.items[s]! * 6;
      for (let k = 0; k < 3; k++) {
        nb[o + k] = Math.min(nb[o + k]!, this.boxes[b + k]!);
        nb[o + 3 + k] = Math.max(nb[o + 3 + k]!, this.boxes[b + 3 + k]!);
      }
    }
  }

  private longestCentroidAxis(from: number, to: number, centroids: Float64Array): number {
    let best = 0;
    let bestExtent = -1;
    for (let k = 0; k < 3; k++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let s = from; s < to; s++) {
        const c = centroids[this.items[s]! * 3 + k]!;
        lo = Math.min(lo, c);
        hi = Math.max(hi, c);
      }
      if (hi - lo > bestExtent) {
        bestExtent = hi - lo;
        best = k;
      }
    }
    return best;
  }
}
