import { widen } from './table.js';

/**
 * The graph long-range attachments are measured on: particles joined by
 * inextensible links (rigid sticks, zero-length attachments), each link as
 * long as its rest length. For every particle reachable from an anchor (an
 * immovable particle) {@link nearestAnchors} finds the few anchors nearest
 * along the links and how far each is: no inextensible path lets the particle
 * be farther from that anchor than this, however it folds.
 *
 * Built from scratch when the world's links change, never in a step that did
 * not change them; the arrays are kept and reused between builds.
 */
export class TetherGraph {
  /** Links as particle pairs and lengths, `linkCount` of them. */
  linkA: Int32Array = new Int32Array(64);
  linkB: Int32Array = new Int32Array(64);
  private linkLength: Float64Array = new Float64Array(64);
  linkCount = 0;
  /** Adjacency in compressed rows: the links of particle i are `next[start[i] .. start[i + 1])`. */
  private start: Int32Array = new Int32Array(65);
  private cursor: Int32Array = new Int32Array(65);
  private next: Int32Array = new Int32Array(128);
  private nextLength: Float64Array = new Float64Array(128);
  /** Per particle: up to `perParticle` labels (anchor, distance), nearest first. */
  labelAnchor: Int32Array = new Int32Array(0);
  labelDistance: Float64Array = new Float64Array(0);
  labelCount: Uint8Array = new Uint8Array(0);
  /** A binary heap of (distance, particle, anchor) still to settle. */
  private heapDistance: Float64Array = new Float64Array(256);
  private heapParticle: Int32Array = new Int32Array(256);
  private heapAnchor: Int32Array = new Int32Array(256);
  private heapSize = 0;
  /** The link count the adjacency was built for (-1: none since the last clear). */
  private adjacencyFor = -1;

  constructor(readonly perParticle: number) {}

  /** Forgets every link (before a rebuild). */
  clear(): void {
    this.linkCount = 0;
    this.adjacencyFor = -1;
  }

  /** Adds a link of `length` (m) between particles `a` and `b`. */
  link(a: number, b: number, length: number): void {
    if (this.linkCount === this.linkA.length) {
      const n = this.linkA.length * 2;
      this.linkA = widen(this.linkA, n);
      this.linkB = widen(this.linkB, n);
      this.linkLength = widen(this.linkLength, n);
    }
    this.linkA[this.linkCount] = a;
    this.linkB[this.linkCount] = b;
    this.linkLength[this.linkCount] = length;
    this.linkCount++;
  }

  /**
   * Labels every particle below `end` with its nearest anchors along the links
   * (at most `perParticle`, nearest first): a multi-source Dijkstra in which
   * each anchor's front runs on until a particle holds its quota of labels.
   * `anchors` lists the sources. Ties settle in the order of the heap,
   * which depends only on the links and anchors: the same scene gives the same labels.
   */
  nearestAnchors(end: number, anchors: Int32Array, anchorCount: number): void {
    const k = this.perParticle;
    if (this.adjacencyFor !== this.linkCount) this.buildAdjacency(end);
    if (this.labelCount.length < end) {
      this.labelAnchor = new Int32Array(end * k);
      this.labelDistance = new Float64Array(end * k);
      this.labelCount = new Uint8Array(end);
    } else this.labelCount.fill(0, 0, end);
    this.heapSize = 0;
    for (let i = 0; i < anchorCount; i++) this.push(0, anchors[i]!, anchors[i]!);
    const start = this.start;
    while (this.heapSize > 0) {
      const distance = this.heapDistance[0]!;
      const particle = this.heapParticle[0]!;
      const anchor = this.heapAnchor[0]!;
      this.pop();
      if (!this.label(particle, anchor, distance)) continue;
      for (let e = start[particle]!; e < start[particle + 1]!; e++) {
        const other = this.next[e]!;
        if (this.labelCount[other]! < k && !this.hasLabel(other, anchor)) this.push(distance + this.nextLength[e]!, other, anchor);
      }
    }
  }

  /** Gives `particle` the label unless it is full or has one from `anchor` already; true when given. */
  private label(particle: number, anchor: number, distance: number): boolean {
    const n = this.labelCount[particle]!;
    if (n >= this.perParticle || this.hasLabel(particle, anchor)) return false;
    this.labelAnchor[particle * this.perParticle + n] = anchor;
    this.labelDistance[particle * this.perParticle + n] = distance;
    this.labelCount[particle] = n + 1;
    return true;
  }

  private hasLabel(particle: number, anchor: number): boolean {
    const base = particle * this.perParticle;
    for (let j = 0; j < this.labelCount[particle]!; j++) if (this.labelAnchor[base + j] === anchor) return true;
    return false;
  }

  private buildAdjacency(end: number): void {
    this.adjacencyFor = this.linkCount;
    if (this.start.length < end + 1) {
      this.start = new Int32Array(end + 1);
      this.cursor = new Int32Array(end + 1);
    }
    const start = this.start;
    start.fill(0, 0, end + 1);
    for (let l = 0; l < this.linkCount; l++) {
      start[this.linkA[l]! + 1]!++;
      start[this.linkB[l]! + 1]!++;
    }
    for (let i = 0; i < end; i++) start[i + 1]! += start[i]!;
    const total = start[end]!;
    if (this.next.length < total) {
      this.next = new Int32Array(total);
      this.nextLength = new Float64Array(total);
    }
    const cursor = this.cursor;
    cursor.set(start.subarray(0, end + 1));
    for (let l = 0; l < this.linkCount; l++) {
      const a = this.linkA[l]!;
      const b = this.linkB[l]!;
      this.next[cursor[a]!] = b;
      this.nextLength[cursor[a]!++] = this.linkLength[l]!;
      this.next[cursor[b]!] = a;
      this.nextLength[cursor[b]!++] = this.linkLength[l]!;
    }
  }

  /** Pushes an entry; the heap's last slot (index `heapSize` before the push) is where it starts. */
  private push(distance: number, particle: number, anchor: number): void {
    if (this.heapSize + 1 >= this.heapDistance.length) {
      const n = this.heapDistance.length * 2;
      this.heapDistance = widen(this.heapDistance, n);
      this.heapParticle = widen(this.heapParticle, n);
      this.heapAnchor = widen(this.heapAnchor, n);
    }
    let i = this.heapSize++;
    this.set(i, distance, particle, anchor);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** Removes the first entry. */
  private pop(): void {
    const last = --this.heapSize;
    if (last === 0) return;
    this.swap(0, last);
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.before(child + 1, child)) child++;
      if (!this.before(child, i)) break;
      this.swap(child, i);
      i = child;
    }
  }

  /** True when heap entry `i` comes before `j`: nearer, then lower ids (a total order, so ties settle the same way every build). */
  private before(i: number, j: number): boolean {
    const di = this.heapDistance[i]!;
    const dj = this.heapDistance[j]!;
    if (di !== dj) return di < dj;
    if (this.heapParticle[i] !== this.heapParticle[j]) return this.heapParticle[i]! < this.heapParticle[j]!;
    return this.heapAnchor[i]! < this.heapAnchor[j]!;
  }

  private set(i: number, distance: number, particle: number, anchor: number): void {
    this.heapDistance[i] = distance;
    this.heapParticle[i] = particle;
    this.heapAnchor[i] = anchor;
  }

  private swap(i: number, j: number): void {
    const d = this.heapDistance[i]!;
    const p = this.heapParticle[i]!;
    const a = this.heapAnchor[i]!;
    this.set(i, this.heapDistance[j]!, this.heapParticle[j]!, this.heapAnchor[j]!);
    this.set(j, d, p, a);
  }
}
