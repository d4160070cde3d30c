import { ParticleFlag, type ParticleStore } from '../particles.js';
import { keepFront, restoreFront, type SavedFront } from './savedArrays.js';
import { SpatialHash } from './spatialHash.js';
import { JoinMarks } from './stickNeighbours.js';
import { Foot, footOnFrame, Frame, triangleFrame } from './triangleFoot.js';

/**
 * The broad phase of one body's self-collision: the pairs that can touch,
 * listed from one hashed grid of the body's particles (a Verlet list). A
 * listing takes every pair within `reach` (the thickness plus a skin) of each
 * other at the positions of the moment: particle pairs no stick joins, and,
 * where the body has triangles, each particle with the triangles it is not a
 * corner of. The list holds while no pair can have closed the skin since:
 * {@link SelfContactList.strayed} says when it must be made again.
 *
 * ```
 *   particles ──counting sort──▶ grid (cells ≥ reach)
 *        │                          │
 *        │  27 cells around each    │  cells under each triangle's box
 *        ▼                          ▼
 *   particle pairs (i, j)      particle–triangle hits (p; a, b, c)
 * ```
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
  /** Per hit, the side of the triangle its particle is held on (±1), 0 while it has none. */
  sides = new Int8Array(128);
  /**
   * Per pair, then per hit: how far apart it was at the listing beyond the thickness (m), a lower
   * bound. A pass skips a pair whose particles have not moved that far since between them.
   */
  pairClearance = new Float64Array(128);
  hitClearance = new Float64Array(128);
  /** Where each particle of the body was at the latest listing (xyz, body-relative index). */
  readonly listedAt: Float64Array;
  /** Per particle (body-relative), its move since the latest listing less the body's mean (m): see {@link SelfContactList.measureMoves}. */
  readonly moved: Float64Array;
  private readonly hash = new SpatialHash();
  private ids: Int32Array;
  /** The live particles' positions in the grid's order (xyz per entry). */
  private sorted = new Float64Array(0);
  private readonly joins: JoinMarks;
  private readonly box = new Float64Array(6);
  private readonly at = new Float64Array(3);
  private readonly foot = new Float64Array(Foot.Size);
  private readonly frame = new Float64Array(Frame.Size);

  /**
   * @param first,count the particle range of the body (slots).
   * @param joinedStart,joined stick neighbours as compressed rows (body-relative): see `stickNeighbours`.
   */
  constructor(
    private readonly first: number,
    private readonly count: number,
    private readonly joinedStart: Int32Array,
    private readonly joined: Int32Array,
  ) {
    this.listedAt = new Float64Array(count * 3);
    this.moved = new Float64Array(count);
    this.ids = new Int32Array(count);
    this.joins = new JoinMarks(first, count, joinedStart, joined);
    // Eight buckets a particle: in a pile, fewer let far cells share buckets (a probe of
    // issue 28 read 135k candidates a substep on the 64² drop at two, 44k at eight).
    this.hash.bucketsPerItem = 8;
  }

  /**
   * Lists every pair within `limits[0]` (the reach, m) at the positions of now,
   * over a grid of cells `limits[1]` wide (at least the reach), with its clearance
   * beyond the thickness `limits[3]`; triangle hits
   * only when `triangleCount` > 0. Sides start unknown. Allocates only when the
   * lists outgrow every earlier one.
   */
  list(particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number, limits: Float64Array): void {
    this.moved.fill(0);
    const pos = particles.position;
    const flags = particles.flags;
    const first = this.first;
    const ids = this.ids;
    let alive = 0;
    for (let k = 0; k < this.count; k++) {
      const i = first + k;
      this.listedAt[k * 3] = pos[i * 3]!;
      this.listedAt[k * 3 + 1] = pos[i * 3 + 1]!;
      this.listedAt[k * 3 + 2] = pos[i * 3 + 2]!;
      if ((flags[i]! & ParticleFlag.Alive) !== 0) ids[alive++] = i;
    }
    const reach = limits[0]!;
    const hash = this.hash;
    hash.cellSize = limits[1]!;
    hash.build(pos, ids, alive);
    this.pairCount = 0;
    this.hitCount = 0;
    this.listPairs(pos, alive, reach * reach, limits[3]!);
    if (triangleCount > 0) this.listHits(pos, flags, triangles, triangleCount, reach, limits[3]!);
    if (this.sides.length < this.hitCount) this.sides = new Int8Array(this.hits.length / 4);
    this.sides.fill(0, 0, this.hitCount);
  }

  /**
   * Whether two particles may have closed the skin since the latest listing:
   * their moves since ({@link SelfContactList.measureMoves}) sum to more than
   * `limits[2]` (the skin, m) for the two that moved most.
   */
  strayed(particles: ParticleStore, limits: Float64Array): boolean {
    return this.measureMoves(particles) > limits[2]!;
  }

  /**
   * Sets {@link SelfContactList.moved}: how far each particle has moved since the
   * latest listing, less the body's mean move (a body moving as a whole brings no
   * pair closer); returns the sum of the two largest. Allocates nothing.
   */
  measureMoves(particles: ParticleStore): number {
    const pos = particles.position;
    const flags = particles.flags;
    const at = this.listedAt;
    const moved = this.moved;
    const first = this.first;
    let mx = 0;
    let my = 0;
    let mz = 0;
    let n = 0;
    for (let k = 0; k < this.count; k++) {
      const i = first + k;
      if ((flags[i]! & ParticleFlag.Alive) === 0) continue;
      mx += pos[i * 3]! - at[k * 3]!;
      my += pos[i * 3 + 1]! - at[k * 3 + 1]!;
      mz += pos[i * 3 + 2]! - at[k * 3 + 2]!;
      n++;
    }
    if (n === 0) return 0;
    mx /= n;
    my /= n;
    mz /= n;
    let most = 0;
    let next = 0;
    for (let k = 0; k < this.count; k++) {
      const i = first + k;
      const dx = pos[i * 3]! - at[k * 3]! - mx;
      const dy = pos[i * 3 + 1]! - at[k * 3 + 1]! - my;
      const dz = pos[i * 3 + 2]! - at[k * 3 + 2]! - mz;
      const m = Math.sqrt(dx * dx + dy * dy + dz * dz);
      moved[k] = m;
      if ((flags[i]! & ParticleFlag.Alive) === 0 || m <= next) continue;
      if (m > most) {
        next = most;
        most = m;
      } else next = m;
    }
    return most + next;
  }

  /** The lists and sides, for snapshots: plain data (copies). */
  saveState(): SelfContactListState {
    return {
      pairs: keepFront(this.pairs, this.pairCount * 2),
      pairCount: this.pairCount,
      hits: keepFront(this.hits, this.hitCount * 4),
      sides: keepFront(this.sides, this.hitCount),
      pairClearance: keepFront(this.pairClearance, this.pairCount),
      hitClearance: keepFront(this.hitClearance, this.hitCount),
      hitCount: this.hitCount,
      listedAt: this.listedAt.slice(),
    };
  }

  /** Returns to {@link SelfContactList.saveState}'s copy (copied again). */
  loadState(state: SelfContactListState): void {
    this.pairs = restoreFront(state.pairs);
    this.pairCount = state.pairCount;
    this.hits = restoreFront(state.hits);
    this.sides = restoreFront(state.sides);
    this.pairClearance = restoreFront(state.pairClearance);
    this.hitClearance = restoreFront(state.hitClearance);
    this.hitCount = state.hitCount;
    this.listedAt.set(state.listedAt);
  }

  /**
   * Particle pairs nearer than √reach2 that no stick joins, each once: from the
   * particle in the lower cell (x, then y, then z), or, in one cell, from the one
   * sorted first. Each particle reads its own cell and the 13 after it.
   */
  private listPairs(pos: Float64Array, alive: number, reach2: number, thickness: number): void {
    const hash = this.hash;
    const joins = this.joins;
    const entries = hash.entries;
    // The positions in the grid's order: a bucket's candidates are read from one run of memory.
    if (this.sorted.length < alive * 3) this.sorted = new Float64Array(this.ids.length * 3);
    const sorted = this.sorted;
    for (let e = 0; e < alive; e++) {
      const j = entries[e]!;
      sorted[e * 3] = pos[j * 3]!;
      sorted[e * 3 + 1] = pos[j * 3 + 1]!;
      sorted[e * 3 + 2] = pos[j * 3 + 2]!;
    }
    const at = this.at;
    for (let s = 0; s < alive; s++) {
      const i = entries[s]!;
      const x = sorted[s * 3]!;
      const y = sorted[s * 3 + 1]!;
      const z = sorted[s * 3 + 2]!;
      at[0] = x;
      at[1] = y;
      at[2] = z;
      const n = hash.forwardBuckets(at);
      const cx = hash.cellOf(x);
      const cy = hash.cellOf(y);
      const cz = hash.cellOf(z);
      joins.mark(i);
      const buckets = hash.buckets;
      const start = hash.cellStart;
      for (let q = 0; q < n; q++) {
        const b = buckets[q]!;
        for (let e = start[b]!; e < start[b + 1]!; e++) {
          const dx = sorted[e * 3]! - x;
          const dy = sorted[e * 3 + 1]! - y;
          const dz = sorted[e * 3 + 2]! - z;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= reach2) continue;
          // Found from this side only: the other particle's cell is after this one's, or it is
          // the same cell and the other is sorted after. (Cells sharing a bucket bring in
          // particles of cells before, and of this one sorted before: those find the pair.)
          const ex = hash.cellOf(sorted[e * 3]!);
          const ey = hash.cellOf(sorted[e * 3 + 1]!);
          const ez = hash.cellOf(sorted[e * 3 + 2]!);
          if (ex === cx && ey === cy && ez === cz ? e <= s : ex < cx || (ex === cx && (ey < cy || (ey === cy && ez < cz)))) continue;
          const j = entries[e]!;
          if (joins.has(i, j)) continue;
          if (this.pairCount * 2 === this.pairs.length) {
            this.pairs = grow(this.pairs);
            this.pairClearance = growClearance(this.pairClearance, this.pairs.length / 2);
          }
          this.pairClearance[this.pairCount] = Math.sqrt(d2) - thickness;
          this.pairs[this.pairCount * 2] = i;
          this.pairs[this.pairCount * 2 + 1] = j;
          this.pairCount++;
        }
      }
    }
  }

  /** Each live triangle with every particle, not one of its corners, within `reach` of it. */
  private listHits(pos: Float64Array, flags: Uint8Array, triangles: ArrayLike<number>, triangleCount: number, reach: number, thickness: number): void {
    const hash = this.hash;
    const box = this.box;
    const foot = this.foot;
    const frame = this.frame;
    const at = this.at;
    const sorted = this.sorted;
    const reach2 = reach * reach;
    const skin2 = (reach - thickness) * (reach - thickness);
    for (let t = 0; t < triangleCount; t++) {
      const a = triangles[t * 3]!;
      const b = triangles[t * 3 + 1]!;
      const c = triangles[t * 3 + 2]!;
      if ((flags[a]! & flags[b]! & flags[c]! & ParticleFlag.Alive) === 0 || !triangleFrame(pos, a, b, c, frame)) continue;
      for (let k = 0; k < 3; k++) {
        const pa = pos[a * 3 + k]!;
        const pb = pos[b * 3 + k]!;
        const pc = pos[c * 3 + k]!;
        box[k] = Math.min(pa, pb, pc) - reach;
        box[k + 3] = Math.max(pa, pb, pc) + reach;
      }
      const n = hash.boxBuckets(box);
      const buckets = hash.buckets;
      const start = hash.cellStart;
      const entries = hash.entries;
      for (let q = 0; q < n; q++) {
        const bucket = buckets[q]!;
        for (let e = start[bucket]!; e < start[bucket + 1]!; e++) {
          const x = sorted[e * 3]!;
          const y = sorted[e * 3 + 1]!;
          const z = sorted[e * 3 + 2]!;
          if (x < box[0]! || x > box[3]! || y < box[1]! || y > box[4]! || z < box[2]! || z > box[5]!) continue;
          const p = entries[e]!;
          if (p === a || p === b || p === c) continue;
          at[0] = x;
          at[1] = y;
          at[2] = z;
          footOnFrame(frame, at, foot);
          const height = foot[Foot.Height]!;
          const far2 = height * height + foot[Foot.Outside2]!;
          if (far2 >= reach2) continue;
          const joined = this.isJoined(p, a, b, c);
          // A stick neighbour of a corner is held only over the triangle (a fold tighter than a
          // spacing); its foot farther outside than the skin cannot come over before the next
          // listing. In a sheet lying flat that is every particle next to its own triangles.
          if (joined && foot[Foot.Outside2]! > skin2) continue;
          if (this.hitClearance.length === this.hitCount) this.hitClearance = growClearance(this.hitClearance, this.hitCount * 2);
          this.hitClearance[this.hitCount] = Math.sqrt(far2) - thickness;
          this.addHit(joined ? ~p : p, a, b, c);
        }
      }
    }
  }

  private addHit(p: number, a: number, b: number, c: number): void {
    if (this.hitCount * 4 === this.hits.length) this.hits = grow(this.hits);
    const o = this.hitCount * 4;
    this.hits[o] = p;
    this.hits[o + 1] = a;
    this.hits[o + 2] = b;
    this.hits[o + 3] = c;
    this.hitCount++;
  }

  /** Whether a stick joins particle `p` to `a`, `b` or `c` (slots). */
  private isJoined(p: number, a: number, b: number, c: number): boolean {
    const first = this.first;
    const k = p - first;
    for (let e = this.joinedStart[k]!; e < this.joinedStart[k + 1]!; e++) {
      const j = this.joined[e]! + first;
      if (j === a || j === b || j === c) return true;
    }
    return false;
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

/** What a snapshot keeps of a {@link SelfContactList} (plain data). */
export interface SelfContactListState {
  pairs: SavedFront<Int32Array>;
  pairCount: number;
  hits: SavedFront<Int32Array>;
  sides: SavedFront<Int8Array>;
  pairClearance: SavedFront<Float64Array>;
  hitClearance: SavedFront<Float64Array>;
  hitCount: number;
  listedAt: Float64Array;
}
