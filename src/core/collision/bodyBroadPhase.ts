import type { ParticleStore } from '../particles.js';
import type { World } from '../world.js';
import { BodyFeatures, CHAIN, HULL_EDGE } from './bodyFeatures.js';
import { ALL_GROUPS, groupsInteract } from './collisionGroups.js';
import { corner, farther, grow, widen32, widen8, widenBox } from './broadPhaseBoxes.js';
import { existingEdgeSystem, type EdgeTable } from './edges.js';
import type { SolidPairs } from './solidPairs.js';

/** What a candidate pair of features is. */
export const enum Pair {
  /** A body's point against another's capsule edge: x a particle, y a segment. */
  PointSegment = 0,
  /** Two capsule edges: x and y segments. */
  SegmentSegment = 1,
  /** A point against a hull: x a particle, y a hull. */
  PointHull = 2,
  /** A capsule edge (its ends and between) against a hull: x a segment, y a hull. */
  SegmentHull = 3,
  /** A capsule, hull edge or chain segment against a triangle: x a segment, y a triangle. */
  SegmentTriangle = 4,
  /** Two hulls (rigid bodies): x and y hulls (`hullContact.ts`). */
  HullHull = 5,
  /** A hull's corner against a triangle: x a particle, y a triangle. */
  PointTriangle = 6,
}

/**
 * The broad phase between bodies, run once per step, at its first substep,
 * after the Verlet step: every participant ({@link BodyFeatures}) is boxed (its
 * point chunks, capsules, hull edges and chain segments, each grown by how far its
 * particles will move over the step's substeps at their present speed), the
 * boxes are sorted along x and swept (sort and sweep: the order barely changes
 * from step to step, so an insertion sort is near linear), and each overlapping
 * pair whose groups let them collide lists its candidate feature pairs, walking
 * only the chunks inside the overlap of the two boxes. The relaxation passes of
 * every substep then test just these. The cost grows with the bodies and the
 * features near each other, not with the product of the body counts. Boxes are
 * also grown by `margin`, for what the passes move. Allocates only when a list
 * outgrows its arrays.
 *
 * A cloth's triangles are boxed only when another body's box meets the cloth's:
 * its particles' boxes already hold them, so a cloth with nothing near costs no
 * more than its particles.
 *
 * @example
 * ```ts
 * const broad = bodyContacts(world).broad;
 * world.step();
 * broad.count; // candidate feature pairs found for the latest step
 * ```
 */
export class BodyBroadPhase {
  readonly features = new BodyFeatures();
  /**
   * @internal The listing of pairs with capsule edges and hulls: null until the world's first
   * capsule edge or hull hands it over (`solidPairs.ts`), so a world of cloths and ropes carries none of it.
   */
  solids: SolidPairs | null = null;
  /** How far (m) boxes are grown beyond the features, for the motion the passes add. */
  margin = 0.02;

  /** Candidates found by the latest {@link BodyBroadPhase.run}. */
  count = 0;
  /** Triangles boxed by the latest run: none for a cloth with no other body near. */
  boxedTriangles = 0;
  kind: Uint8Array = new Uint8Array(64);
  x: Int32Array = new Int32Array(64);
  y: Int32Array = new Int32Array(64);

  /** Per participant: its box (min xyz, max xyz), grown by the margin. */
  private box: Float64Array = new Float64Array(6 * 8);
  private asleep: Uint8Array = new Uint8Array(8);
  private groups: Uint32Array = new Uint32Array(8);
  private boxed: Uint8Array = new Uint8Array(8);
  private order: Int32Array = new Int32Array(8);
  /** @internal */
  chunkBox: Float64Array = new Float64Array(6 * 8);
  /** @internal */
  triChunkBox: Float64Array = new Float64Array(6 * 8);
  /** Per triangle chunk: how far its corners may move over the substeps to come (m). */
  private triChunkMove: Float64Array = new Float64Array(8);
  /** Per triangle chunk: the run it was last boxed in. */
  private triBoxed: Int32Array = new Int32Array(8);
  /** Runs so far. */
  private runs = 0;
  /** @internal */
  segBox: Float64Array = new Float64Array(6 * 16);
  /** @internal [0] substeps still to come after this one, [1] how far gravity moves a particle over them (m), [2] scratch: a sweep (m). */
  ahead: Float64Array = new Float64Array(3);
  /** @internal The overlap of the pair being listed, and a probe box. */
  overlap: Float64Array = new Float64Array(6);
  /** @internal */
  probe: Float64Array = new Float64Array(6);

  /**
   * Lists the candidate pairs for the `substeps` substeps to come (the rest of
   * the step): each box is grown by how far its particles move over them at the
   * speed they have now, plus what gravity adds, so one broad phase per step
   * serves all its substeps.
   */
  run(world: World, substeps: number): void {
    const context = world.stepContext;
    const g = Math.sqrt(context.gx * context.gx + context.gy * context.gy + context.gz * context.gz);
    const T = context.h * substeps;
    this.ahead[0] = substeps > 1 ? substeps - 1 : 0;
    this.ahead[1] = 0.5 * g * T * T;
    const f = this.features;
    this.edges = existingEdgeSystem(world)?.table ?? null;
    if (f.refresh(world)) this.fit();
    this.count = 0;
    this.boxedTriangles = 0;
    this.runs++;
    const n = f.count;
    if (n < 2) return;
    const particles = world.particles;
    this.positions = particles.position;
    this.previous = particles.previous;
    this.radius = particles.radius;
    for (let k = 0; k < n; k++) {
      const record = f.records[k]!;
      const asleep = world.sleep.isAsleep(record.id) ? 1 : 0;
      this.groups[k] = record.collisionGroups ?? ALL_GROUPS;
      // A sleeper has not moved since it was boxed.
      if (asleep === 0 || this.asleep[k] === 0 || this.boxed[k] === 0) this.bound(particles, world, k);
      this.asleep[k] = asleep;
      this.boxed[k] = 1;
    }
    this.sweep(world);
  }

  /**
   * Per segment, its radius as the latest run found it (its capsule edge's, its
   * hull's, or a chain's larger end's): an array read in the passes, where a
   * double returned from a call V8 does not inline would be boxed.
   */
  segRadius: Float64Array = new Float64Array(16);

  /** The radius of segment `s`: its capsule edge's, its hull's, or (a chain's) the larger of its ends'. */
  private segmentRadius(s: number): number {
    const f = this.features;
    const row = f.segRow[s]!;
    if (row === HULL_EDGE) return f.hullRadius[f.segHull[s]!]!;
    if (row === CHAIN) {
      const ra = this.radius[f.segA[s]!]!;
      const rb = this.radius[f.segB[s]!]!;
      return ra > rb ? ra : rb;
    }
    const table = this.edges;
    return table !== null && row < table.count ? table.radius[row]! : 0;
  }

  /** The world's capsule edge table, looked up once per step. */
  private edges: EdgeTable | null = null;

  /**
   * @internal What a later run builds on, for snapshots: the sort order (ties keep
   * it), and the boxes and flags of sleepers (a sleeper is not boxed again).
   */
  saveState(): BroadPhaseState {
    return {
      runs: this.runs,
      order: this.order.slice(),
      box: this.box.slice(),
      asleep: this.asleep.slice(),
      boxed: this.boxed.slice(),
      groups: this.groups.slice(),
      chunkBox: this.chunkBox.slice(),
      triChunkBox: this.triChunkBox.slice(),
      triChunkMove: this.triChunkMove.slice(),
      triBoxed: this.triBoxed.slice(),
      segBox: this.segBox.slice(),
      segRadius: this.segRadius.slice(),
    };
  }

  /** @internal Returns to {@link saveState}'s copy (copied again); without one, every box is stale and the order starts over. */
  loadState(world: World, state: BroadPhaseState | undefined): void {
    // Listed first (a fresh world lists its features at its first run, which would make every box stale after the load).
    if (this.features.refresh(world)) this.fit();
    if (state === undefined || state.order.length !== this.order.length) {
      this.boxed.fill(0);
      this.asleep.fill(0);
      this.triBoxed.fill(0);
      for (let k = 0; k < this.order.length; k++) this.order[k] = k;
      return;
    }
    this.runs = state.runs;
    this.order = state.order.slice();
    this.box = state.box.slice();
    this.asleep = state.asleep.slice();
    this.boxed = state.boxed.slice();
    this.groups = state.groups.slice();
    this.chunkBox = state.chunkBox.slice();
    this.triChunkBox = state.triChunkBox.slice();
    this.triChunkMove = state.triChunkMove.slice();
    this.triBoxed = state.triBoxed.slice();
    this.segBox = state.segBox.slice();
    this.segRadius = state.segRadius.slice();
  }

  /** Arrays sized for the listed features; every box is stale. */
  private fit(): void {
    const f = this.features;
    const n = f.count;
    if (this.asleep.length < n) {
      const size = Math.max(n, this.asleep.length * 2);
      this.box = new Float64Array(size * 6);
      this.asleep = new Uint8Array(size);
      this.groups = new Uint32Array(size);
      this.boxed = new Uint8Array(size);
      this.order = new Int32Array(size);
    }
    this.boxed.fill(0);
    this.asleep.fill(0);
    for (let k = 0; k < n; k++) this.order[k] = k;
    if (this.chunkBox.length < f.chunkStart.length * 6) this.chunkBox = new Float64Array(f.chunkStart.length * 6);
    if (this.triChunkBox.length < f.triChunkStart.length * 6) {
      this.triChunkBox = new Float64Array(f.triChunkStart.length * 6);
      this.triChunkMove = new Float64Array(f.triChunkStart.length);
      this.triBoxed = new Int32Array(f.triChunkStart.length);
    }
    this.triBoxed.fill(0);
    if (this.segBox.length < f.segments * 6) {
      this.segBox = new Float64Array(f.segments * 6);
      this.segRadius = new Float64Array(f.segments);
    }
  }

  /** Boxes participant `k`: its point chunks, segments, hull and triangle chunks, then the union of them. */
  private bound(particles: ParticleStore, world: World, k: number): void {
    const f = this.features;
    const pos = particles.position;
    const radius = particles.radius;
    const m = this.margin;
    const box = this.box;
    const o = k * 6;
    box[o] = box[o + 1] = box[o + 2] = Infinity;
    box[o + 3] = box[o + 4] = box[o + 5] = -Infinity;
    const points = f.points;
    const prev = particles.previous;
    const ahead = this.ahead[0]!;
    const fall = this.ahead[1]!;
    for (let c = f.chunkFrom[k]!; c < f.chunkTo[k]!; c++) {
      const cb = this.chunkBox;
      const q = c * 6;
      cb[q] = cb[q + 1] = cb[q + 2] = Infinity;
      cb[q + 3] = cb[q + 4] = cb[q + 5] = -Infinity;
      let moved = 0;
      for (let e = f.chunkStart[c]!; e < f.chunkEnd[c]!; e++) {
        const i = points[e]!;
        const p = i * 3;
        const r = radius[i]! + m;
        for (let a = 0; a < 3; a++) {
          const x = pos[p + a]!;
          if (x - r < cb[q + a]!) cb[q + a] = x - r;
          if (x + r > cb[q + 3 + a]!) cb[q + 3 + a] = x + r;
          const d = x - prev[p + a]!;
          if (d > moved) moved = d;
          else if (-d > moved) moved = -d;
        }
      }
      this.ahead[2] = moved * ahead + fall;
      widenBox(cb, q, this.ahead);
      grow(box, o, cb, q);
    }
    const hull = f.hull[k]!;
    // How far the segments and the hull may move: their fastest particle's substep displacement, over the substeps to come.
    // (Kept in `ahead[2]`: a double returned from or passed to a call V8 does not inline is boxed.)
    this.ahead[2] = 0;
    if (hull >= 0) {
      let r = 0;
      const vertices = f.hulls[hull]!.vertices;
      for (let v = 0; v < vertices.length; v++) {
        const i = vertices[v]!;
        if (radius[i]! > r) r = radius[i]!;
        farther(pos, prev, i * 3, this.ahead);
      }
      f.hullRadius[hull] = r;
    }
    for (let s = f.segFrom[k]!; s < f.chainTo[k]!; s++) {
      farther(pos, prev, f.segA[s]! * 3, this.ahead);
      farther(pos, prev, f.segB[s]! * 3, this.ahead);
    }
    this.ahead[2] = this.ahead[2]! * ahead + fall;
    for (let s = f.segFrom[k]!; s < f.chainTo[k]!; s++) {
      const sb = this.segBox;
      const q = s * 6;
      const radius = this.segmentRadius(s);
      this.segRadius[s] = radius;
      const r = radius + m;
      const a = f.segA[s]! * 3;
      const b = f.segB[s]! * 3;
      for (let ax = 0; ax < 3; ax++) {
        const xa = pos[a + ax]!;
        const xb = pos[b + ax]!;
        sb[q + ax] = (xa < xb ? xa : xb) - r;
        sb[q + 3 + ax] = (xa > xb ? xa : xb) + r;
      }
      widenBox(sb, q, this.ahead);
      grow(box, o, sb, q);
    }
    // Triangles whose corners are not all among the points box now; a cloth's when another body comes near.
    if (f.triOwn[k] === 0) {
      for (let c = f.triChunkFrom[k]!; c < f.triChunkTo[k]!; c++) {
        this.boxTriangles(c);
        grow(box, o, this.triChunkBox, c * 6);
      }
    }
  }

  /**
   * True when triangle chunk `c` may meet the overlap of the pair being listed;
   * boxes it for this run if so. A chunk of a cloth's own triangles is looked at
   * only when one of the point chunks that hold its corners meets the overlap.
   */
  /** @internal */
  triangleChunkNear(c: number): boolean {
    const f = this.features;
    const o = this.overlap;
    if (this.triBoxed[c] !== this.runs) {
      const from = f.triChunkPointFrom[c]!;
      if (from >= 0) {
        let near = false;
        for (let pc = from; pc < f.triChunkPointTo[c]! && !near; pc++) near = this.meets(this.chunkBox, pc * 6, o, 0);
        if (!near) return false;
      }
      this.boxTriangles(c);
    }
    return this.meets(this.triChunkBox, c * 6, o, 0);
  }

  /** Boxes triangle chunk `c` for this run, grown by how far its corners may move. */
  private boxTriangles(c: number): void {
    const f = this.features;
    this.triBoxed[c] = this.runs;
    this.boxedTriangles += f.triChunkEnd[c]! - f.triChunkStart[c]!;
    const pos = this.positions;
    const prev = this.previous;
    const m = this.margin;
    const tb = this.triChunkBox;
    const q = c * 6;
    tb[q] = tb[q + 1] = tb[q + 2] = Infinity;
    tb[q + 3] = tb[q + 4] = tb[q + 5] = -Infinity;
    this.ahead[2] = 0;
    for (let t = f.triChunkStart[c]!; t < f.triChunkEnd[c]!; t++) {
      corner(tb, q, pos, f.triA[t]! * 3, m);
      corner(tb, q, pos, f.triB[t]! * 3, m);
      corner(tb, q, pos, f.triC[t]! * 3, m);
      farther(pos, prev, f.triA[t]! * 3, this.ahead);
      farther(pos, prev, f.triB[t]! * 3, this.ahead);
      farther(pos, prev, f.triC[t]! * 3, this.ahead);
    }
    this.ahead[2] = this.ahead[2]! * this.ahead[0]! + this.ahead[1]!;
    this.triChunkMove[c] = this.ahead[2]!;
    widenBox(tb, q, this.ahead);
  }

  /** Sort and sweep along x over the participants' boxes. */
  private sweep(world: World): void {
    const f = this.features;
    const n = f.count;
    const order = this.order;
    const box = this.box;
    for (let i = 1; i < n; i++) {
      const k = order[i]!;
      const x = box[k * 6]!;
      let j = i - 1;
      while (j >= 0 && box[order[j]! * 6]! > x) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = k;
    }
    for (let i = 0; i < n; i++) {
      const p = order[i]!;
      const po = p * 6;
      if (box[po]! > box[po + 3]!) continue;
      for (let j = i + 1; j < n; j++) {
        const q = order[j]!;
        const qo = q * 6;
        if (box[qo]! > box[po + 3]!) break;
        if (box[qo + 1]! > box[po + 4]! || box[qo + 4]! < box[po + 1]! || box[qo + 2]! > box[po + 5]! || box[qo + 5]! < box[po + 2]!) continue;
        if (this.asleep[p] === 1 && this.asleep[q] === 1) continue;
        if (!groupsInteract(this.groups[p]!, this.groups[q]!)) continue;
        if (f.joined.size > 0 && f.joined.has(BodyFeatures.pairKey(f.records[p]!.id, f.records[q]!.id))) continue;
        this.pair(world, p, q);
      }
    }
  }

  /** Lists the candidates between participants `p` and `q`. */
  private pair(world: World, p: number, q: number): void {
    const box = this.box;
    const o = this.overlap;
    for (let a = 0; a < 3; a++) {
      const lo = box[p * 6 + a]!;
      const lo2 = box[q * 6 + a]!;
      const hi = box[p * 6 + 3 + a]!;
      const hi2 = box[q * 6 + 3 + a]!;
      o[a] = lo > lo2 ? lo : lo2;
      o[3 + a] = hi < hi2 ? hi : hi2;
    }
    const solids = this.solids;
    if (solids !== null) {
      solids.pointsAgainst(this, world, p, q);
      solids.pointsAgainst(this, world, q, p);
    }
    this.segmentsAgainst(p, q);
    this.segmentsAgainst(q, p);
    if (solids !== null) solids.rest(this, p, q);
  }

  /** @internal True when participant `q` has triangles and `p` has what meets them (segments or a hull). */
  trianglesFor(p: number, q: number): boolean {
    const f = this.features;
    return f.triChunkFrom[q] !== f.triChunkTo[q] && (f.segFrom[p] !== f.chainTo[p] || f.hull[p]! >= 0);
  }

  /** The segments of `p` (capsules, hull edges, chain segments) inside the overlap against the hull and the triangles of `q`. */
  private segmentsAgainst(p: number, q: number): void {
    const f = this.features;
    const hull = f.hull[q]!;
    const triangles = this.trianglesFor(p, q);
    if (hull < 0 && !triangles) return;
    const o = this.overlap;
    for (let s = f.segFrom[p]!; s < f.chainTo[p]!; s++) {
      const sb = s * 6;
      if (!this.meets(this.segBox, sb, o, 0)) continue;
      // A hull's own edges meet another hull in the hull pair; a chain's particles meet it as points.
      if (hull >= 0 && f.segRow[s]! >= 0) this.add(Pair.SegmentHull, s, hull);
      if (!triangles) continue;
      for (let c = f.triChunkFrom[q]!; c < f.triChunkTo[q]!; c++) {
        if (!this.triangleChunkNear(c) || !this.meets(this.segBox, sb, this.triChunkBox, c * 6)) continue;
        for (let t = f.triChunkStart[c]!; t < f.triChunkEnd[c]!; t++) if (this.triangleMeets(t, c, this.segBox, sb)) this.add(Pair.SegmentTriangle, s, t);
      }
    }
  }

  /** @internal True when triangle `t` of chunk `c`, grown by how far the chunk may move, meets the box at `sb` in `boxes`. */
  triangleMeets(t: number, c: number, boxes: Float64Array, sb: number): boolean {
    const f = this.features;
    const probe = this.probe;
    const pos = this.positions;
    const move = this.triChunkMove[c]!;
    const a = f.triA[t]! * 3;
    const b = f.triB[t]! * 3;
    const cc = f.triC[t]! * 3;
    for (let k = 0; k < 3; k++) {
      const xa = pos[a + k]!;
      const xb = pos[b + k]!;
      const xc = pos[cc + k]!;
      probe[k] = (xa < xb ? (xa < xc ? xa : xc) : xb < xc ? xb : xc) - move;
      probe[3 + k] = (xa > xb ? (xa > xc ? xa : xc) : xb > xc ? xb : xc) + move;
    }
    return this.meets(probe, 0, boxes, sb);
  }

  /** @internal The particles' positions, previous positions and radii (set by `run`). */
  positions: Float64Array = new Float64Array(0);
  /** @internal */
  previous: Float64Array = new Float64Array(0);
  private radius: Float64Array = new Float64Array(0);
  /** @internal A hull corner's box. */
  corners: Float64Array = new Float64Array(6);

  /** @internal True when box `a` at `ao` meets box `b` at `bo`. */
  meets(a: Float64Array, ao: number, b: Float64Array, bo: number): boolean {
    return a[ao]! <= b[bo + 3]! && a[ao + 3]! >= b[bo]! && a[ao + 1]! <= b[bo + 4]! && a[ao + 4]! >= b[bo + 1]! && a[ao + 2]! <= b[bo + 5]! && a[ao + 5]! >= b[bo + 2]!;
  }

  /** @internal */
  add(kind: Pair, x: number, y: number): void {
    if (this.count === this.kind.length) {
      const size = this.count * 2;
      this.kind = widen8(this.kind, size);
      this.x = widen32(this.x, size);
      this.y = widen32(this.y, size);
    }
    this.kind[this.count] = kind;
    this.x[this.count] = x;
    this.y[this.count] = y;
    this.count++;
  }
}

/** The broad phase's state a snapshot keeps (see {@link BodyBroadPhase.saveState}): plain data. */
export interface BroadPhaseState {
  runs: number;
  order: Int32Array;
  box: Float64Array;
  asleep: Uint8Array;
  boxed: Uint8Array;
  groups: Uint32Array;
  chunkBox: Float64Array;
  triChunkBox: Float64Array;
  triChunkMove: Float64Array;
  triBoxed: Int32Array;
  segBox: Float64Array;
  segRadius: Float64Array;
}
