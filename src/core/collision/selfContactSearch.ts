import { ParticleFlag, type ParticleStore } from '../particles.js';
import { Span, type SelfContactList } from './selfContactList.js';
import { SpatialHash } from './spatialHash.js';
import { JoinMarks } from './stickNeighbours.js';
import { Foot, footOnFrame, Frame, triangleFrame } from './triangleFoot.js';
import { TriangleGrid } from './triangleGrid.js';

/**
 * The broad phase of one body's self-collision: fills a {@link SelfContactList}
 * with every pair within the thickness plus the listing's skin, at the
 * positions of now. Particle pairs come from a hashed grid of the body's
 * particles; each particle's triangles from a grid of the triangles' boxes
 * grown by that reach, in the one cell the particle lies in. Both grids are
 * built again for each listing (counting sorts): nothing is kept between
 * listings but the list.
 *
 * ```
 *   particles ──counting sort──▶ grid of particles (cells ≥ reach) ── own cell and the 13 after ──▶ pairs (i, j)
 *   triangles ──grown by reach──▶ grid of boxes ── the particle's own cell ──▶ hits (p; a, b, c)
 * ```
 */
export class SelfContactSearch {
  private readonly hash = new SpatialHash();
  private readonly ids: Int32Array;
  /** The live particles' positions in the grid's order (xyz per entry). */
  private sorted = new Float64Array(0);
  /** Live particles sorted into the grid at the latest listing. */
  private alive = 0;
  private readonly joins: JoinMarks;
  /** The triangles' boxes grown by the reach (min xyz, max xyz each) and frames, at a listing. */
  private boxes = new Float64Array(0);
  private frames = new Float64Array(0);
  private readonly triangleGrid = new TriangleGrid();
  /** The grid's boxes in its entries' order (6 per entry), and per triangle the number of the latest particle's look that listed it. */
  private entryBoxes = new Float64Array(0);
  private seen = new Int32Array(0);
  private query = 0;
  /** A point (xyz) and a radius, for a grid query. */
  private readonly at = new Float64Array(4);
  private readonly foot = new Float64Array(Foot.Size);
  /** A pair's due, for the list (a double in an array, so that none crosses a call). */
  private readonly due = new Float64Array(1);

  /**
   * @param first,count the particle range of the body (slots).
   * @param joinedStart,joined stick neighbours as compressed rows (body-relative): see `stickNeighbours`.
   */
  constructor(
    private readonly first: number,
    private readonly count: number,
    joinedStart: Int32Array,
    joined: Int32Array,
  ) {
    this.ids = new Int32Array(count);
    this.joins = new JoinMarks(first, count, joinedStart, joined);
    // Eight buckets a particle: in a pile, fewer let far cells share buckets (a probe of
    // issue 28 read 135k candidates a substep on the 64² drop at two, 44k at eight).
    this.hash.bucketsPerItem = 8;
  }

  /**
   * Lists every pair within the reach `list.span` holds ({@link SelfContactList.begin} sets it),
   * the triangles' hits only when `triangleCount` > 0. Allocates only when the grids or lists
   * outgrow every earlier one.
   */
  search(list: SelfContactList, particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number, limits: Float64Array): void {
    const pos = particles.position;
    const flags = particles.flags;
    const ids = this.ids;
    let alive = 0;
    for (let k = 0; k < this.count; k++) if ((flags[this.first + k]! & ParticleFlag.Alive) !== 0) ids[alive++] = this.first + k;
    const hash = this.hash;
    hash.cellSize = Math.max(limits[1]!, list.span[Span.Reach]!);
    hash.build(pos, ids, alive);
    this.alive = alive;
    // The positions in the grid's order: a bucket's candidates are read from one run of memory.
    if (this.sorted.length < alive * 3) this.sorted = new Float64Array(this.count * 3);
    const sorted = this.sorted;
    const entries = hash.entries;
    for (let e = 0; e < alive; e++) {
      const j = entries[e]!;
      sorted[e * 3] = pos[j * 3]!;
      sorted[e * 3 + 1] = pos[j * 3 + 1]!;
      sorted[e * 3 + 2] = pos[j * 3 + 2]!;
    }
    this.listPairs(list, alive);
    if (triangleCount > 0) this.listHits(list, pos, flags, triangles, triangleCount);
  }

  /**
   * Particle pairs nearer than √reach2 that no stick joins, each once: from the
   * particle in the lower cell (x, then y, then z), or, in one cell, from the one
   * sorted first. Each particle reads its own cell and the 13 after it.
   */
  private listPairs(list: SelfContactList, alive: number): void {
    const span = list.span;
    const reach2 = span[Span.Reach]! * span[Span.Reach]!;
    const thickness = span[Span.Thickness]!;
    const due = this.due;
    const hash = this.hash;
    const joins = this.joins;
    const odometer = list.odometer;
    const first = this.first;
    // The grid's cells, as its build numbers them.
    const inverse = 1 / hash.cellSize;
    const entries = hash.entries;
    const sorted = this.sorted;
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
          due[0] = Math.sqrt(d2) - thickness + odometer[i - first]! + odometer[j - first]!;
          list.addPair(i, j, due);
        }
      }
    }
  }

  /**
   * Each particle with every live triangle, not one it is a corner of, within `reach` of it: the
   * triangles, grown by the reach, go into a grid of boxes, and each particle reads the one cell
   * it lies in.
   */
  private listHits(list: SelfContactList, pos: Float64Array, flags: Uint8Array, triangles: ArrayLike<number>, triangleCount: number): void {
    const reach = list.span[Span.Reach]!;
    const thickness = list.span[Span.Thickness]!;
    const due = this.due;
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
    // The boxes again in the grid's order: a cell's boxes are read from one run of memory.
    const total = grid.entryCount;
    const gridEntries = grid.entries;
    if (this.entryBoxes.length < total * 6) this.entryBoxes = new Float64Array(Math.max(total * 6, this.entryBoxes.length * 2));
    const entryBoxes = this.entryBoxes;
    for (let e = 0; e < total; e++) {
      const o = gridEntries[e]! * 6;
      for (let k = 0; k < 6; k++) entryBoxes[e * 6 + k] = boxes[o + k]!;
    }
    if (this.seen.length < triangleCount) this.seen = new Int32Array(Math.max(triangleCount, this.seen.length * 2));
    const seen = this.seen;
    const cellStart = grid.cellStart;
    const foot = this.foot;
    const at = this.at;
    const odometer = list.odometer;
    const first = this.first;
    const reach2 = reach * reach;
    const skin2 = (reach - thickness) * (reach - thickness);
    // The thickness plus what the substep's moves added to the skin (see SelfContactList.begin).
    const sweep = thickness + list.span[Span.Sweep]!;
    const entries = this.hash.entries;
    const sorted = this.sorted;
    const joins = this.joins;
    for (let e = 0; e < this.alive; e++) {
      const p = entries[e]!;
      const x = sorted[e * 3]!;
      const y = sorted[e * 3 + 1]!;
      const z = sorted[e * 3 + 2]!;
      at[0] = x;
      at[1] = y;
      at[2] = z;
      let marked = false;
      // The one cell it lies in, its boxes read in a run (a box lies in a cell once, but two of
      // its cells can share a bucket).
      const bucket = grid.bucketAt(at);
      if (this.query === 0x7fffffff) {
        seen.fill(0);
        this.query = 0;
      }
      const query = ++this.query;
      for (let f = cellStart[bucket]!; f < cellStart[bucket + 1]!; f++) {
        const o = f * 6;
        if (x < entryBoxes[o]! || x > entryBoxes[o + 3]! || y < entryBoxes[o + 1]! || y > entryBoxes[o + 4]! || z < entryBoxes[o + 2]! || z > entryBoxes[o + 5]!) continue;
        const t = gridEntries[f]!;
        if (seen[t] === query) continue;
        seen[t] = query;
        const a = triangles[t * 3]!;
        const b = triangles[t * 3 + 1]!;
        const c = triangles[t * 3 + 2]!;
        if (p === a || p === b || p === c) continue;
        footOnFrame(frames, t * Frame.Size, at, foot);
        const height = foot[Foot.Height]!;
        const far2 = height * height + foot[Foot.Outside2]!;
        if (far2 >= reach2) continue;
        // Its stick neighbours, marked once for all its triangles.
        if (!marked) {
          joins.mark(p);
          marked = true;
        }
        const joined = joins.has(p, a) || joins.has(p, b) || joins.has(p, c);
        // A stick neighbour of a corner is held only over the triangle (a fold tighter than a
        // spacing); its foot farther outside than the skin cannot come over before the next
        // listing. In a sheet lying flat that is every particle next to its own triangles.
        if (joined && foot[Foot.Outside2]! > skin2) continue;
        // Within the thickness and the substep's moves it is looked at in the next pass: one that
        // passed through the triangle in its move is as far from it as one that did not, and the
        // pass reads which side it came from.
        const far = Math.sqrt(far2);
        due[0] = (far > sweep ? far - thickness : 0) + odometer[p - first]! + odometer[a - first]! + odometer[b - first]! + odometer[c - first]!;
        list.addHit(joined ? ~p : p, a, b, c, t, due);
      }
    }
  }
}
