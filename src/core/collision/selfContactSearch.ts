import { ParticleFlag, type ParticleStore } from '../particles.js';
import { closestPointTriangle, PointTri } from './closestPoints.js';
import { JoinMarks } from './stickNeighbours.js';
import { ListedSelfPairs } from './listedSelfPairs.js';
import { SearchedAlone } from './searchedAlone.js';
import { TriangleGrid } from './triangleGrid.js';

/**
 * The search of a surface's self-contact ({@link SurfaceSelfContact}): which
 * particle–triangle and particle–particle pairs can come within `thickness`
 * while each particle stays within its allowance ({@link SelfContactSearch.motion})
 * of where it was searched ({@link SelfContactSearch.searched}), relative to
 * the body. The caller searches again once some particle could outgrow its
 * allowance in the coming step.
 *
 * A whole search ({@link SelfContactSearch.findAll}) lists every pair through
 * grids of the triangles' and particles' boxes ({@link TriangleGrid}). When
 * only a few particles have outgrown their allowances (a corner dragged over a
 * cloth lying still, the last of a cloth settling), {@link SelfContactSearch.findAround}
 * lists again only the pairs they are in, from the same grids: the pairs of the
 * others still hold. Allocates only when more pairs are listed than ever
 * before, or the body has more triangles than ever.
 */
export class SelfContactSearch {
  /** The listed pairs, indexed by particle. */
  readonly listed: ListedSelfPairs;
  /** Per particle of the body, its allowance (m): how far it may move from where it was searched (relative to the body) before it must be searched again. Set by the caller before a search. */
  readonly motion: Float64Array;
  /** Per particle of the body, where it was at its latest search less the body's mean position then (xyz). */
  readonly searched: Float64Array;
  /** The body's mean position at the latest whole search: the grids hold boxes at where particles were then. */
  private readonly gridCentre = new Float64Array(3);
  private readonly triangleGrid = new TriangleGrid();
  private readonly pointGrid = new TriangleGrid();
  /** The triangles' boxes in {@link SelfContactSearch.triangleGrid} (min xyz, max xyz). */
  private triangleBoxes = new Float64Array(0);
  /** The particles' boxes in {@link SelfContactSearch.pointGrid}, in the order of `ids`. */
  private pointBoxes = new Float64Array(0);
  /** The live particles at the latest whole search (the point grid's boxes are numbered by these). */
  private readonly ids: Int32Array;
  /** The particles searched alone since the latest whole search, and their triangles. */
  readonly alone: SearchedAlone;
  /** Per particle of the body, 1 while {@link SelfContactSearch.findAround} searches it. */
  private readonly current: Uint8Array;
  /** A grid query: x, y, z, half size; or, for a box query, min xyz, max xyz. */
  private readonly probe = new Float64Array(6);
  /** The stick neighbours of the particle being searched. */
  private readonly joins: JoinMarks;
  /** Scratch of {@link closestPointTriangle}. */
  private readonly buf = new Float64Array(PointTri.Size);

  /**
   * @param first,count the particle range of the body.
   * @param thickness least distance kept (m).
   * @param joinedStart,joined per particle first + k, its stick neighbours are joined[joinedStart[k] .. joinedStart[k + 1]) (body-relative).
   */
  constructor(
    private readonly first: number,
    private readonly count: number,
    readonly thickness: number,
    joinedStart: Int32Array,
    joined: Int32Array,
  ) {
    this.listed = new ListedSelfPairs(first, count);
    this.motion = new Float64Array(count);
    this.searched = new Float64Array(count * 3);
    this.alone = new SearchedAlone(first, count, thickness, this.searched, this.motion, this.triangleGrid, this.pointGrid);
    this.ids = new Int32Array(count);
    this.current = new Uint8Array(count);
    this.joins = new JoinMarks(first, count, joinedStart, joined);
  }

  /** What the next searches build on, for snapshots: plain data (copies; scratch that a search writes before it reads is left out). */
  saveState() {
    return {
      listed: this.listed.saveState(),
      alone: this.alone.saveState(),
      motion: this.motion.slice(),
      searched: this.searched.slice(),
      gridCentre: this.gridCentre.slice(),
      triangleGrid: this.triangleGrid.saveState(),
      pointGrid: this.pointGrid.saveState(),
      triangleBoxes: this.triangleBoxes.slice(),
      ids: this.ids.slice(),
    };
  }

  /** Returns to {@link SelfContactSearch.saveState}'s copy (copied again). */
  loadState(state: SelfContactSearchState): void {
    this.listed.loadState(state.listed);
    this.alone.loadState(state.alone);
    // In place: the edge contact shares the allowances.
    this.motion.set(state.motion);
    this.searched.set(state.searched);
    this.gridCentre.set(state.gridCentre);
    this.triangleGrid.loadState(state.triangleGrid);
    this.pointGrid.loadState(state.pointGrid);
    this.triangleBoxes = state.triangleBoxes.slice();
    this.ids.set(state.ids);
  }

  /** Pairs listed (particle–triangle and particle–particle). */
  get candidates(): number {
    return this.listed.candidates;
  }

  /** Particles searched alone since the latest whole search. */
  get searchedAlone(): number {
    return this.alone.movedCount;
  }

  /**
   * Lists every pair that can come within `thickness` while each particle stays within its
   * {@link SelfContactSearch.motion} of where it is now: those closer now than `thickness` plus
   * the two allowances (a triangle's is its corners' largest). `centre` is the body's mean
   * position now.
   */
  findAll(particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number, centre: Float64Array): void {
    const listed = this.listed;
    listed.clear();
    const flags = particles.flags;
    const pos = particles.position;
    const motion = this.motion;
    const first = this.first;
    const thickness = this.thickness;
    const ids = this.ids;
    const searched = this.searched;
    for (let k = 0; k < this.count; k++) {
      for (let v = 0; v < 3; v++) searched[k * 3 + v] = pos[(first + k) * 3 + v]! - centre[v]!;
    }
    this.gridCentre.set(centre);
    this.alone.forget();
    this.alone.listTriangles(triangles, triangleCount);
    let n = 0;
    for (let i = first; i < first + this.count; i++) if ((flags[i]! & ParticleFlag.Alive) !== 0) ids[n++] = i;
    if (n < 2) return;
    if (this.triangleBoxes.length < triangleCount * 6) this.triangleBoxes = new Float64Array(triangleCount * 6);
    if (this.pointBoxes.length < n * 6) this.pointBoxes = new Float64Array(this.count * 6);
    const boxes = this.triangleBoxes;
    const q = this.buf;
    const probe = this.probe;
    // Triangles, each in the cells its box grown by the thickness and its fastest corner's motion overlaps.
    let edges = 0;
    for (let t = 0; t < triangleCount; t++) {
      const a = triangles[t * 3]!;
      const b = triangles[t * 3 + 1]!;
      const c = triangles[t * 3 + 2]!;
      edges += Math.sqrt(Math.max(distance2(pos, a * 3, b * 3), distance2(pos, b * 3, c * 3), distance2(pos, c * 3, a * 3)));
      const grow = thickness + Math.max(motion[a - first]!, motion[b - first]!, motion[c - first]!);
      for (let k = 0; k < 3; k++) {
        boxes[t * 6 + k] = Math.min(pos[a * 3 + k]!, pos[b * 3 + k]!, pos[c * 3 + k]!) - grow;
        boxes[t * 6 + 3 + k] = Math.max(pos[a * 3 + k]!, pos[b * 3 + k]!, pos[c * 3 + k]!) + grow;
      }
    }
    if (triangleCount > 0) {
      const grid = this.triangleGrid;
      // Cells the size of a typical triangle (not the largest: one torn, stretched
      // triangle would make every cell hold hundreds); a large one spans several. But no
      // smaller than a typical particle's query: while a cloth deforms fast (a 64² cloth
      // wrapping round a ball) every triangle's box and every particle's query grow by
      // its allowance, up to a third of a metre each side, and with cells a triangle wide
      // each box lay in about a thousand cells and each query read as many: one search
      // took 1.1 s.
      let widths = 0;
      for (let k = 0; k < n; k++) widths += 2 * motion[ids[k]! - first]!;
      grid.cellSize = Math.max(edges / triangleCount, thickness, widths / n);
      grid.build(boxes, triangleCount);
      const neighbourStart = listed.neighbourStart;
      // Particles in order, so the neighbour pairs fall into rows; a dead particle has none.
      let row = 0;
      for (let k = 0; k < n; k++) {
        const i = ids[k]!;
        while (row <= i - first) neighbourStart[row++] = listed.neighbourCount;
        const x = pos[i * 3]!;
        const y = pos[i * 3 + 1]!;
        const z = pos[i * 3 + 2]!;
        const mi = motion[i - first]!;
        this.joins.mark(i);
        probe[0] = x;
        probe[1] = y;
        probe[2] = z;
        probe[3] = mi;
        const m = grid.gather(probe);
        const found = grid.found;
        for (let f = 0; f < m; f++) {
          const t = found[f]!;
          const o = t * 6;
          if (x < boxes[o]! - mi || x > boxes[o + 3]! + mi || y < boxes[o + 1]! - mi || y > boxes[o + 4]! + mi || z < boxes[o + 2]! - mi || z > boxes[o + 5]! + mi) continue;
          const a = triangles[t * 3]!;
          const b = triangles[t * 3 + 1]!;
          const c = triangles[t * 3 + 2]!;
          if (i === a || i === b || i === c) continue;
          for (let v = 0; v < 3; v++) {
            const corner = triangles[t * 3 + v]! * 3;
            q[PointTri.A + v * 3] = pos[corner]!;
            q[PointTri.A + v * 3 + 1] = pos[corner + 1]!;
            q[PointTri.A + v * 3 + 2] = pos[corner + 2]!;
          }
          q[0] = x;
          q[1] = y;
          q[2] = z;
          this.listIfNear(i, a, b, c, t);
        }
      }
      while (row <= this.count) neighbourStart[row++] = listed.neighbourCount;
      listed.neighbourRowsEnd = listed.neighbourCount;
    }
    // Particle pairs no stick joins (corners, borders, and where two sheets meet edge on):
    // each particle in the cells of its box grown by half the thickness and its motion.
    const points = this.pointBoxes;
    let widths = 0;
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      const grow = 0.5 * thickness + motion[i - first]!;
      widths += 2 * grow;
      for (let c = 0; c < 3; c++) {
        points[k * 6 + c] = pos[i * 3 + c]! - grow;
        points[k * 6 + 3 + c] = pos[i * 3 + c]! + grow;
      }
    }
    const grid = this.pointGrid;
    // Cells as wide as a box on average: most boxes then lie in one to eight cells.
    grid.cellSize = widths / n;
    grid.build(points, n);
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      probe[0] = pos[i * 3]!;
      probe[1] = pos[i * 3 + 1]!;
      probe[2] = pos[i * 3 + 2]!;
      probe[3] = 0.5 * thickness + motion[i - first]!;
      this.joins.mark(i);
      const m = grid.gather(probe);
      const found = grid.found;
      for (let f = 0; f < m; f++) {
        const j = ids[found[f]!]!;
        if (j <= i) continue;
        const near = thickness + motion[i - first]! + motion[j - first]!;
        if (distance2(pos, i * 3, j * 3) >= near * near || this.joins.has(i, j)) continue;
        listed.addPair(i, j, -1, -1, -1);
      }
    }
    listed.indexTouching();
  }

  /**
   * Lists again the pairs that `list[0 .. listCount)` (particles of the body, alive) are in, each
   * searched now with its {@link SelfContactSearch.motion} set anew, and only those: every other
   * listed pair still holds, both its sides within their allowances. `centre` is the body's mean
   * position now. The grids of the latest whole search find the others near them; the particles
   * searched alone since, and the triangles they are corners of, whose boxes there are out of
   * date, are found through small grids of their own made again here, so the caller searches
   * everything again once there are many of them ({@link SelfContactSearch.searchedAlone}).
   */
  findAround(particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number, centre: Float64Array, list: Int32Array, listCount: number): void {
    const pos = particles.position;
    const first = this.first;
    const searched = this.searched;
    const current = this.current;
    const alone = this.alone;
    for (let s = 0; s < listCount; s++) {
      const k = list[s]! - first;
      for (let v = 0; v < 3; v++) searched[k * 3 + v] = pos[(first + k) * 3 + v]! - centre[v]!;
      current[k] = 1;
      alone.mark(k);
    }
    alone.grid(triangles);
    for (let s = 0; s < listCount; s++) this.listed.dropTouching(list[s]! - first);
    this.listed.adding = true;
    const stamp = ++alone.localSearches;
    for (let s = 0; s < listCount; s++) {
      const i = list[s]!;
      this.findTrianglesNear(i, triangles, particles.flags);
      this.findParticlesNear(i, particles.flags);
      // Its triangles against the particles near them, each once.
      const k = i - first;
      for (let e = alone.triangleStart[k]!; e < alone.triangleStart[k + 1]!; e++) {
        const t = alone.triangleOf[e]!;
        if (t >= triangleCount || alone.triangleStamp[t] === stamp) continue;
        alone.triangleStamp[t] = stamp;
        this.findParticlesNearTriangle(t, triangles, particles.flags);
      }
    }
    this.listed.adding = false;
    for (let s = 0; s < listCount; s++) current[list[s]! - first] = 0;
    // Packed again once the dropped outnumber the rest.
    this.listed.packIfSparse();
  }

  /** Particle `i`, just searched alone: the triangles (none of whose corners is) it can come near. */
  private findTrianglesNear(i: number, triangles: ArrayLike<number>, flags: Uint8Array): void {
    const first = this.first;
    const searched = this.searched;
    const motion = this.motion;
    const k = i - first;
    const x = searched[k * 3]!;
    const y = searched[k * 3 + 1]!;
    const z = searched[k * 3 + 2]!;
    const mi = motion[k]!;
    this.joins.mark(i);
    // The grid's boxes are where the triangles were at the whole search: so is the query.
    const probe = this.probe;
    const centre = this.gridCentre;
    const px = x + centre[0]!;
    const py = y + centre[1]!;
    const pz = z + centre[2]!;
    probe[0] = px;
    probe[1] = py;
    probe[2] = pz;
    probe[3] = mi;
    const grid = this.triangleGrid;
    const boxes = this.triangleBoxes;
    const moved = this.alone.triangleMoved;
    const m = grid.gather(probe);
    const found = grid.found;
    for (let f = 0; f < m; f++) {
      const t = found[f]!;
      // One with a corner searched alone since is out of date here: below.
      if (moved[t] === 1) continue;
      const o = t * 6;
      if (px < boxes[o]! - mi || px > boxes[o + 3]! + mi || py < boxes[o + 1]! - mi || py > boxes[o + 4]! + mi || pz < boxes[o + 2]! - mi || pz > boxes[o + 5]! + mi) continue;
      this.testTriangle(i, t, triangles, flags, true);
    }
    probe[0] = x;
    probe[1] = y;
    probe[2] = z;
    const near = this.alone.movedTriangleGrid;
    const movedBoxes = this.alone.movedTriangleBoxes;
    const n = near.gather(probe);
    for (let f = 0; f < n; f++) {
      const e = near.found[f]!;
      const o = e * 6;
      if (x < movedBoxes[o]! - mi || x > movedBoxes[o + 3]! + mi || y < movedBoxes[o + 1]! - mi || y > movedBoxes[o + 4]! + mi || z < movedBoxes[o + 2]! - mi || z > movedBoxes[o + 5]! + mi) continue;
      this.testTriangle(i, this.alone.movedTriangles[e]!, triangles, flags, true);
    }
  }

  /** Lists particle `i` against triangle `t` if they can come within `thickness` (where each was searched), its stick neighbours marked first unless `marked`. */
  private testTriangle(i: number, t: number, triangles: ArrayLike<number>, flags: Uint8Array, marked: boolean): void {
    const a = triangles[t * 3]!;
    const b = triangles[t * 3 + 1]!;
    const c = triangles[t * 3 + 2]!;
    if (i === a || i === b || i === c) return;
    if ((flags[a]! & flags[b]! & flags[c]! & ParticleFlag.Alive) === 0) return;
    const first = this.first;
    const searched = this.searched;
    const motion = this.motion;
    const near = this.thickness + motion[i - first]! + Math.max(motion[a - first]!, motion[b - first]!, motion[c - first]!);
    const q = this.buf;
    const k = (i - first) * 3;
    const oa = (a - first) * 3;
    const ob = (b - first) * 3;
    const oc = (c - first) * 3;
    // Outside the triangle's box grown by how near counts: most candidates a grid returns.
    for (let v = 0; v < 3; v++) {
      const p = searched[k + v]!;
      const sa = searched[oa + v]!;
      const sb = searched[ob + v]!;
      const sc = searched[oc + v]!;
      if (p < Math.min(sa, sb, sc) - near || p > Math.max(sa, sb, sc) + near) return;
      q[v] = p;
      q[PointTri.A + v] = sa;
      q[PointTri.B + v] = sb;
      q[PointTri.C + v] = sc;
    }
    if (!marked) this.joins.mark(i);
    this.listIfNear(i, a, b, c, t);
  }

  /**
   * Particle `i` at `buf[0..3)` and triangle `t` (a, b, c) at `buf[A..C+3)`, in one frame: listed
   * if nearer than `thickness` plus both allowances (`joins.mark(i)` done).
   */
  private listIfNear(i: number, a: number, b: number, c: number, t: number): void {
    const q = this.buf;
    const motion = this.motion;
    const first = this.first;
    closestPointTriangle(q);
    const u = q[PointTri.U]!;
    const v = q[PointTri.V]!;
    const w = q[PointTri.W]!;
    const dx = q[0]! - (u * q[3]! + v * q[6]! + w * q[9]!);
    const dy = q[1]! - (u * q[4]! + v * q[7]! + w * q[10]!);
    const dz = q[2]! - (u * q[5]! + v * q[8]! + w * q[11]!);
    const near = this.thickness + motion[i - first]! + Math.max(motion[a - first]!, motion[b - first]!, motion[c - first]!);
    if (dx * dx + dy * dy + dz * dz >= near * near) return;
    // The side is remembered only for a particle over the triangle now: one beside it
    // may legitimately go round its edge to the other side during the step.
    // A stick neighbour of a corner beside the triangle is the sheet lying on (a crease
    // of one spacing is the sticks' business): listed, but left alone until it is over
    // the triangle, a tight fold. (Measured: leaving these out of the search altogether
    // kept the draped 64² cloth of the bench from settling, searched every step.)
    if (this.joins.has(i, a) || this.joins.has(i, b) || this.joins.has(i, c)) this.listed.addNeighbourPair(i, a, b, c, t);
    else this.listed.addPair(i, a, b, c, t);
  }

  /** Particle `i`, just searched alone: the particles no stick joins it to that it can come near (each pair of two searched now once). */
  private findParticlesNear(i: number, flags: Uint8Array): void {
    const first = this.first;
    const searched = this.searched;
    const motion = this.motion;
    const k = i - first;
    const probe = this.probe;
    const centre = this.gridCentre;
    probe[0] = searched[k * 3]! + centre[0]!;
    probe[1] = searched[k * 3 + 1]! + centre[1]!;
    probe[2] = searched[k * 3 + 2]! + centre[2]!;
    probe[3] = 0.5 * this.thickness + motion[k]!;
    this.joins.mark(i);
    const grid = this.pointGrid;
    const m = grid.gather(probe);
    const found = grid.found;
    for (let f = 0; f < m; f++) {
      const j = this.ids[found[f]!]!;
      if (this.alone.moved[j - first] === 0) this.testParticles(i, j, flags);
    }
    probe[0] = searched[k * 3]!;
    probe[1] = searched[k * 3 + 1]!;
    probe[2] = searched[k * 3 + 2]!;
    const near = this.alone.movedPointGrid;
    const n = near.gather(probe);
    for (let f = 0; f < n; f++) this.testParticles(i, first + this.alone.movedList[near.found[f]!]!, flags);
  }

  /** Lists particles `i` (just searched) and `j` if they can come within `thickness` (`joins.mark(i)` done). */
  private testParticles(i: number, j: number, flags: Uint8Array): void {
    const first = this.first;
    // Both searched now: listed from the first of the two only.
    if (j === i || (this.current[j - first] === 1 && j < i) || (flags[j]! & ParticleFlag.Alive) === 0) return;
    const searched = this.searched;
    const p = (i - first) * 3;
    const q = (j - first) * 3;
    const dx = searched[p]! - searched[q]!;
    const dy = searched[p + 1]! - searched[q + 1]!;
    const dz = searched[p + 2]! - searched[q + 2]!;
    const near = this.thickness + this.motion[i - first]! + this.motion[j - first]!;
    if (dx * dx + dy * dy + dz * dz >= near * near || this.joins.has(i, j)) return;
    this.listed.addPair(Math.min(i, j), Math.max(i, j), -1, -1, -1);
  }

  /** Triangle `t`, a corner of it just searched alone: the particles not searched now that it can come near. */
  private findParticlesNearTriangle(t: number, triangles: ArrayLike<number>, flags: Uint8Array): void {
    const first = this.first;
    const searched = this.searched;
    const motion = this.motion;
    const a = triangles[t * 3]!;
    const b = triangles[t * 3 + 1]!;
    const c = triangles[t * 3 + 2]!;
    if ((flags[a]! & flags[b]! & flags[c]! & ParticleFlag.Alive) === 0) return;
    // Its box, grown by the thickness and its corners' largest allowance, where the grid is.
    const grow = this.thickness + Math.max(motion[a - first]!, motion[b - first]!, motion[c - first]!);
    const probe = this.probe;
    const centre = this.gridCentre;
    for (let v = 0; v < 3; v++) {
      const sa = searched[(a - first) * 3 + v]!;
      const sb = searched[(b - first) * 3 + v]!;
      const sc = searched[(c - first) * 3 + v]!;
      probe[v] = Math.min(sa, sb, sc) - grow + centre[v]!;
      probe[3 + v] = Math.max(sa, sb, sc) + grow + centre[v]!;
    }
    const grid = this.pointGrid;
    const m = grid.gatherBox(probe, 0);
    const found = grid.found;
    for (let f = 0; f < m; f++) {
      const i = this.ids[found[f]!]!;
      if (this.alone.moved[i - first] === 0) this.testCorner(i, t, triangles, flags);
    }
    for (let v = 0; v < 6; v++) probe[v] = probe[v]! - centre[v % 3]!;
    const near = this.alone.movedPointGrid;
    const n = near.gatherBox(probe, 0);
    for (let f = 0; f < n; f++) {
      const i = first + this.alone.movedList[near.found[f]!]!;
      // One searched now found its triangles itself.
      if (this.current[i - first] === 0) this.testCorner(i, t, triangles, flags);
    }
  }

  /** Particle `i` (not searched now) against triangle `t`, a corner of which was. */
  private testCorner(i: number, t: number, triangles: ArrayLike<number>, flags: Uint8Array): void {
    if ((flags[i]! & ParticleFlag.Alive) === 0) return;
    this.testTriangle(i, t, triangles, flags, false);
  }
}

function distance2(pos: Float64Array, p: number, q: number): number {
  const dx = pos[p]! - pos[q]!;
  const dy = pos[p + 1]! - pos[q + 1]!;
  const dz = pos[p + 2]! - pos[q + 2]!;
  return dx * dx + dy * dy + dz * dz;
}

/** What a snapshot keeps of a {@link SelfContactSearch} (plain data). */
export type SelfContactSearchState = ReturnType<SelfContactSearch['saveState']>;
