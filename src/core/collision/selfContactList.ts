import { ParticleFlag, type ParticleStore } from '../particles.js';
import { keepFront, restoreFront, type SavedFront } from './savedArrays.js';
import { SpatialHash } from './spatialHash.js';
import { JoinMarks } from './stickNeighbours.js';
import { Foot, footOnFrame, Frame, triangleFrame } from './triangleFoot.js';
import { TriangleGrid } from './triangleGrid.js';

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
   * Per pair, then per hit: the sum of its particles' odometers at which it may touch (m): the sum
   * when it was last seen apart plus how far apart it was beyond the thickness (a lower bound).
   * A pass skips a pair until its particles have travelled that far.
   */
  pairDue = new Float64Array(128);
  hitDue = new Float64Array(128);
  /** Per particle (body-relative), how far it has travelled, pass by pass (m). */
  readonly odometer: Float64Array;
  /** Per particle (body-relative), where it was at the latest {@link SelfContactList.advanceOdometers} (xyz). */
  private readonly lastPass: Float64Array;
  /** Where each particle of the body was at the latest listing (xyz, body-relative index). */
  readonly listedAt: Float64Array;
  private readonly hash = new SpatialHash();
  private ids: Int32Array;
  /** The live particles' positions in the grid's order (xyz per entry). */
  private sorted = new Float64Array(0);
  private readonly joins: JoinMarks;
  private readonly box = new Float64Array(6);
  /** A point (xyz) and a radius, for a grid query. */
  private readonly at = new Float64Array(4);
  private readonly foot = new Float64Array(Foot.Size);
  /** The triangles' boxes grown by the reach (min xyz, max xyz each) and frames, at a listing. */
  private boxes = new Float64Array(0);
  private frames = new Float64Array(0);
  private readonly triangleGrid = new TriangleGrid();
  /** Live particles sorted into the grid at the latest listing. */
  private alive = 0;

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
    this.odometer = new Float64Array(count);
    this.lastPass = new Float64Array(count * 3);
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
    this.advanceOdometers(particles.position);
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
    const hash = this.hash;
    hash.cellSize = limits[1]!;
    hash.build(pos, ids, alive);
    this.alive = alive;
    this.pairCount = 0;
    this.hitCount = 0;
    // The limits go as the array: a double passed to a call the JIT does not inline is boxed.
    this.listPairs(pos, alive, limits);
    if (triangleCount > 0) this.listHits(pos, flags, triangles, triangleCount, limits);
    if (this.sides.length < this.hitCount) this.sides = new Int8Array(this.hits.length / 4);
    this.sides.fill(0, 0, this.hitCount);
  }

  /**
   * Whether two particles may have closed the skin since the latest listing:
   * the two largest moves since, each less the body's mean move (a body moving
   * as a whole brings no pair closer), sum to more than `limits[2]` (the skin, m).
   * Allocates nothing.
   */
  strayed(particles: ParticleStore, limits: Float64Array): boolean {
    const pos = particles.position;
    const flags = particles.flags;
    const at = this.listedAt;
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
    if (n === 0) return false;
    mx /= n;
    my /= n;
    mz /= n;
    // The two largest, squared: a root for each of them only.
    let most = 0;
    let next = 0;
    for (let k = 0; k < this.count; k++) {
      const i = first + k;
      const dx = pos[i * 3]! - at[k * 3]! - mx;
      const dy = pos[i * 3 + 1]! - at[k * 3 + 1]! - my;
      const dz = pos[i * 3 + 2]! - at[k * 3 + 2]! - mz;
      const moved2 = dx * dx + dy * dy + dz * dz;
      if (moved2 <= next || (flags[i]! & ParticleFlag.Alive) === 0) continue;
      if (moved2 > most) {
        next = most;
        most = moved2;
      } else next = moved2;
    }
    return Math.sqrt(most) + Math.sqrt(next) > limits[2]!;
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
      pairDue: keepFront(this.pairDue, this.pairCount),
      hitDue: keepFront(this.hitDue, this.hitCount),
      odometer: this.odometer.slice(),
      lastPass: this.lastPass.slice(),
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
    this.pairDue = restoreFront(state.pairDue);
    this.hitDue = restoreFront(state.hitDue);
    this.odometer.set(state.odometer);
    this.lastPass.set(state.lastPass);
    this.hitCount = state.hitCount;
    this.listedAt.set(state.listedAt);
  }

  /**
   * Particle pairs nearer than √reach2 that no stick joins, each once: from the
   * particle in the lower cell (x, then y, then z), or, in one cell, from the one
   * sorted first. Each particle reads its own cell and the 13 after it.
   */
  private listPairs(pos: Float64Array, alive: number, limits: Float64Array): void {
    const reach2 = limits[0]! * limits[0]!;
    const thickness = limits[3]!;
    const hash = this.hash;
    const joins = this.joins;
    const odometer = this.odometer;
    const first = this.first;
    // The grid's cells, as its build numbers them.
    const inverse = 1 / hash.cellSize;
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
      const cx = Math.floor(x * inverse) | 0;
      const cy = Math.floor(y * inverse) | 0;
      const cz = Math.floor(z * inverse) | 0;
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
          const ex = Math.floor(sorted[e * 3]! * inverse) | 0;
          const ey = Math.floor(sorted[e * 3 + 1]! * inverse) | 0;
          const ez = Math.floor(sorted[e * 3 + 2]! * inverse) | 0;
          if (ex === cx && ey === cy && ez === cz ? e <= s : ex < cx || (ex === cx && (ey < cy || (ey === cy && ez < cz)))) continue;
          const j = entries[e]!;
          if (joins.has(i, j)) continue;
          if (this.pairCount * 2 === this.pairs.length) {
            this.pairs = grow(this.pairs);
            this.pairDue = growClearance(this.pairDue, this.pairs.length / 2);
          }
          this.pairDue[this.pairCount] = Math.sqrt(d2) - thickness + odometer[i - first]! + odometer[j - first]!;
          this.pairs[this.pairCount * 2] = i;
          this.pairs[this.pairCount * 2 + 1] = j;
          this.pairCount++;
        }
      }
    }
  }

  /**
   * Each particle with every live triangle, not one it is a corner of, within `reach` of it: the
   * triangles, grown by the reach, go into a grid of boxes, and each particle reads the one cell
   * it lies in.
   */
  private listHits(pos: Float64Array, flags: Uint8Array, triangles: ArrayLike<number>, triangleCount: number, limits: Float64Array): void {
    const reach = limits[0]!;
    const thickness = limits[3]!;
    if (this.boxes.length < triangleCount * 6) {
      this.boxes = new Float64Array(triangleCount * 6);
      this.frames = new Float64Array(triangleCount * Frame.Size);
    }
    const boxes = this.boxes;
    const frames = this.frames;
    let widths = 0;
    for (let t = 0; t < triangleCount; t++) {
      const a = triangles[t * 3]!;
      const b = triangles[t * 3 + 1]!;
      const c = triangles[t * 3 + 2]!;
      // A dead or flat triangle gets an empty box (min above max), which no point lies in.
      if ((flags[a]! & flags[b]! & flags[c]! & ParticleFlag.Alive) === 0 || !triangleFrame(pos, a, b, c, frames, t * Frame.Size)) {
        for (let k = 0; k < 3; k++) {
          boxes[t * 6 + k] = 0;
          boxes[t * 6 + 3 + k] = -1;
        }
        continue;
      }
      for (let k = 0; k < 3; k++) {
        const pa = pos[a * 3 + k]!;
        const pb = pos[b * 3 + k]!;
        const pc = pos[c * 3 + k]!;
        boxes[t * 6 + k] = Math.min(pa, pb, pc) - reach;
        boxes[t * 6 + 3 + k] = Math.max(pa, pb, pc) + reach;
      }
      widths += Math.max(boxes[t * 6 + 3]! - boxes[t * 6]!, boxes[t * 6 + 4]! - boxes[t * 6 + 1]!, boxes[t * 6 + 5]! - boxes[t * 6 + 2]!);
    }
    if (widths === 0) return;
    const grid = this.triangleGrid;
    // Cells as wide as a grown triangle's widest side on average: each box lies in a few cells.
    grid.cellSize = widths / triangleCount;
    grid.build(boxes, triangleCount);
    const foot = this.foot;
    const at = this.at;
    const odometer = this.odometer;
    const first = this.first;
    const reach2 = reach * reach;
    const skin2 = (reach - thickness) * (reach - thickness);
    const entries = this.hash.entries;
    const sorted = this.sorted;
    at[3] = 0;
    for (let e = 0; e < this.alive; e++) {
      const p = entries[e]!;
      const x = sorted[e * 3]!;
      const y = sorted[e * 3 + 1]!;
      const z = sorted[e * 3 + 2]!;
      at[0] = x;
      at[1] = y;
      at[2] = z;
      const n = grid.gather(at);
      const found = grid.found;
      for (let f = 0; f < n; f++) {
        const t = found[f]!;
        const o = t * 6;
        if (x < boxes[o]! || x > boxes[o + 3]! || y < boxes[o + 1]! || y > boxes[o + 4]! || z < boxes[o + 2]! || z > boxes[o + 5]!) continue;
        const a = triangles[t * 3]!;
        const b = triangles[t * 3 + 1]!;
        const c = triangles[t * 3 + 2]!;
        if (p === a || p === b || p === c) continue;
        footOnFrame(frames, t * Frame.Size, at, foot);
        const height = foot[Foot.Height]!;
        const far2 = height * height + foot[Foot.Outside2]!;
        if (far2 >= reach2) continue;
        const joined = this.isJoined(p, a, b, c);
        // A stick neighbour of a corner is held only over the triangle (a fold tighter than a
        // spacing); its foot farther outside than the skin cannot come over before the next
        // listing. In a sheet lying flat that is every particle next to its own triangles.
        if (joined && foot[Foot.Outside2]! > skin2) continue;
        if (this.hitDue.length === this.hitCount) this.hitDue = growClearance(this.hitDue, this.hitCount * 2);
        this.hitDue[this.hitCount] = Math.sqrt(far2) - thickness + odometer[p - first]! + odometer[a - first]! + odometer[b - first]! + odometer[c - first]!;
        this.addHit(joined ? ~p : p, a, b, c);
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
  pairDue: SavedFront<Float64Array>;
  hitDue: SavedFront<Float64Array>;
  odometer: Float64Array;
  lastPass: Float64Array;
  hitCount: number;
  listedAt: Float64Array;
}
