import type { ParticleStore } from '../particles.js';
import { keepFront, restoreFront, type SavedFront } from './savedArrays.js';
import { TriangleGrid } from './triangleGrid.js';
import { moveAlong, pressedIntoCollider } from './pairContact.js';

/**
 * Edge–edge self-contact of one triangulated surface: two edges of the surface
 * that share no particle are kept `thickness` apart where they cross, on the
 * side of each other they started the step on.
 *
 * Particle–triangle contact (`SelfContactPush`) misses two edges that
 * cross with no particle near the other's face: two strips meeting edge on,
 * crosswise, each particle half a spacing off the other's plane. They pass
 * straight through each other (`test/core/selfCollision.test.ts`). Here the
 * closest points of the two edges are held apart along the normal of both,
 * shared by inverse mass and the closest points' weights on the edges
 * (Bridson, Fedkiw and Anderson, "Robust Treatment of Collisions, Contact and
 * Friction for Cloth Animation", 2002, section 7.1). Only a pair whose closest
 * points lie inside both edges is projected: an end of an edge is a particle,
 * the particle–triangle contact's business, and so is a pair of nearly
 * parallel edges.
 *
 * Pairs of edges a stick joins (an end of one is a stick neighbour of an end of
 * the other) are left out: in a sheet they are the neighbouring edges of the
 * same patch, which cross only through a fold tighter than one spacing, a
 * particle over its neighbour's triangle that the particle–triangle contact
 * holds. Leaving them out keeps a flat sheet's edge list nearly empty.
 *
 * Two lists, as before the self-collision's list was rebuilt: a search over a grid of the
 * edges' boxes lists the pairs within `thickness` plus both edges' allowance
 * (`motion`, set by the caller), and before each step
 * {@link EdgeSelfContact.activate} picks those that can touch during it.
 */
export class EdgeSelfContact {
  /** The surface's edges, two particle ids each, rebuilt at each search (tearing changes them). */
  private edges = new Int32Array(0);
  private edgeCount = 0;
  /** Per particle (body-relative), where its edges to higher ids start in `higher`; and a fill cursor. */
  private readonly edgeStart: Int32Array;
  private readonly cursor: Int32Array;
  private higher = new Int32Array(0);
  /** The triangle count the edges were collected for, -1 before any. */
  private collectedFor = -1;
  /** Pairs found by the latest search: four particle ids (p1 p2 of one edge, q1 q2 of the other). */
  private pairs = new Int32Array(64);
  private pairCount = 0;
  /** The pairs this step projects, four ids each. */
  private active = new Int32Array(64);
  /**
   * Per active pair, the unit normal of both edges pointing from the first edge's line to
   * the second's at the start of the step (xyz), or zeros for none; then how far the two
   * can close in during the step (m). A normal, not a sign: two edges turning through
   * parallel flip their cross product without passing each other.
   */
  private starts = new Float64Array(64);
  private activeCount = 0;
  private readonly grid = new TriangleGrid();
  private boxes = new Float64Array(0);
  /** Closest points of two segments: s, t, and the squared distance (see {@link closestOfSegments}). */
  private readonly closest = new Float64Array(3);
  /** The way a projected pair's second edge is pushed (a unit vector), for `pressedIntoCollider`. */
  private readonly direction = new Float64Array(3);

  /**
   * @param first,count the particle range of the body.
   * @param thickness least distance kept (m).
   * @param motion per particle of the body, its allowance in a search (m), shared with the caller.
   * @param joinedStart,joined stick neighbours as compressed rows (body-relative), as `stickNeighbours` gives them.
   */
  constructor(
    private readonly first: number,
    count: number,
    readonly thickness: number,
    private readonly motion: Float64Array,
    private readonly joinedStart: Int32Array,
    private readonly joined: Int32Array,
  ) {
    this.edgeStart = new Int32Array(count + 1);
    this.cursor = new Int32Array(count);
  }

  /** The pairs the latest search found, for snapshots: plain data (a copy). The rest is made again before each use. */
  saveState(): EdgeSelfContactState {
    return { pairs: keepFront(this.pairs, this.pairCount * 4), pairCount: this.pairCount };
  }

  /** Returns to {@link EdgeSelfContact.saveState}'s copy (copied again). */
  loadState(state: EdgeSelfContactState): void {
    this.pairs = restoreFront(state.pairs);
    this.pairCount = state.pairCount;
  }

  /** Edge pairs the latest search found. */
  get candidates(): number {
    return this.pairCount;
  }

  /** Edge pairs projected in this step's passes. */
  get activePairs(): number {
    return this.activeCount;
  }

  /**
   * Lists the edge pairs, sharing no particle and joined by no stick, whose
   * edges are nearer than `thickness` plus both edges' allowance (an edge's is
   * its faster end's). Allocates only when the surface has more triangles, or
   * more pairs are found, than ever before.
   */
  findCandidates(particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number): void {
    this.pairCount = 0;
    this.collectEdges(triangles, triangleCount);
    const n = this.edgeCount;
    if (n < 2) return;
    const pos = particles.position;
    const motion = this.motion;
    const first = this.first;
    const thickness = this.thickness;
    const edges = this.edges;
    if (this.boxes.length < n * 6) this.boxes = new Float64Array(n * 6);
    const boxes = this.boxes;
    let widths = 0;
    for (let e = 0; e < n; e++) {
      const p = edges[e * 2]!;
      const q = edges[e * 2 + 1]!;
      const grow = 0.5 * thickness + Math.max(motion[p - first]!, motion[q - first]!);
      for (let k = 0; k < 3; k++) {
        boxes[e * 6 + k] = Math.min(pos[p * 3 + k]!, pos[q * 3 + k]!) - grow;
        boxes[e * 6 + 3 + k] = Math.max(pos[p * 3 + k]!, pos[q * 3 + k]!) + grow;
      }
      widths += Math.max(boxes[e * 6 + 3]! - boxes[e * 6]!, boxes[e * 6 + 4]! - boxes[e * 6 + 1]!, boxes[e * 6 + 5]! - boxes[e * 6 + 2]!);
    }
    const grid = this.grid;
    // Cells as wide as a box's widest side on average: a box then lies in a few cells, and
    // a search after fast motion (boxes grown by it) does not read hundreds of cells per edge.
    grid.cellSize = widths / n;
    grid.build(boxes, n);
    const closest = this.closest;
    for (let e = 0; e < n; e++) {
      const o = e * 6;
      const m = grid.gatherBox(boxes, e);
      const found = grid.found;
      const p1 = edges[e * 2]!;
      const p2 = edges[e * 2 + 1]!;
      const reach = Math.max(motion[p1 - first]!, motion[p2 - first]!);
      for (let f = 0; f < m; f++) {
        const g = found[f]!;
        if (g <= e) continue;
        const r = g * 6;
        if (boxes[o]! > boxes[r + 3]! || boxes[r]! > boxes[o + 3]! || boxes[o + 1]! > boxes[r + 4]! || boxes[r + 1]! > boxes[o + 4]! || boxes[o + 2]! > boxes[r + 5]! || boxes[r + 2]! > boxes[o + 5]!)
          continue;
        const q1 = edges[g * 2]!;
        const q2 = edges[g * 2 + 1]!;
        if (p1 === q1 || p1 === q2 || p2 === q1 || p2 === q2) continue;
        if (this.areJoined(p1, q1) || this.areJoined(p1, q2) || this.areJoined(p2, q1) || this.areJoined(p2, q2)) continue;
        closestOfSegments(pos, p1, p2, q1, q2, closest);
        const near = thickness + reach + Math.max(motion[q1 - first]!, motion[q2 - first]!);
        if (closest[2]! >= near * near) continue;
        this.addPair(p1, p2, q1, q2);
      }
    }
  }

  /**
   * Before each step: picks the listed pairs nearer than twice the thickness
   * plus both edges' reach this step (`reach`, per particle of the body, m),
   * each with the side of the first edge's line the second started on.
   */
  activate(particles: ParticleStore, reach: Float64Array): void {
    const pos = particles.position;
    const first = this.first;
    const pairs = this.pairs;
    const closest = this.closest;
    this.activeCount = 0;
    for (let k = 0; k < this.pairCount; k++) {
      const p1 = pairs[k * 4]!;
      const p2 = pairs[k * 4 + 1]!;
      const q1 = pairs[k * 4 + 2]!;
      const q2 = pairs[k * 4 + 3]!;
      closestOfSegments(pos, p1, p2, q1, q2, closest);
      const near = ACTIVE_SKIN * this.thickness + Math.max(reach[p1 - first]!, reach[p2 - first]!) + Math.max(reach[q1 - first]!, reach[q2 - first]!);
      if (closest[2]! >= near * near) continue;
      // The side is remembered only for edges crossing over each other now (closest points inside
      // both): others may go round each other's ends, and their lines' side flips as they do.
      const s = closest[0]!;
      const t = closest[1]!;
      const k4 = this.addActive(p1, p2, q1, q2) * 4;
      const starts = this.starts;
      starts[k4] = 0;
      starts[k4 + 1] = 0;
      starts[k4 + 2] = 0;
      starts[k4 + 3] = near;
      if (s > 0 && s < 1 && t > 0 && t < 1) startNormal(pos, p1, p2, q1, q2, starts, k4);
    }
  }

  /**
   * One relaxation pass over this step's pairs, after the colliders: each crossing pair brought to
   * `thickness` apart on its starting side, none of its ends pushed back into a collider that
   * pushed it this substep; returns whether any was pushed. Allocates nothing.
   */
  project(particles: ParticleStore): boolean {
    const pos = particles.position;
    const prev = particles.previous;
    const w = particles.inverseMass;
    const pairs = this.active;
    const thickness = this.thickness;
    const along = this.direction;
    let pushed = false;
    for (let k = 0; k < this.activeCount; k++) {
      const p1 = pairs[k * 4]!;
      const p2 = pairs[k * 4 + 1]!;
      const q1 = pairs[k * 4 + 2]!;
      const q2 = pairs[k * 4 + 3]!;
      const ax = pos[p1 * 3]!;
      const ay = pos[p1 * 3 + 1]!;
      const az = pos[p1 * 3 + 2]!;
      const ux = pos[p2 * 3]! - ax;
      const uy = pos[p2 * 3 + 1]! - ay;
      const uz = pos[p2 * 3 + 2]! - az;
      const vx = pos[q2 * 3]! - pos[q1 * 3]!;
      const vy = pos[q2 * 3 + 1]! - pos[q1 * 3 + 1]!;
      const vz = pos[q2 * 3 + 2]! - pos[q1 * 3 + 2]!;
      let nx = uy * vz - uz * vy;
      let ny = uz * vx - ux * vz;
      let nz = ux * vy - uy * vx;
      const uu = ux * ux + uy * uy + uz * uz;
      const vv = vx * vx + vy * vy + vz * vz;
      const n2 = nx * nx + ny * ny + nz * nz;
      // Nearly parallel (sin below PARALLEL): no crossing to hold; ends and faces hold these.
      if (n2 <= PARALLEL * PARALLEL * uu * vv) continue;
      const wx = pos[q1 * 3]! - ax;
      const wy = pos[q1 * 3 + 1]! - ay;
      const wz = pos[q1 * 3 + 2]! - az;
      // The lines' closest points p1 + s·u and q1 + t·v (w + t·v − s·u ⟂ u and v).
      const uv = ux * vx + uy * vy + uz * vz;
      const uw = ux * wx + uy * wy + uz * wz;
      const vw = vx * wx + vy * wy + vz * wz;
      const s = (uw * vv - vw * uv) / n2;
      const t = (uw * uv - vw * uu) / n2;
      if (s <= 0 || s >= 1 || t <= 0 || t >= 1) continue;
      const len = Math.sqrt(n2);
      nx /= len;
      ny /= len;
      nz /= len;
      // Signed distance of the second edge's line from the first's, along n.
      const d = nx * wx + ny * wy + nz * wz;
      const starts = this.starts;
      const started = nx * starts[k * 4]! + ny * starts[k * 4 + 1]! + nz * starts[k * 4 + 2]!;
      // The starting side where there is one, unless the edges are now further past each other
      // than they could have closed in this step (they went round an end): then, as without
      // one, the side they are on.
      let toward = started > 0 ? 1 : started < 0 ? -1 : 0;
      if (toward === 0 || d * toward < -starts[k * 4 + 3]!) toward = d < 0 ? -1 : 1;
      const gap = thickness - d * toward;
      if (gap <= 0) continue;
      // The second edge goes along n·toward: an end a collider pushed back against that is held.
      along[0] = nx * toward;
      along[1] = ny * toward;
      along[2] = nz * toward;
      const w1 = pressedIntoCollider(particles, p1, along, 0, -1) ? 0 : w[p1]! * (1 - s);
      const w2 = pressedIntoCollider(particles, p2, along, 0, -1) ? 0 : w[p2]! * s;
      const w3 = pressedIntoCollider(particles, q1, along, 0, 1) ? 0 : w[q1]! * (1 - t);
      const w4 = pressedIntoCollider(particles, q2, along, 0, 1) ? 0 : w[q2]! * t;
      const denominator = w1 * (1 - s) + w2 * s + w3 * (1 - t) + w4 * t;
      if (denominator === 0) continue;
      // As at the particle–triangle hits, the pair parts by at most the push-out room this substep
      // beyond its own motion: where the sticks press two edges closer than the thickness, the
      // pushes and the sticks fight, and the speed they leave is bounded by it.
      const moved =
        ((1 - t) * (pos[q1 * 3]! - prev[q1 * 3]!) + t * (pos[q2 * 3]! - prev[q2 * 3]!) - (1 - s) * (pos[p1 * 3]! - prev[p1 * 3]!) - s * (pos[p2 * 3]! - prev[p2 * 3]!)) * along[0]! +
        ((1 - t) * (pos[q1 * 3 + 1]! - prev[q1 * 3 + 1]!) +
          t * (pos[q2 * 3 + 1]! - prev[q2 * 3 + 1]!) -
          (1 - s) * (pos[p1 * 3 + 1]! - prev[p1 * 3 + 1]!) -
          s * (pos[p2 * 3 + 1]! - prev[p2 * 3 + 1]!)) *
          along[1]! +
        ((1 - t) * (pos[q1 * 3 + 2]! - prev[q1 * 3 + 2]!) +
          t * (pos[q2 * 3 + 2]! - prev[q2 * 3 + 2]!) -
          (1 - s) * (pos[p1 * 3 + 2]! - prev[p1 * 3 + 2]!) -
          s * (pos[p2 * 3 + 2]! - prev[p2 * 3 + 2]!)) *
          along[2]!;
      const room = particles.pushOutRoom - moved;
      const depth = gap < room ? gap : room;
      if (depth <= 0) continue;
      // No end moves more than the depth (an end of small weight beside held ones would be levered).
      const most = Math.max(w1, w2, w3, w4);
      const lambda = (depth / (most > denominator ? most : denominator)) * toward;
      pushed = true;
      // The second edge goes along n·toward, the first the other way: momentum is kept.
      moveAlong(pos, p1, nx, ny, nz, -w1 * lambda);
      moveAlong(pos, p2, nx, ny, nz, -w2 * lambda);
      moveAlong(pos, q1, nx, ny, nz, w3 * lambda);
      moveAlong(pos, q2, nx, ny, nz, w4 * lambda);
    }
    return pushed;
  }

  /**
   * The surface's edges, once each: bucketed by their lower particle, duplicates (an edge of two
   * triangles) dropped in the bucket. Made again only when the triangles changed (tearing drops some).
   */
  private collectEdges(triangles: ArrayLike<number>, triangleCount: number): void {
    if (triangleCount === this.collectedFor) return;
    this.collectedFor = triangleCount;
    const first = this.first;
    const start = this.edgeStart;
    const cursor = this.cursor;
    const count = cursor.length;
    if (this.higher.length < triangleCount * 3) {
      this.higher = new Int32Array(triangleCount * 3);
      this.edges = new Int32Array(triangleCount * 6);
    }
    const higher = this.higher;
    start.fill(0);
    for (let t = 0; t < triangleCount * 3; t++) {
      const a = triangles[t]!;
      const b = triangles[t % 3 === 2 ? t - 2 : t + 1]!;
      start[Math.min(a, b) - first + 1]!++;
    }
    for (let k = 0; k < count; k++) {
      start[k + 1] = start[k + 1]! + start[k]!;
      cursor[k] = start[k]!;
    }
    for (let t = 0; t < triangleCount * 3; t++) {
      const a = triangles[t]!;
      const b = triangles[t % 3 === 2 ? t - 2 : t + 1]!;
      higher[cursor[Math.min(a, b) - first]!++] = Math.max(a, b);
    }
    const edges = this.edges;
    let n = 0;
    for (let k = 0; k < count; k++) {
      for (let e = start[k]!; e < start[k + 1]!; e++) {
        let seen = false;
        for (let x = start[k]!; x < e && !seen; x++) seen = higher[x] === higher[e];
        if (seen) continue;
        edges[n * 2] = first + k;
        edges[n * 2 + 1] = higher[e]!;
        n++;
      }
    }
    this.edgeCount = n;
  }

  private addPair(p1: number, p2: number, q1: number, q2: number): void {
    const k = this.pairCount++;
    if (k * 4 + 4 > this.pairs.length) {
      const grown = new Int32Array(this.pairs.length * 2);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[k * 4] = p1;
    this.pairs[k * 4 + 1] = p2;
    this.pairs[k * 4 + 2] = q1;
    this.pairs[k * 4 + 3] = q2;
  }

  /** Appends an active pair; returns its index (its start normal is the caller's to write). */
  private addActive(p1: number, p2: number, q1: number, q2: number): number {
    const k = this.activeCount++;
    if (k * 4 + 4 > this.active.length) {
      const grown = new Int32Array(this.active.length * 2);
      grown.set(this.active);
      this.active = grown;
      const starts = new Float64Array(this.starts.length * 2);
      starts.set(this.starts);
      this.starts = starts;
    }
    this.active[k * 4] = p1;
    this.active[k * 4 + 1] = p2;
    this.active[k * 4 + 2] = q1;
    this.active[k * 4 + 3] = q2;
    return k;
  }

  private areJoined(i: number, j: number): boolean {
    const k = i - this.first;
    const other = j - this.first;
    for (let e = this.joinedStart[k]!; e < this.joinedStart[k + 1]!; e++) if (this.joined[e] === other) return true;
    return false;
  }
}

/** How near (in thicknesses, plus both reaches) a pair must be at the start of a step to be projected in it. */
const ACTIVE_SKIN = 2;

/** Sine of the angle below which two edges count as parallel. */
const PARALLEL = 0.05;

/** Writes into `out[o..o+2]` the unit normal of edges p and q pointing from p's line to q's; leaves zeros when they are parallel. */
function startNormal(pos: Float64Array, p1: number, p2: number, q1: number, q2: number, out: Float64Array, o: number): void {
  const ux = pos[p2 * 3]! - pos[p1 * 3]!;
  const uy = pos[p2 * 3 + 1]! - pos[p1 * 3 + 1]!;
  const uz = pos[p2 * 3 + 2]! - pos[p1 * 3 + 2]!;
  const vx = pos[q2 * 3]! - pos[q1 * 3]!;
  const vy = pos[q2 * 3 + 1]! - pos[q1 * 3 + 1]!;
  const vz = pos[q2 * 3 + 2]! - pos[q1 * 3 + 2]!;
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  const n2 = nx * nx + ny * ny + nz * nz;
  if (n2 <= PARALLEL * PARALLEL * (ux * ux + uy * uy + uz * uz) * (vx * vx + vy * vy + vz * vz)) return;
  const d = nx * (pos[q1 * 3]! - pos[p1 * 3]!) + ny * (pos[q1 * 3 + 1]! - pos[p1 * 3 + 1]!) + nz * (pos[q1 * 3 + 2]! - pos[p1 * 3 + 2]!);
  const scale = (d < 0 ? -1 : 1) / Math.sqrt(n2);
  out[o] = nx * scale;
  out[o + 1] = ny * scale;
  out[o + 2] = nz * scale;
}

/**
 * The closest points of segments p1p2 and q1q2: writes their parameters s, t
 * (p1 + s·(p2 − p1), q1 + t·(q2 − q1)) and the squared distance into `out`.
 * Minimises over s for the best t, clamps, then redoes t for the clamped s.
 */
function closestOfSegments(pos: Float64Array, p1: number, p2: number, q1: number, q2: number, out: Float64Array): void {
  const ax = pos[p1 * 3]!;
  const ay = pos[p1 * 3 + 1]!;
  const az = pos[p1 * 3 + 2]!;
  const bx = pos[q1 * 3]!;
  const by = pos[q1 * 3 + 1]!;
  const bz = pos[q1 * 3 + 2]!;
  const ux = pos[p2 * 3]! - ax;
  const uy = pos[p2 * 3 + 1]! - ay;
  const uz = pos[p2 * 3 + 2]! - az;
  const vx = pos[q2 * 3]! - bx;
  const vy = pos[q2 * 3 + 1]! - by;
  const vz = pos[q2 * 3 + 2]! - bz;
  const rx = ax - bx;
  const ry = ay - by;
  const rz = az - bz;
  const a = ux * ux + uy * uy + uz * uz;
  const e = vx * vx + vy * vy + vz * vz;
  const f = vx * rx + vy * ry + vz * rz;
  const c = ux * rx + uy * ry + uz * rz;
  const b = ux * vx + uy * vy + uz * vz;
  const denominator = a * e - b * b;
  let s = 0;
  let t = 0;
  if (a > 0 && e > 0) {
    s = denominator > 0 ? clamp01((b * f - c * e) / denominator) : 0;
    t = (b * s + f) / e;
    if (t < 0) {
      t = 0;
      s = clamp01(-c / a);
    } else if (t > 1) {
      t = 1;
      s = clamp01((b - c) / a);
    }
  } else if (a > 0) s = clamp01(-c / a);
  else if (e > 0) t = clamp01(f / e);
  const dx = ax + ux * s - (bx + vx * t);
  const dy = ay + uy * s - (by + vy * t);
  const dz = az + uz * s - (bz + vz * t);
  out[0] = s;
  out[1] = t;
  out[2] = dx * dx + dy * dy + dz * dz;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** What a snapshot keeps of an {@link EdgeSelfContact} (plain data). */
export interface EdgeSelfContactState {
  pairs: SavedFront<Int32Array>;
  pairCount: number;
}
