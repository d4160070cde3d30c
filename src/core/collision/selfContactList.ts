import type { ParticleStore } from '../particles.js';
import { keepFront, restoreFront, type SavedFront } from './savedArrays.js';
import { Box, boxMoves, Farthest, gatherStrays, Sums, sumBody } from './strayScans.js';

/**
 * The pairs of one body's self-collision that can touch (a Verlet list), filled
 * by {@link SelfContactSearch}: particle pairs no stick joins, and particle–
 * triangle hits, each with the sum of its particles' odometers at which a pass
 * must look at it again. The list holds while no pair can have closed the
 * listing's skin: {@link SelfContactList.findStrays} says when it must be made
 * again, and of which particles. A hit keeps the side its particle came over its triangle on, across
 * listings too.
 */
export class SelfContactList {
  /** Particle pairs, two slots each. */
  pairs = new Int32Array(256);
  pairCount = 0;
  /**
   * Particle–triangle hits, four slots each: the particle, then the triangle's
   * corners. The particle is stored as `~p` (negative) where a stick joins it to a
   * corner: that is the sheet lying next to its own triangle, held only over it.
   */
  hits = new Int32Array(512);
  hitCount = 0;
  /** Per hit, its triangle's index in the surface. */
  hitTriangle = new Int32Array(128);
  /** The hits' sides before a listing, by particle: `carryTriangle[carryStart[k] .. carryStart[k + 1])` with `carrySide` (see {@link SelfContactList.carrySides}). */
  private readonly carryStart: Int32Array;
  private readonly carryCursor: Int32Array;
  private carryTriangle = new Int32Array(0);
  private carrySide = new Int8Array(0);
  /** The surface's triangle count at the latest listing. */
  private carriedTriangles = -1;
  /**
   * Per hit, the side of the triangle its particle is held on (its sign), 0 while it has none;
   * beyond ±1, how many passes in a row the particle was found on the other side (see `STUCK_PASSES`).
   */
  sides = new Int8Array(128);
  /**
   * Per pair, then per hit: the sum of its particles' odometers at which it may touch (m): the sum
   * when it was last seen apart plus how far apart it was beyond the thickness (a lower bound).
   * A pass skips a pair until its particles have travelled that far.
   */
  pairDue = new Float64Array(128);
  hitDue = new Float64Array(128);
  /** Per particle (body-relative), how far it has travelled, pass by pass (m). */
  readonly odometer: Float64Array;
  /** Per particle (body-relative), where it was at the latest {@link SelfContactList.advanceOdometers} (xyz): where the odometers were read. */
  readonly lastPass: Float64Array;
  /**
   * Where each particle of the body was when it was last listed, less the body's centre then
   * (xyz, body-relative index): its place in the body. A listing compares these, so a body
   * moving as a whole keeps its list, and particles listed at different times compare alike.
   */
  readonly listedAt: Float64Array;
  /** The body's centre (the mean of its live particles) where {@link SelfContactList.findStrays} last measured it (before every listing; m). */
  readonly centre = new Float64Array(3);
  /** {@link SelfContactList.findStrays}' scratch: its scans' box and sums, the body's mean move this substep and the squared stray distance, the farthest moves. */
  private readonly box = new Float64Array(Box.Size);
  private readonly sums = new Float64Array(Sums.Size);
  private readonly meanMove = new Float64Array(4);
  private readonly farthest = new Float64Array(Farthest.Size);
  /** Whether the latest {@link SelfContactList.findStrays} found the list broken (its quick test is skipped the next time). */
  private brokenLast = false;
  /** The particles (slots) past half the skin at the latest scan of each particle ({@link SelfContactList.findStrays}), and per particle (body-relative) 1 while it is one. */
  readonly strays: Int32Array;
  strayCount = 0;
  readonly strayed: Uint8Array;
  /** The latest listing's skin and reach, and the thickness (m): see {@link Span}. */
  readonly span = new Float64Array(Span.Size);

  /**
   * @param first,count the particle range of the body (slots).
   */
  constructor(
    private readonly first: number,
    private readonly count: number,
  ) {
    this.listedAt = new Float64Array(count * 3);
    this.carryStart = new Int32Array(count + 1);
    this.carryCursor = new Int32Array(count);
    this.odometer = new Float64Array(count);
    this.lastPass = new Float64Array(count * 3);
    this.strays = new Int32Array(count);
    this.strayed = new Uint8Array(count);
  }

  /**
   * Starts a listing at the positions of now: every particle counts as listed
   * here, less the centre {@link SelfContactList.findStrays} measured this
   * substep (any one point serves a whole listing); the skin is the body's
   * (`limits[0]`; the thickness is `limits[1]`), with triangles (`triangleCount`
   * > 0) plus {@link Span.Moves}, and the lists empty (the hits' sides kept by
   * particle, see {@link SelfContactList.carrySides}). {@link SelfContactSearch}
   * fills them.
   */
  begin(particles: ParticleStore, triangleCount: number, limits: Float64Array): void {
    const pos = particles.position;
    this.advanceOdometers(pos);
    // With triangles, the skin grows by twice the largest move of this substep (relative to the
    // body): a particle that passed through a triangle in one move is still listed with it, and
    // the pass puts it back on the side it came from. (Particle pairs keep no side: for them it
    // would only list more.)
    const span = this.span;
    span[Span.Sweep] = triangleCount > 0 ? span[Span.Moves]! : 0;
    span[Span.Skin] = limits[0]! + span[Span.Sweep]!;
    span[Span.Reach] = limits[1]! + span[Span.Skin]!;
    span[Span.Thickness] = limits[1]!;
    for (let k = 0; k < this.count; k++) this.place(pos, k);
    this.pairCount = 0;
    this.carrySides(triangleCount, false);
    this.hitCount = 0;
  }

  /**
   * Starts a listing of the strays {@link SelfContactList.findStrays} found: each is listed
   * here, and every pair and hit with a stray in it (a hit's triangle's corners included)
   * leaves the list, its side kept for the listing ({@link SelfContactList.carrySides}). The
   * rest stands: none of its particles has moved half the skin since it was listed.
   */
  beginStrays(particles: ParticleStore): void {
    const pos = particles.position;
    this.advanceOdometers(pos);
    const first = this.first;
    for (let s = 0; s < this.strayCount; s++) this.place(pos, this.strays[s]! - first);
    this.carrySides(this.carriedTriangles, true);
    const out = this.strayed;
    let kept = 0;
    for (let k = 0; k < this.pairCount; k++) {
      const i = this.pairs[k * 2]!;
      const j = this.pairs[k * 2 + 1]!;
      if (out[i - first] === 1 || out[j - first] === 1) continue;
      this.pairs[kept * 2] = i;
      this.pairs[kept * 2 + 1] = j;
      this.pairDue[kept++] = this.pairDue[k]!;
    }
    this.pairCount = kept;
    kept = 0;
    const hits = this.hits;
    for (let k = 0; k < this.hitCount; k++) {
      if (this.touchesStray(k)) continue;
      for (let c = 0; c < 4; c++) hits[kept * 4 + c] = hits[k * 4 + c]!;
      this.hitDue[kept] = this.hitDue[k]!;
      this.hitTriangle[kept] = this.hitTriangle[k]!;
      this.sides[kept++] = this.sides[k]!;
    }
    this.hitCount = kept;
  }

  /** Ends a listing of strays: they are strays no more. */
  endStrays(): void {
    for (let s = 0; s < this.strayCount; s++) this.strayed[this.strays[s]! - this.first] = 0;
    this.strayCount = 0;
  }

  /** Whether hit `k` has a stray in it, its particle or a corner. */
  private touchesStray(k: number): boolean {
    const out = this.strayed;
    const first = this.first;
    const p = this.hits[k * 4]!;
    return out[(p < 0 ? ~p : p) - first] === 1 || out[this.hits[k * 4 + 1]! - first] === 1 || out[this.hits[k * 4 + 2]! - first] === 1 || out[this.hits[k * 4 + 3]! - first] === 1;
  }

  /**
   * Once a substep, after integration: once two particles may have closed the skin since they
   * were listed, the live particles that have moved more than half the skin relative to the
   * body's centre ({@link SelfContactList.strays}), and returns how many; 0 while the list
   * holds. Any pair of the others is still at least its listing's reach less one skin apart: the
   * list holds for them. Past the quick test (and always when `measure`: the caller lists
   * anyway) it measures the body's centre and, `withMoves` (triangles listed),
   * {@link Span.Moves}, for the listing that follows. Allocates nothing.
   */
  findStrays(particles: ParticleStore, withMoves: boolean, measure: boolean): number {
    // The quick test: one scan for the box of every particle's place less its listed one. While
    // its diagonal is within the skin, no two particles have closed the skin between them.
    // Skipped while the substep before went past it and found the list broken: a body that
    // strays every substep (a pile growing under a falling sheet) would scan for nothing.
    const skin = this.span[Span.Skin]!;
    if (!measure && !this.brokenLast) {
      const box = this.box;
      if (boxMoves(particles, this.first, this.count, this.listedAt, box) === 0) return 0;
      const wx = box[Box.HighX]! - box[Box.LowX]!;
      const wy = box[Box.HighY]! - box[Box.LowY]!;
      const wz = box[Box.HighZ]! - box[Box.LowZ]!;
      if (wx * wx + wy * wy + wz * wz <= skin * skin) return 0;
    }
    // Past it: the centre and the mean move, then one scan of each particle's move. The list holds
    // while the two largest moves since listing, relative to the centre, sum to no more than the
    // skin; past that, the particles past half the skin are the strays. They are gathered in the
    // same scan, and left marked (until the next) when the list holds.
    const sums = this.sums;
    const live = sumBody(particles, this.first, this.count, sums);
    this.brokenLast = false;
    if (live === 0) return 0;
    const centre = this.centre;
    centre[0] = sums[Sums.X]! / live;
    centre[1] = sums[Sums.Y]! / live;
    centre[2] = sums[Sums.Z]! / live;
    this.endStrays();
    const half = skin / 2;
    const meanMove = this.meanMove;
    meanMove[0] = sums[Sums.MoveX]! / live;
    meanMove[1] = sums[Sums.MoveY]! / live;
    meanMove[2] = sums[Sums.MoveZ]! / live;
    meanMove[3] = half * half;
    const farthest = this.farthest;
    const n = gatherStrays(particles, this.first, this.count, this.listedAt, centre, meanMove, withMoves, this.strays, this.strayed, farthest);
    this.strayCount = n;
    if (withMoves) this.span[Span.Moves] = 2 * Math.sqrt(farthest[Farthest.Step]!);
    if (Math.sqrt(farthest[Farthest.Most]!) + Math.sqrt(farthest[Farthest.Next]!) <= 2 * half) return 0;
    this.brokenLast = true;
    return n;
  }

  /** Lists particle k (body-relative) where it is now: its place less the body's centre. */
  private place(pos: Float64Array, k: number): void {
    const i = this.first + k;
    this.listedAt[k * 3] = pos[i * 3]! - this.centre[0]!;
    this.listedAt[k * 3 + 1] = pos[i * 3 + 1]! - this.centre[1]!;
    this.listedAt[k * 3 + 2] = pos[i * 3 + 2]! - this.centre[2]!;
  }

  /** Adds particle pair (i, j) (slots), due when its particles' odometers sum to `due[0]` (m). */
  addPair(i: number, j: number, due: Float64Array): void {
    if (this.pairCount * 2 === this.pairs.length) {
      this.pairs = grow(this.pairs);
      this.pairDue = growClearance(this.pairDue, this.pairs.length / 2);
    }
    this.pairDue[this.pairCount] = due[0]!;
    this.pairs[this.pairCount * 2] = i;
    this.pairs[this.pairCount * 2 + 1] = j;
    this.pairCount++;
  }

  /**
   * Before a listing: keeps the sides of the hits that have one, by particle, so that a hit
   * listed again keeps its side (one read again after a pass failed to hold the particle would
   * take the wrong one: a layer thrown at 4 m/s onto another at 1 mm sank through it). None are
   * kept when the triangles changed (tearing renumbers them); `straysOnly`, only those of the
   * hits a listing of strays takes out.
   */
  private carrySides(triangleCount: number, straysOnly: boolean): void {
    const start = this.carryStart;
    start.fill(0);
    if (triangleCount !== this.carriedTriangles) {
      this.carriedTriangles = triangleCount;
      return;
    }
    // Particle pairs alone (or no hit listed): no side to keep.
    if (this.hitCount === 0) return;
    const first = this.first;
    const hits = this.hits;
    const sides = this.sides;
    let kept = 0;
    for (let k = 0; k < this.hitCount; k++) {
      if (sides[k] === 0 || (straysOnly && !this.touchesStray(k))) continue;
      const p = hits[k * 4]!;
      start[(p < 0 ? ~p : p) - first + 1]!++;
      kept++;
    }
    for (let k = 0; k < this.count; k++) start[k + 1] = start[k + 1]! + start[k]!;
    if (this.carryTriangle.length < kept) {
      this.carryTriangle = new Int32Array(Math.max(kept, this.carryTriangle.length * 2));
      this.carrySide = new Int8Array(this.carryTriangle.length);
    }
    const cursor = this.carryCursor;
    for (let k = 0; k < this.count; k++) cursor[k] = start[k]!;
    for (let k = 0; k < this.hitCount; k++) {
      if (sides[k] === 0 || (straysOnly && !this.touchesStray(k))) continue;
      const p = hits[k * 4]!;
      const e = cursor[(p < 0 ? ~p : p) - first]!++;
      this.carryTriangle[e] = this.hitTriangle[k]!;
      this.carrySide[e] = sides[k]!;
    }
  }

  /** The side kept for particle `p` (slot) over triangle `t` before this listing, or 0. */
  private carriedSide(p: number, t: number): number {
    const k = p - this.first;
    for (let e = this.carryStart[k]!; e < this.carryStart[k + 1]!; e++) if (this.carryTriangle[e] === t) return this.carrySide[e]!;
    return 0;
  }

  /** Adds to each particle's odometer how far it has moved since the latest call. Allocates nothing. */
  advanceOdometers(pos: Float64Array): void {
    const last = this.lastPass;
    const odometer = this.odometer;
    const from = this.first * 3;
    for (let k = 0; k < this.count; k++) {
      const x = pos[from + k * 3]!;
      const y = pos[from + k * 3 + 1]!;
      const z = pos[from + k * 3 + 2]!;
      const dx = x - last[k * 3]!;
      const dy = y - last[k * 3 + 1]!;
      const dz = z - last[k * 3 + 2]!;
      odometer[k] = odometer[k]! + Math.sqrt(dx * dx + dy * dy + dz * dz);
      last[k * 3] = x;
      last[k * 3 + 1] = y;
      last[k * 3 + 2] = z;
    }
  }

  /** The lists and sides, for snapshots: plain data (copies). */
  saveState(): SelfContactListState {
    return {
      pairs: keepFront(this.pairs, this.pairCount * 2),
      pairCount: this.pairCount,
      hits: keepFront(this.hits, this.hitCount * 4),
      sides: keepFront(this.sides, this.hitCount),
      hitTriangle: keepFront(this.hitTriangle, this.hitCount),
      carriedTriangles: this.carriedTriangles,
      pairDue: keepFront(this.pairDue, this.pairCount),
      hitDue: keepFront(this.hitDue, this.hitCount),
      odometer: this.odometer.slice(),
      lastPass: this.lastPass.slice(),
      hitCount: this.hitCount,
      listedAt: this.listedAt.slice(),
      span: this.span.slice(),
      brokenLast: this.brokenLast,
    };
  }

  /** Returns to {@link SelfContactList.saveState}'s copy (copied again). */
  loadState(state: SelfContactListState): void {
    this.pairs = restoreFront(state.pairs);
    this.pairCount = state.pairCount;
    this.hits = restoreFront(state.hits);
    this.sides = restoreFront(state.sides);
    this.hitTriangle = restoreFront(state.hitTriangle);
    this.carriedTriangles = state.carriedTriangles;
    this.pairDue = restoreFront(state.pairDue);
    this.hitDue = restoreFront(state.hitDue);
    this.odometer.set(state.odometer);
    this.lastPass.set(state.lastPass);
    this.hitCount = state.hitCount;
    this.listedAt.set(state.listedAt);
    this.span.set(state.span);
    this.brokenLast = state.brokenLast ?? false;
  }

  /**
   * Adds hit (p; a, b, c) of triangle `t` (`p` as `~p` where a stick joins it to a corner), due
   * when its particles' odometers sum to `due[0]` (m), with the side it had before the listing.
   */
  addHit(p: number, a: number, b: number, c: number, t: number, due: Float64Array): void {
    if (this.hitCount * 4 === this.hits.length) {
      this.hits = grow(this.hits);
      this.hitDue = growClearance(this.hitDue, this.hits.length / 4);
      const triangles = new Int32Array(this.hits.length / 4);
      triangles.set(this.hitTriangle);
      this.hitTriangle = triangles;
      const sides = new Int8Array(this.hits.length / 4);
      sides.set(this.sides);
      this.sides = sides;
    }
    this.hitDue[this.hitCount] = due[0]!;
    const o = this.hitCount * 4;
    this.hits[o] = p;
    this.hits[o + 1] = a;
    this.hits[o + 2] = b;
    this.hits[o + 3] = c;
    this.hitTriangle[this.hitCount] = t;
    this.sides[this.hitCount] = this.carriedSide(p < 0 ? ~p : p, t);
    this.hitCount++;
  }
}

function growClearance(array: Float64Array, length: number): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(length);
  bigger.set(array);
  return bigger;
}

function grow(array: Int32Array): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/** Layout of a {@link SelfContactList}'s latest listing's numbers (m). */
export const enum Span {
  /** The skin it was listed with: the body's, plus {@link Span.Sweep}. */
  Skin = 0,
  /** The thickness plus that skin: how near a pair it took. */
  Reach = 1,
  Thickness = 2,
  /** What the substep's moves added to the skin: twice the largest (0 without triangles). */
  Sweep = 3,
  /**
   * Twice the largest move of the running substep ({@link SelfContactList.findStrays}): a pair
   * nearer than the thickness plus this may pass through in one move, and is looked at every pass.
   */
  Moves = 4,
  Size = 5,
}

/** What a snapshot keeps of a {@link SelfContactList} (plain data). */
export interface SelfContactListState {
  pairs: SavedFront<Int32Array>;
  pairCount: number;
  hits: SavedFront<Int32Array>;
  sides: SavedFront<Int8Array>;
  hitTriangle: SavedFront<Int32Array>;
  carriedTriangles: number;
  pairDue: SavedFront<Float64Array>;
  hitDue: SavedFront<Float64Array>;
  odometer: Float64Array;
  lastPass: Float64Array;
  hitCount: number;
  listedAt: Float64Array;
  span: Float64Array;
  /** Absent in snapshots from before it was kept. */
  brokenLast?: boolean;
}
