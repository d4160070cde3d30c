import type { ParticleStore } from '../particles.js';
import { ParticleFlag } from '../particles.js';
import { ParticleGrid } from './particleGrid.js';
import { Span, type SelfContactList } from './selfContactList.js';
import { JoinMarks } from './stickNeighbours.js';
import { Frame, triangleFrame } from './triangleFoot.js';

/**
 * The broad phase of one body's self-collision: fills a {@link SelfContactList}
 * with every pair within the thickness plus the listing's skin, at the places
 * the particles were listed at (`list.listedAt`, body-relative), from a dense
 * grid of the body's particles with cells as wide as that reach, built again
 * for each listing (a counting sort). A whole listing takes every pair; a
 * listing of strays only those with a stray in them, against the places the
 * others were listed at (particle pairs alone: with triangles, every listing is
 * a whole one).
 *
 * ```
 *   particles ──counting sort──▶ grid (cells ≥ reach, rows of x)
 *        each cell ── own row onward, 4 rows after ──▶ particle pairs (i, j)
 *        each triangle ── the rows its box grown by the reach covers ──▶ hits (p; a, b, c)
 *        each stray (particle pairs alone) ── the 27 cells about it ──▶ its pairs
 * ```
 */
export class SelfContactSearch {
  private readonly grid: ParticleGrid;
  private readonly joins: JoinMarks;
  /** The body's live particles (slots). */
  private readonly live: Int32Array;
  /** The key of the latest triangle's corner marks (negative: particles mark with their slot + 1). */
  private triangleKey = 0;
  /** Whether the triangle being listed has marked its corners' neighbours yet. */
  private cornersMarked = false;
  /** The rows after a cell's own: first and last entry + 1 of each, four rows at most. */
  private readonly rows = new Int32Array(8);
  private readonly frame = new Float64Array(Frame.Size);
  /** A triangle's box grown by the reach (least x, y, z, most x, y, z; m), and the block of cells it covers. */
  private readonly box = new Float64Array(6);
  private readonly block = new Int32Array(6);
  /** A hit found: its squared distance from the triangle, and the part of it beside the triangle (m²). */
  private readonly near = new Float64Array(2);
  /**
   * A pair's due, for the list, then how much nearer than their listed places two particles
   * can be now (0 in a whole listing; half the skin against a particle listed earlier): doubles
   * in an array, so that none crosses a call.
   */
  private readonly due = new Float64Array(2);

  /**
   * @param first,count the particle range of the body (slots).
   * @param joinedStart,joined stick neighbours as compressed rows (body-relative): see `stickNeighbours`.
   */
  constructor(
    private readonly first: number,
    count: number,
    joinedStart: Int32Array,
    joined: Int32Array,
  ) {
    this.grid = new ParticleGrid(first, count);
    this.joins = new JoinMarks(first, count, joinedStart, joined);
    this.live = new Int32Array(count);
  }

  /**
   * Lists every pair within the reach `list.span` holds ({@link SelfContactList.begin} sets it),
   * the triangles' hits only when `triangleCount` > 0. Allocates nothing.
   */
  search(list: SelfContactList, particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number): void {
    if (!this.buildGrid(list, particles, false)) return;
    this.due[1] = 0;
    this.listPairs(list);
    if (triangleCount > 0) this.listHits(list, particles.flags, triangles, triangleCount);
  }

  /**
   * Lists the particle pairs within the reach with a stray in them, of a body listed without
   * triangles ({@link SelfContactList.beginStrays} took out the old ones): each stray with
   * every particle. Allocates nothing.
   */
  searchStrays(list: SelfContactList, particles: ParticleStore): void {
    if (!this.buildGrid(list, particles, true)) return;
    // The others may have moved half the skin since they were listed.
    this.due[1] = list.span[Span.Skin]! / 2;
    for (let s = 0; s < list.strayCount; s++) this.strayPairs(list, list.strays[s]!);
  }

  /** What a snapshot keeps of the search: the grid's box and cells, which a listing of strays sorts into again. */
  saveState(): Float64Array {
    return this.grid.saveState();
  }

  /** Returns to {@link SelfContactSearch.saveState}'s grid, the particles' cells worked out at `list.listedAt`; without one, the next listing sorts afresh. */
  loadState(state: Float64Array | undefined, list: SelfContactList): void {
    this.grid.loadState(state, list.listedAt);
  }

  /**
   * Sorts the live particles into the grid at their listed places; false when none lives.
   * `strays`: only the strays were listed again since the latest sort, which keeps its box and
   * works out only their cells (a whole sort took as long as listing 250 strays).
   */
  private buildGrid(list: SelfContactList, particles: ParticleStore, strays: boolean): boolean {
    const flags = particles.flags;
    let n = 0;
    for (let k = 0; k < this.live.length; k++) if ((flags[this.first + k]! & ParticleFlag.Alive) !== 0) this.live[n++] = this.first + k;
    if (strays) this.grid.resort(list.listedAt, this.live, n, list.span, Span.Reach, list.strays, list.strayCount);
    else this.grid.build(list.listedAt, this.live, n, list.span, Span.Reach);
    return n > 0;
  }

  /** Stray `i` (slot) with every particle within the reach of it no stick joins to it; a pair of strays once, from the lower slot. */
  private strayPairs(list: SelfContactList, i: number): void {
    const grid = this.grid;
    const { nx, ny, nz } = grid;
    // The cell it was sorted into.
    const c = grid.cellOfParticle[i - this.first]!;
    const cx = c % nx;
    const cy = ((c / nx) | 0) % ny;
    const cz = (c / (nx * ny)) | 0;
    const x0 = cx > 0 ? cx - 1 : 0;
    const x1 = cx + 1 < nx ? cx + 1 : nx - 1;
    this.joins.mark(i, i + 1);
    for (let z = cz > 0 ? cz - 1 : 0; z <= cz + 1 && z < nz; z++)
      for (let y = cy > 0 ? cy - 1 : 0; y <= cy + 1 && y < ny; y++) {
        const row = nx * (y + ny * z);
        this.pairsIn(list, i, grid.cellStart[row + x0]!, grid.cellStart[row + x1 + 1]!, true);
      }
  }

  /**
   * Particle pairs nearer than the reach that no stick joins, each once: a particle reads the
   * rest of its cell and the next cell of its row, then the three cells of the row after (y + 1)
   * and of the three rows of the layer after (z + 1). With cells at least the reach wide, the
   * 13 cells after a cell and its own hold every partner not found from the other side.
   */
  private listPairs(list: SelfContactList): void {
    const grid = this.grid;
    const { nx, ny, nz } = grid;
    const start = grid.cellStart;
    const rows = this.rows;
    for (let z = 0; z < nz; z++) {
      for (let y = 0; y < ny; y++) {
        const row = nx * (y + ny * z);
        for (let x = 0; x < nx; x++) {
          const c = row + x;
          if (start[c] === start[c + 1]) continue;
          const x0 = x > 0 ? x - 1 : 0;
          const x1 = x + 1 < nx ? x + 1 : x;
          let n = 0;
          if (y + 1 < ny) {
            const r = row + nx;
            rows[n++] = start[r + x0]!;
            rows[n++] = start[r + x1 + 1]!;
          }
          if (z + 1 < nz) {
            for (let dy = y > 0 ? -1 : 0; dy <= 1 && y + dy < ny; dy++) {
              const r = row + nx * ny + nx * dy;
              rows[n++] = start[r + x0]!;
              rows[n++] = start[r + x1 + 1]!;
            }
          }
          const ownEnd = start[row + x1 + 1]!;
          for (let s = start[c]!; s < start[c + 1]!; s++) {
            const i = grid.entries[s]!;
            this.joins.mark(i, i + 1);
            this.pairsIn(list, i, s + 1, ownEnd, false);
            for (let r = 0; r < n; r += 2) this.pairsIn(list, i, rows[r]!, rows[r + 1]!, false);
          }
        }
      }
    }
  }

  /**
   * Lists particle `i` (slot; its stick neighbours marked) with each particle of the grid's
   * entries `from` .. `to` within the reach of it that no stick joins to it; `strays`: a stray
   * listed alone, which skips itself, and another stray of a lower slot (that one lists the pair).
   */
  private pairsIn(list: SelfContactList, i: number, from: number, to: number, strays: boolean): void {
    const grid = this.grid;
    const sorted = grid.sorted;
    const entries = grid.entries;
    const span = list.span;
    const reach2 = span[Span.Reach]! * span[Span.Reach]!;
    const points = list.listedAt;
    const k = i - this.first;
    const x = points[k * 3]!;
    const y = points[k * 3 + 1]!;
    const z = points[k * 3 + 2]!;
    for (let e = from; e < to; e++) {
      const dx = sorted[e * 3]! - x;
      const dy = sorted[e * 3 + 1]! - y;
      const dz = sorted[e * 3 + 2]! - z;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 >= reach2) continue;
      const j = entries[e]!;
      if (this.joins.has(j, i + 1) || (strays && (j === i || (list.strayed[j - this.first] === 1 && j < i)))) continue;
      const odometer = list.odometer;
      // As a hit: within the substep's moves of the thickness, due in the next pass.
      const gap = Math.sqrt(d2) - span[Span.Thickness]! - this.due[1]!;
      this.due[0] = (gap > span[Span.Moves]! ? gap : 0) + odometer[k]! + odometer[j - this.first]!;
      list.addPair(i, j, this.due);
    }
  }

  /**
   * Each live triangle with every particle, not one of its corners, within the reach of it: the
   * triangle's box grown by the reach covers a block of cells, read row by row. The foot of each
   * particle in the block is taken here, from the triangle's frame held in locals (the same
   * arithmetic as `footOnFrame`): a call per particle in the ball, writing its point and foot
   * into arrays, cost more than the arithmetic.
   */
  private listHits(list: SelfContactList, flags: Uint8Array, triangles: ArrayLike<number>, triangleCount: number): void {
    const grid = this.grid;
    const { nx, ny } = grid;
    const reach = list.span[Span.Reach]!;
    const reach2 = reach * reach;
    const frame = this.frame;
    const first = this.first;
    const points = list.listedAt;
    const start = grid.cellStart;
    const sorted = grid.sorted;
    const entries = grid.entries;
    for (let t = 0; t < triangleCount; t++) {
      const a = triangles[t * 3]!;
      const b = triangles[t * 3 + 1]!;
      const c = triangles[t * 3 + 2]!;
      const ka = a - first;
      const kb = b - first;
      const kc = c - first;
      if ((flags[a]! & flags[b]! & flags[c]! & ParticleFlag.Alive) === 0 || !triangleFrame(points, ka, kb, kc, frame)) continue;
      const ax = frame[Frame.AX]!;
      const ay = frame[Frame.AY]!;
      const az = frame[Frame.AZ]!;
      const bx = points[kb * 3]!;
      const by = points[kb * 3 + 1]!;
      const bz = points[kb * 3 + 2]!;
      const cx = points[kc * 3]!;
      const cy = points[kc * 3 + 1]!;
      const cz = points[kc * 3 + 2]!;
      // A ball about the centroid through the farthest corner, grown by the reach: most particles
      // of the box outside the triangle's plane's near part are outside it (cheaper than a foot).
      const gx = (ax + bx + cx) / 3;
      const gy = (ay + by + cy) / 3;
      const gz = (az + bz + cz) / 3;
      const ga = (ax - gx) * (ax - gx) + (ay - gy) * (ay - gy) + (az - gz) * (az - gz);
      const gb = (bx - gx) * (bx - gx) + (by - gy) * (by - gy) + (bz - gz) * (bz - gz);
      const gc = (cx - gx) * (cx - gx) + (cy - gy) * (cy - gy) + (cz - gz) * (cz - gz);
      const ball = Math.sqrt(ga > gb ? (ga > gc ? ga : gc) : gb > gc ? gb : gc) + reach;
      const ball2 = ball * ball;
      // The block of cells the box grown by the reach covers, clamped into the grid.
      const box = this.box;
      box[0] = Math.min(ax, bx, cx) - reach;
      box[1] = Math.min(ay, by, cy) - reach;
      box[2] = Math.min(az, bz, cz) - reach;
      box[3] = Math.max(ax, bx, cx) + reach;
      box[4] = Math.max(ay, by, cy) + reach;
      box[5] = Math.max(az, bz, cz) + reach;
      const block = this.block;
      grid.blockOf(box, block);
      const x0 = block[0]!;
      const y0 = block[1]!;
      const z0 = block[2]!;
      const x1 = block[3]!;
      const y1 = block[4]!;
      const z1 = block[5]!;
      const e1x = frame[Frame.E1X]!;
      const e1y = frame[Frame.E1Y]!;
      const e1z = frame[Frame.E1Z]!;
      const e2x = frame[Frame.E2X]!;
      const e2y = frame[Frame.E2Y]!;
      const e2z = frame[Frame.E2Z]!;
      const normalX = frame[Frame.NX]!;
      const normalY = frame[Frame.NY]!;
      const normalZ = frame[Frame.NZ]!;
      const d00 = frame[Frame.D00]!;
      const d01 = frame[Frame.D01]!;
      const d11 = frame[Frame.D11]!;
      const heightA = frame[Frame.HeightA]!;
      const heightB = frame[Frame.HeightB]!;
      const heightC = frame[Frame.HeightC]!;
      this.cornersMarked = false;
      for (let z = z0; z <= z1; z++) {
        for (let y = y0; y <= y1; y++) {
          const row = nx * (y + ny * z);
          const end = start[row + x1 + 1]!;
          for (let e = start[row + x0]!; e < end; e++) {
            const sx = sorted[e * 3]!;
            const sy = sorted[e * 3 + 1]!;
            const sz = sorted[e * 3 + 2]!;
            if ((sx - gx) * (sx - gx) + (sy - gy) * (sy - gy) + (sz - gz) * (sz - gz) >= ball2) continue;
            const p = entries[e]!;
            if (p === a || p === b || p === c) continue;
            const px = sx - ax;
            const py = sy - ay;
            const pz = sz - az;
            const height = px * normalX + py * normalY + pz * normalZ;
            if (height * height >= reach2) continue;
            const d20 = px * e1x + py * e1y + pz * e1z;
            const d21 = px * e2x + py * e2y + pz * e2z;
            const v = d11 * d20 - d01 * d21;
            const u = d00 * d21 - d01 * d20;
            const s = 1 - v - u;
            // A negative weight times its corner's height over the opposite edge, the largest of them.
            const os = s < 0 ? s * s * heightA : 0;
            const ov = v < 0 ? v * v * heightB : 0;
            const ou = u < 0 ? u * u * heightC : 0;
            const outside2 = os > ov ? (os > ou ? os : ou) : ov > ou ? ov : ou;
            const far2 = height * height + outside2;
            if (far2 >= reach2) continue;
            this.near[0] = far2;
            this.near[1] = outside2;
            this.listHit(list, p, t, a, b, c);
          }
        }
      }
    }
  }

  /** Marks the stick neighbours of a triangle's corners with a key of their own. */
  private markCorners(a: number, b: number, c: number): void {
    if (this.triangleKey === -0x7fffffff) {
      this.joins.clear();
      this.triangleKey = 0;
    }
    const key = --this.triangleKey;
    this.joins.mark(a, key);
    this.joins.mark(b, key);
    this.joins.mark(c, key);
  }

  /**
   * Lists particle `p` (slot), within the reach of triangle `t` (a, b, c): its squared distance
   * from the triangle and the part of it beside the triangle in {@link SelfContactSearch.near}.
   */
  private listHit(list: SelfContactList, p: number, t: number, a: number, b: number, c: number): void {
    const span = list.span;
    const reach = span[Span.Reach]!;
    const thickness = span[Span.Thickness]!;
    const far2 = this.near[0]!;
    const outside2 = this.near[1]!;
    // The corners' stick neighbours, marked once per triangle, at its first particle near enough.
    if (!this.cornersMarked) {
      this.markCorners(a, b, c);
      this.cornersMarked = true;
    }
    const joined = this.joins.has(p, this.triangleKey);
    // A stick neighbour of a corner is held only over the triangle (a fold tighter than a
    // spacing); its foot farther outside than the skin cannot come over before the next
    // listing. In a sheet lying flat that is every particle next to its own triangles.
    const skin = reach - thickness;
    if (joined && outside2 > skin * skin) return;
    // Within the thickness and the substep's moves it is looked at in the next pass: one that
    // passed through the triangle in its move is as far from it as one that did not, and the
    // pass reads which side it came from.
    const far = Math.sqrt(far2) - this.due[1]!;
    const odometer = list.odometer;
    const first = this.first;
    this.due[0] = (far > thickness + span[Span.Sweep]! ? far - thickness : 0) + odometer[p - first]! + odometer[a - first]! + odometer[b - first]! + odometer[c - first]!;
    list.addHit(joined ? ~p : p, a, b, c, t, this.due);
  }
}
