import { ParticleFlag, type ParticleStore } from '../particles.js';
import { SegmentLoop, stickLoop, type StickTable } from './sticks.js';

/**
 * Segments with fewer sticks keep the order their builder chose. Colouring a
 * chain turns it red–black, which lets a compressed chain overshoot and fold
 * where the sequential order straightens it, and small bodies gain no speed from
 * it. Bigger segments (a cloth, a net, a big soft body) are put in the canonical
 * colour order of {@link colorSegment}, whatever order their sticks came in.
 */
export const COLOR_MIN_STICKS = 512;

/** Colours tracked per particle (bits of a Uint32); sticks that find none free go last in their block. */
const MAX_COLORS = 32;

/**
 * Re-orders the stick table for the solver (graph colouring):
 *
 * 1. Each stick goes to a segment: the body holding both ends (or the later body
 *    when it joins two, as a joint made by that body's builder would be ordered,
 *    or the body when the other end is a loose immovable anchor), else the loose
 *    segment, which comes last. A segment's sticks follow its body's iteration
 *    count and sleep with it.
 * 2. A segment of at least {@link COLOR_MIN_STICKS} sticks is put in its
 *    canonical colour order ({@link colorSegment}): greedily coloured so that no
 *    two sticks of a colour share a particle, visiting the sticks in an order
 *    fixed by a hash of their particles, then sorted by colour. The order no
 *    longer depends on the order the sticks were added in. A user's loops add
 *    a net row by row from its pinned edge; solved in that order (or in colour
 *    classes found in that order) a pass carries each correction down the whole
 *    net, and at 10 substeps × 1 pass that pumped energy in: a 64×64 net rose
 *    above its pins at 30% stretch, a 128×128 one reached 1e36. Consecutive
 *    sticks of one colour also touch disjoint particles, so the CPU overlaps
 *    them instead of waiting on the previous stick's writes.
 * 3. Each segment gets the fastest stick loop all its sticks allow.
 *
 * Every stick is still projected once per pass against the latest positions:
 * this is Gauss–Seidel in another order, not Jacobi. Every sort is stable and a
 * segment's colour order depends only on its sticks, so re-ordering an ordered
 * table changes nothing (snapshots restore bit for bit). Runs when sticks were added or
 * bodies changed, never per step; allocates only when the table has grown.
 */
export function orderSticks(sticks: StickTable, particles: ParticleStore, scratch: OrderScratch): void {
  const n = sticks.count;
  scratch.fit(n, particles.capacity);
  const segmentOf = scratch.segment;
  let bodies = 0;
  for (let row = 0; row < n; row++) {
    const s = owner(particles, sticks.a[row]!, sticks.b[row]!);
    segmentOf[row] = s;
    if (s >= bodies) bodies = s + 1;
  }
  // Counting sort by segment; loose sticks (-1) get index `bodies`, after every body.
  const counts = scratch.counts(bodies + 2);
  for (let row = 0; row < n; row++) counts[key(segmentOf[row]!, bodies) + 1]!++;
  for (let k = 1; k < bodies + 2; k++) counts[k] = counts[k]! + counts[k - 1]!;
  const bySegment = scratch.order;
  for (let row = 0; row < n; row++) bySegment[counts[key(segmentOf[row]!, bodies)]!++] = row;
  // counts[k] is now the end of segment k; keep the non-empty segments.
  let segments = 0;
  let begin = 0;
  sticks.segmentStart = fitInt32(sticks.segmentStart, bodies + 2);
  sticks.segmentBody = fitInt32(sticks.segmentBody, bodies + 1);
  sticks.segmentPasses = fitInt32(sticks.segmentPasses, bodies + 1);
  if (sticks.segmentLoop.length < bodies + 1) sticks.segmentLoop = new Uint8Array((bodies + 1) * 2);
  for (let k = 0; k <= bodies; k++) {
    const end = counts[k]!;
    if (end === begin) continue;
    if (end - begin >= COLOR_MIN_STICKS) {
      colorSegment(sticks, scratch, begin, end);
    }
    sticks.segmentStart[segments] = begin;
    sticks.segmentBody[segments] = k === bodies ? -1 : k;
    segments++;
    begin = end;
  }
  sticks.segmentStart[segments] = n;
  sticks.segmentCount = segments;
  permute(sticks, scratch, n);
  chooseLoops(sticks);
  sticks.ordered = true;
  sticks.layoutVersion++;
}

/** Picks each segment's loop: the fastest one all its sticks qualify for; notes whether any stick is compliant. */
function chooseLoops(sticks: StickTable): void {
  let compliant = false;
  for (let k = 0; k < sticks.segmentCount; k++) {
    let loop = SegmentLoop.Rigid;
    for (let row = sticks.segmentStart[k]!; row < sticks.segmentStart[k + 1]!; row++) {
      const own = stickLoop(sticks.kind[row]!, sticks.stiffness[row]!, sticks.compliance[row]!, sticks.damping[row]!);
      if (own < loop) loop = own;
      if (sticks.compliance[row] !== 0) compliant = true;
    }
    sticks.segmentLoop[k] = loop;
  }
  sticks.compliant = compliant;
}

/**
 * After rows were replaced wholesale (a snapshot restored): when the table was in
 * solving order (`ordered`) and its rows are still grouped by segment, re-derives
 * the segments without moving a row, so the restored world solves in exactly the
 * order the original did; otherwise leaves the re-ordering to the next step.
 */
export function resumeOrder(sticks: StickTable, particles: ParticleStore, scratch: OrderScratch, ordered: boolean): void {
  sticks.ordered = false;
  if (!ordered) return;
  const n = sticks.count;
  let segments = 0;
  let previous = -2;
  for (let row = 0; row < n; row++) {
    const s = owner(particles, sticks.a[row]!, sticks.b[row]!);
    if (s === previous) continue;
    // Bodies ascend and the loose segment comes last; anything else needs a re-order.
    if (previous === -1 || (s >= 0 && s < previous)) return;
    previous = s;
    segments++;
  }
  sticks.segmentStart = fitInt32(sticks.segmentStart, segments + 1);
  sticks.segmentBody = fitInt32(sticks.segmentBody, segments);
  sticks.segmentPasses = fitInt32(sticks.segmentPasses, segments);
  if (sticks.segmentLoop.length < segments) sticks.segmentLoop = new Uint8Array(segments * 2);
  segments = 0;
  previous = -2;
  for (let row = 0; row < n; row++) {
    const s = owner(particles, sticks.a[row]!, sticks.b[row]!);
    if (s === previous) continue;
    sticks.segmentStart[segments] = row;
    sticks.segmentBody[segments] = s;
    segments++;
    previous = s;
  }
  sticks.segmentStart[segments] = n;
  sticks.segmentCount = segments;
  chooseLoops(sticks);
  scratch.fit(0, particles.capacity);
  sticks.ordered = true;
  sticks.layoutVersion++;
}

/** The body a stick between particles `a` and `b` belongs to, or -1 (loose). */
function owner(particles: ParticleStore, a: number, b: number): number {
  const ba = particles.body[a]!;
  const bb = particles.body[b]!;
  if (ba >= 0 && bb >= 0) return ba > bb ? ba : bb;
  if (ba >= 0 && isAnchor(particles, b)) return ba;
  if (bb >= 0 && isAnchor(particles, a)) return bb;
  return -1;
}

/** True for a particle that never moves, pinned or not (a pin may be released). */
export function isAnchor(particles: ParticleStore, id: number): boolean {
  const pinned = (particles.flags[id]! & ParticleFlag.Pinned) !== 0;
  return (pinned ? particles.freeInverseMass[id]! : particles.inverseMass[id]!) === 0;
}

function key(segment: number, bodies: number): number {
  return segment < 0 ? bodies : segment;
}

/**
 * Puts `scratch.order[from..to)` in canonical colour order. The sticks are
 * visited in an order fixed by a hash of their particle pair (relative to the
 * segment's lowest particle), greedily coloured so that no two sticks of a colour
 * share a particle, then sorted by colour, and inside a colour by particle id so
 * that a colour runs through memory in order.
 *
 * Why hashed: the colour classes decide the physics (inside a class the order
 * changes nothing). Greedy colouring in a sweep order (row by row, or sorted by
 * particle id) gives classes whose sequence still sweeps the mesh in one
 * direction, and a hanging 64×64 net coloured that way still rose above its pins
 * at 10 substeps × 1 pass; visited in hashed order, a sequence of classes has
 * no direction, and 32² to 128² nets hang at 0.2–1.0% mean stretch (the same as a
 * shuffled order). A symmetric sweep (forward then backward) is stable in theory
 * as well but costs two sweeps per pass for the same stretch.
 *
 * The result depends only on which sticks the segment holds, not on their order
 * or where the body's particles sit in the store (the same pair twice keeps its
 * order), so re-ordering an ordered table changes nothing.
 */
function colorSegment(sticks: StickTable, scratch: OrderScratch, from: number, to: number): void {
  const order = scratch.order;
  const keys = scratch.keys;
  let low = 0x7fffffff;
  let high = 0;
  for (let i = from; i < to; i++) {
    const row = order[i]!;
    low = Math.min(low, sticks.a[row]!, sticks.b[row]!);
    high = Math.max(high, sticks.a[row]!, sticks.b[row]!);
  }
  const span = high - low + 1;
  // Canonical order first (by lower id, then higher), so that equal hashes tie the same way whatever the input order.
  for (let i = from; i < to; i++) keys[i] = Math.max(sticks.a[order[i]!]!, sticks.b[order[i]!]!) - low;
  countingSort(scratch, from, to, span);
  for (let i = from; i < to; i++) keys[i] = Math.min(sticks.a[order[i]!]!, sticks.b[order[i]!]!) - low;
  countingSort(scratch, from, to, span);
  // The hashed visiting order, 16 bits at a time.
  for (let half = 0; half < 2; half++) {
    for (let i = from; i < to; i++) {
      const row = order[i]!;
      const a = sticks.a[row]! - low;
      const b = sticks.b[row]! - low;
      keys[i] = (pairHash(Math.min(a, b), Math.max(a, b)) >>> (half * 16)) & 0xffff;
    }
    countingSort(scratch, from, to, 0x10000);
  }
  const mask = scratch.mask;
  const color = scratch.color;
  for (let i = from; i < to; i++) {
    const row = order[i]!;
    const a = sticks.a[row]!;
    const b = sticks.b[row]!;
    const used = mask[a]! | mask[b]!;
    // Lowest clear bit; all 32 taken gives MAX_COLORS, the overflow run.
    const c = used === -1 ? MAX_COLORS : 31 - Math.clz32(~used & (used + 1));
    color[row] = c;
    if (c < MAX_COLORS) {
      mask[a] = mask[a]! | (1 << c);
      mask[b] = mask[b]! | (1 << c);
    }
  }
  for (let i = from; i < to; i++) {
    mask[sticks.a[order[i]!]!] = 0;
    mask[sticks.b[order[i]!]!] = 0;
  }
  for (let i = from; i < to; i++) keys[i] = Math.min(sticks.a[order[i]!]!, sticks.b[order[i]!]!) - low;
  countingSort(scratch, from, to, span);
  for (let i = from; i < to; i++) keys[i] = color[order[i]!]!;
  countingSort(scratch, from, to, MAX_COLORS + 1);
}

/** A well-mixed 32-bit hash of a particle pair (lower, higher). */
function pairHash(lower: number, higher: number): number {
  let x = Math.imul(lower, 0x9e3779b1) ^ Math.imul(higher + 0x7f4a7c15, 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/** Stable counting sort of `scratch.order[from..to)` by `scratch.keys[from..to)`, each key in `[0, buckets)`. */
function countingSort(scratch: OrderScratch, from: number, to: number, buckets: number): void {
  const order = scratch.order;
  const keys = scratch.keys;
  const counts = scratch.bucketCounts(buckets + 1);
  for (let i = from; i < to; i++) counts[keys[i]! + 1]!++;
  for (let k = 1; k <= buckets; k++) counts[k] = counts[k]! + counts[k - 1]!;
  const sorted = scratch.sorted;
  for (let i = from; i < to; i++) sorted[from + counts[keys[i]!]!++] = order[i]!;
  for (let i = from; i < to; i++) order[i] = sorted[i]!;
}

/** Applies `scratch.order` (new row → old row) to every column and reports the moves. */
function permute(sticks: StickTable, scratch: OrderScratch, n: number): void {
  const order = scratch.order;
  const ints = scratch.ints;
  const reals = scratch.reals;
  const bytes = scratch.bytes;
  gatherInts(sticks.a, order, ints, n);
  gatherInts(sticks.b, order, ints, n);
  gatherInts(sticks.ids, order, ints, n);
  for (let i = 0; i < n; i++) reals[i] = sticks.rest[order[i]!]!;
  for (let i = 0; i < n; i++) sticks.rest[i] = reals[i]!;
  for (let i = 0; i < n; i++) reals[i] = sticks.stiffness[order[i]!]!;
  for (let i = 0; i < n; i++) sticks.stiffness[i] = reals[i]!;
  for (let i = 0; i < n; i++) reals[i] = sticks.compliance[order[i]!]!;
  for (let i = 0; i < n; i++) sticks.compliance[i] = reals[i]!;
  for (let i = 0; i < n; i++) reals[i] = sticks.damping[order[i]!]!;
  for (let i = 0; i < n; i++) sticks.damping[i] = reals[i]!;
  // The multipliers are zeroed at the next substep; they need no moving.
  for (let i = 0; i < n; i++) bytes[i] = sticks.kind[order[i]!]!;
  for (let i = 0; i < n; i++) sticks.kind[i] = bytes[i]!;
  for (let i = 0; i < n; i++) if (order[i] !== i) sticks.onMove(sticks.ids[i]!, i);
}

function gatherInts(column: Int32Array, order: Int32Array, tmp: Int32Array, n: number): void {
  for (let i = 0; i < n; i++) tmp[i] = column[order[i]!]!;
  for (let i = 0; i < n; i++) column[i] = tmp[i]!;
}

function fitInt32(array: Int32Array, length: number): Int32Array {
  return array.length >= length ? array : new Int32Array(length * 2);
}

/** Work arrays of {@link orderSticks}, kept between calls so that re-ordering allocates nothing. */
export class OrderScratch {
  /** Segment (body id, or -1) of each row. */
  segment: Int32Array = new Int32Array(0);
  /** The new order: new row → old row. */
  order: Int32Array = new Int32Array(0);
  /** Column buffers for the permutation. */
  ints: Int32Array = new Int32Array(0);
  reals: Float64Array = new Float64Array(0);
  bytes: Uint8Array = new Uint8Array(0);
  /** Colours in use at each particle within the current block (bits). */
  mask: Uint32Array = new Uint32Array(0);
  /** Colour of each row (indexed by row) of the segment being coloured. */
  color: Uint8Array = new Uint8Array(0);
  /** Sort keys (particle ids) of the segment being sorted. */
  keys: Int32Array = new Int32Array(0);
  /** Where a counting sort gathers rows before copying them back to `order`. */
  sorted: Int32Array = new Int32Array(0);
  private countArray: Int32Array = new Int32Array(0);
  private bucketCountArray: Int32Array = new Int32Array(0);

  /** Grows the arrays for `sticks` rows and `particles` slots. */
  fit(sticks: number, particles: number): void {
    if (this.order.length < sticks) {
      const n = Math.max(sticks, this.order.length * 2);
      this.segment = new Int32Array(n);
      this.order = new Int32Array(n);
      this.ints = new Int32Array(n);
      this.reals = new Float64Array(n);
      this.bytes = new Uint8Array(n);
      this.color = new Uint8Array(n);
      this.keys = new Int32Array(n);
      this.sorted = new Int32Array(n);
    }
    if (this.mask.length < particles) this.mask = new Uint32Array(particles);
  }

  /** A zeroed count array for {@link countingSort} (apart from {@link counts}, which holds the segment ends meanwhile). */
  bucketCounts(length: number): Int32Array {
    if (this.bucketCountArray.length < length) this.bucketCountArray = new Int32Array(length * 2);
    this.bucketCountArray.fill(0, 0, length);
    return this.bucketCountArray;
  }

  /** A zeroed count array of at least `length` entries. */
  counts(length: number): Int32Array {
    if (this.countArray.length < length) this.countArray = new Int32Array(length * 2);
    this.countArray.fill(0);
    return this.countArray;
  }
}
