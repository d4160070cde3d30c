import type { ParticleStore } from '../particles.js';
import type { World } from '../world.js';
import { closestPointTriangle, PointTri } from './closestPoints.js';
import { separatePair } from './pairContact.js';
import { SelfContactSearch } from './selfContactSearch.js';

/**
 * Self-contact of one triangulated surface (a cloth) against itself: every
 * particle is kept `thickness` away from every triangle it is not a corner of,
 * on the side it was on when the step began, and from every particle no stick
 * joins.
 *
 * Particle–particle distance alone cannot hold a sheet thinner than its
 * spacing: a particle falls through the middle of a triangle, between its
 * corners. So a particle over a triangle is held at `thickness` from the
 * triangle's plane, shared between the particle and the three corners by
 * inverse mass and barycentric weight (Müller et al., "Position Based Dynamics",
 * 2007, section 4.4; Bridson et al. 2002 for the thickness). The side is the one
 * the particle was on at the start of the step, so a particle found behind its
 * triangle mid-step is brought back, not pushed on through. A particle beside
 * the triangle (its foot on the plane outside) is held `thickness` from the
 * triangle's nearest point instead, which meets the first at the edges: no
 * contact switches on deep as a particle slides over an edge.
 *
 * Two lists, as Verlet lists with a skin. The search
 * ({@link SurfaceSelfContact.search}) lists the pairs within `thickness`
 * plus each side's allowance (the caller's skin), and runs again, for the
 * particles that could have used their allowance up, only when some could. From that list
 * {@link SurfaceSelfContact.activate} picks the few pairs that can touch during
 * the coming step (a ball and a plane test per pair), and the caller picks
 * again only the pairs of the particles that have moved further than their
 * pick allowed for ({@link PICK_SLACK}, {@link SurfaceSelfContact.repick});
 * before every step {@link SurfaceSelfContact.refreshSides} reads the picked
 * pairs' sides. Only the picked pairs are
 * projected in each relaxation pass ({@link SurfaceSelfContact.project}), so
 * a sheet at rest costs its few real contacts per pass and a pass over its
 * particles per step.
 */
export class SurfaceSelfContact {
  /** The pairs that can touch while each particle stays within its allowance, for the picks; the caller runs it. */
  readonly search: SelfContactSearch;
  /** Per listed pair of the search's `pairs`, the latest repick that tested it. */
  private seen = new Int32Array(0);
  /** Per listed pair of the search's `neighbourPairs`, the latest repick that tested it. */
  private seenNeighbour = new Int32Array(0);
  /** Per triangle, the latest repick that made its frame. */
  private framed = new Int32Array(0);
  /** Repicks so far (their stamps in `seen` and `framed`). */
  private repicks = 0;
  /** Per particle of the body, 1 while a repick runs if it is stale. */
  private readonly staleMark: Uint8Array;
  /** The pairs the passes project, picked by {@link SurfaceSelfContact.activate}: particle, then the three corners (-1 -1 after a second particle). */
  private active = new Int32Array(64);
  /**
   * Per active particle–triangle pair, the side of the triangle's plane (+1 or -1) a particle
   * over the triangle started the step on; 0 for one beside it (see {@link SurfaceSelfContact.refreshSides}).
   */
  private sides = new Int8Array(16);
  /**
   * Per active pair, when a pass must look at it again: its clearance beyond `thickness` when
   * a pass last looked at it, plus its particles' credit then (see
   * {@link SurfaceSelfContact.travel}, {@link SurfaceSelfContact.lookAgain}). Until their
   * `travel` sums to it they cannot have closed that clearance, so the passes skip it: a cloth
   * lying in layers looks at its few real contacts, not at every pair the pick let through.
   * -Infinity: at the next pass.
   */
  private due = new Float64Array(16);
  /** Per active pair, 1 once a pass has looked at it since its side was last read (see {@link SurfaceSelfContact.refreshSides}). */
  private looked = new Uint8Array(16);
  /** Per particle of the body, where it was at the start of the latest pass (xyz). */
  private readonly lastPass: Float64Array;
  /** Per particle of the body, an odometer (m): the sum of its moves from the start of one pass to the start of the next, since the pick. */
  private readonly odometer: Float64Array;
  /**
   * Per particle of the body, its `odometer` plus its pushes in this pass so far (m). Between
   * a moment in one pass and a later one a particle has moved no further than its `travel` at
   * the later less its credit at the earlier, 2 · odometer - travel (its pushes before the
   * earlier moment are counted in both its pass's move and `travel`). (Measured against a
   * distance from an anchor moved only every 0.1 mm, which left a particle at rest a little
   * credit: the odometer looks at 13% fewer pairs in the draped 64² cloth, 15% fewer over six
   * drops onto a ball.)
   */
  private readonly travel: Float64Array;
  /** The clearance a look at a pair found, for {@link SurfaceSelfContact.lookAgain} (a double in an array, so that none crosses a call). */
  private readonly clearance = new Float64Array(1);
  private activeCount = 0;
  /** Per particle of the body, how many active pairs it is in. */
  private readonly activeIn: Int32Array;
  /** The particles of the body in some active pair (body-relative), the only ones whose `travel` a pass reads. */
  private readonly tracked: Int32Array;
  private trackedCount = 0;
  /** Whether `tracked` must be made again from `activeIn` before the next pass. */
  private trackedStale = false;
  /** Per triangle, as of the latest pick or repick that looked at it ({@link FRAME} numbers): the centre and radius of a ball holding it grown by how near counts, how near counts, unit normal, corner a, the two barycentric vectors, and 0 (-1 if degenerate); see {@link SurfaceSelfContact.activate}. */
  private frames = new Float64Array(0);
  /** Per particle of the body, this step: the sum of its triangles' unit normals (xyz). */
  private readonly normals: Float64Array;
  /** Per particle of the body, this step: 1 where its triangles do not all face within {@link FLAT} of their mean. */
  private readonly bent: Uint8Array;
  /** Per particle of the body, this step: 1 where it or a stick neighbour is bent (its neighbour pairs are looked at). */
  private readonly curved: Uint8Array;
  /** A push of a particle from a triangle's point for {@link SurfaceSelfContact.pushApart}: the point's three weights, the unit normal, the gap; then the clearance {@link SurfaceSelfContact.holdOffBeside} leaves. */
  private readonly push = new Float64Array(8);
  /** How far a particle and a triangle may part this substep beyond their own motion (m), set by each pass (an array: see `minimum`). */
  private readonly room = new Float64Array(1);
  /** The thickness for `separatePair` (a double in an array, so that none crosses the call). */
  private readonly minimum = new Float64Array(1);
  /** Scratch of {@link closestPointTriangle}. */
  private readonly buf = new Float64Array(PointTri.Size);

  /**
   * @param first,count the particle range of the body.
   * @param thickness least distance kept (m).
   * @param joinedStart,joined per particle first + k, its stick neighbours are joined[joinedStart[k] .. joinedStart[k + 1]) (body-relative).
   * @param pushOutSpeed most speed (m/s) at which a particle and a triangle closer than `thickness` are pushed apart beyond their own motion (Infinity: the world's `maxPushOutSpeed`).
   */
  constructor(
    private readonly first: number,
    private readonly count: number,
    readonly thickness: number,
    private readonly joinedStart: Int32Array,
    private readonly joined: Int32Array,
    private readonly pushOutSpeed = Infinity,
  ) {
    this.search = new SelfContactSearch(first, count, thickness, joinedStart, joined);
    this.staleMark = new Uint8Array(count);
    this.lastPass = new Float64Array(count * 3);
    this.odometer = new Float64Array(count);
    this.travel = new Float64Array(count);
    this.activeIn = new Int32Array(count);
    this.tracked = new Int32Array(count);
    this.normals = new Float64Array(count * 3);
    this.bent = new Uint8Array(count);
    this.curved = new Uint8Array(count);
    this.minimum[0] = thickness;
  }

  /** Pairs projected in this step's passes. */
  get activePairs(): number {
    return this.activeCount;
  }

  /** Looks at pairs in this step's passes so far, summed over the passes (the rest were skipped, too far apart to touch: see {@link SurfaceSelfContact.due}). */
  examined = 0;

  /**
   * Picks again the pairs that `stale[0 .. staleCount)` (particles of the body) are in, and
   * only those: the rest of the latest pick stands. `reach` holds each particle's reach for
   * the test: for a stale particle its next move, as in {@link SurfaceSelfContact.activate};
   * for any other, its reach when it was last picked plus how far it has moved since (relative
   * to the body), so that a pair picked now holds as long as a full pick would. A stick
   * neighbour's pairs are looked at however flat the sheet. Allocates only when more pairs pass
   * than ever before.
   */
  repick(particles: ParticleStore, triangles: ArrayLike<number>, stale: Int32Array, staleCount: number, reach: Float64Array): void {
    const pos = particles.position;
    const first = this.first;
    const mark = this.staleMark;
    for (let s = 0; s < staleCount; s++) mark[stale[s]! - first] = 1;
    // Drops the picked pairs a stale particle is in, keeping the others' state.
    const active = this.active;
    let kept = 0;
    for (let k = 0; k < this.activeCount; k++) {
      const c = active[k * 4 + 3]!;
      const touched = mark[active[k * 4]! - first] === 1 || mark[active[k * 4 + 1]! - first] === 1 || (c >= 0 && (mark[active[k * 4 + 2]! - first] === 1 || mark[c - first] === 1));
      if (touched) {
        this.leave(active[k * 4]!);
        this.leave(active[k * 4 + 1]!);
        if (c >= 0) {
          this.leave(active[k * 4 + 2]!);
          this.leave(c);
        }
        continue;
      }
      if (kept !== k) {
        for (let v = 0; v < 4; v++) active[kept * 4 + v] = active[k * 4 + v]!;
        this.sides[kept] = this.sides[k]!;
        this.due[kept] = this.due[k]!;
        this.looked[kept] = this.looked[k]!;
      }
      kept++;
    }
    this.activeCount = kept;
    // Tests each listed pair a stale particle is in, once, its triangle's frame made afresh.
    const stamp = ++this.repicks;
    const search = this.search;
    if (this.seen.length < search.listed.pairCount) this.seen = new Int32Array(search.listed.pairs.length / 5);
    if (this.seenNeighbour.length < search.listed.neighbourCount) this.seenNeighbour = new Int32Array(search.listed.neighbourPairs.length / 5);
    const touching = search.listed.touching;
    const start = search.listed.touchStart;
    const alsoNext = search.listed.alsoNext;
    const alsoPair = search.listed.alsoPair;
    for (let s = 0; s < staleCount; s++) {
      const p = stale[s]! - first;
      for (let e = start[p]!; e < start[p + 1]!; e++) this.repickListed(pos, triangles, touching[e]!, reach, stamp);
      for (let e = search.listed.alsoStart[p]!; e >= 0; e = alsoNext[e]!) this.repickListed(pos, triangles, alsoPair[e]!, reach, stamp);
    }
    for (let s = 0; s < staleCount; s++) mark[stale[s]! - first] = 0;
  }

  /** For {@link SurfaceSelfContact.repick}: listed pair `id` (numbered as in the search's `touching`), unless dropped or tested in this repick (`stamp`). */
  private repickListed(pos: Float64Array, triangles: ArrayLike<number>, id: number, reach: Float64Array, stamp: number): void {
    const neighbour = id < 0;
    const k = neighbour ? ~id : id;
    const seen = neighbour ? this.seenNeighbour : this.seen;
    if (seen[k] === stamp) return;
    seen[k] = stamp;
    const list = neighbour ? this.search.listed.neighbourPairs : this.search.listed.pairs;
    const o = k * 5;
    const i = list[o]!;
    if (i < 0) return;
    const a = list[o + 1]!;
    const t = list[o + 4]!;
    if (t < 0) {
      this.pickParticles(pos, reach, i, a);
      return;
    }
    if (this.framed[t] !== stamp) {
      this.framed[t] = stamp;
      this.frameOf(pos, triangles, t, reach);
    }
    this.pickTriangle(pos, reach, i, a, list[o + 2]!, list[o + 3]!, t, neighbour);
  }

  /**
   * Picks from the pairs the latest search listed those that can come within
   * `thickness` during the coming step, the only ones the passes project (the
   * caller picks again once some particle has moved further than the pick
   * allowed for: see `SelfCollisionPass`). `reach` holds, per particle of the
   * body, how far it can move relative to the body in the step (m). A pair
   * passes when the particle is nearer the triangle than
   * {@link ACTIVE_SKIN} thicknesses plus both reaches, by a ball, a plane and
   * an edge test (a few multiplications per pair; a sheet at rest passes none
   * but its real contacts). A particle over its triangle is held on the side
   * it is on now. A stick neighbour of a corner counts only over the triangle
   * or beside it within {@link PICK_SLACK} thicknesses of its edge, where it
   * can come over before the next pick; where the sheet about it is nearly flat
   * (see {@link FLAT}) it is not looked at. Allocates only when more pairs pass
   * than ever before, or the body has more triangles than ever.
   */
  activate(particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number, reach: Float64Array): void {
    const pos = particles.position;
    const first = this.first;
    this.frame(pos, triangles, triangleCount, reach);
    this.markCurved(triangles, triangleCount);
    const curved = this.curved;
    this.activeCount = 0;
    this.activeIn.fill(0);
    this.trackedStale = true;
    this.examined = 0;
    const lastPass = this.lastPass;
    for (let k = 0; k < this.count * 3; k++) lastPass[k] = pos[first * 3 + k]!;
    this.odometer.fill(0);
    this.travel.fill(0);
    // A stick neighbour of a corner counts only over the triangle or at its edge, a fold
    // tighter than one spacing, which bends the sheet: where it is nearly flat, most of a
    // hanging cloth, the particle's neighbour pairs are skipped without a look. (First, so
    // that the passes, running backwards, project them last, as the other particle–triangle
    // pairs.)
    const search = this.search;
    const start = search.listed.neighbourStart;
    const nearby = search.listed.neighbourPairs;
    for (let p = 0; p < this.count; p++) {
      if (curved[p] === 0) continue;
      for (let e = start[p]!; e < start[p + 1]!; e++) {
        if (nearby[e * 5]! < 0) continue;
        this.pickTriangle(pos, reach, first + p, nearby[e * 5 + 1]!, nearby[e * 5 + 2]!, nearby[e * 5 + 3]!, nearby[e * 5 + 4]!, true);
      }
    }
    // Then those local searches added since the rows were sorted (dropped ones: particle -1).
    for (let e = search.listed.neighbourRowsEnd; e < search.listed.neighbourCount; e++) {
      const i = nearby[e * 5]!;
      if (i < 0 || curved[i - first] === 0) continue;
      this.pickTriangle(pos, reach, i, nearby[e * 5 + 1]!, nearby[e * 5 + 2]!, nearby[e * 5 + 3]!, nearby[e * 5 + 4]!, true);
    }
    const pairs = search.listed.pairs;
    for (let k = 0; k < search.listed.pairCount; k++) {
      const i = pairs[k * 5]!;
      if (i < 0) continue;
      const a = pairs[k * 5 + 1]!;
      const t = pairs[k * 5 + 4]!;
      if (t >= 0) {
        this.pickTriangle(pos, reach, i, a, pairs[k * 5 + 2]!, pairs[k * 5 + 3]!, t, false);
        continue;
      }
      this.pickParticles(pos, reach, i, a);
    }
  }

  /**
   * Before a step that keeps the latest pick: sets the side of each active particle–triangle
   * pair a pass has looked at since to the one the particle starts the step on if it is over
   * the triangle, else 0, as a pick does, so that where a pass could not keep a particle on
   * its side (sticks pressing a crumple thinner than the thickness) the new side is taken at
   * the next step, as before, not fought at the push-out speed until the next pick. A pair no
   * pass has looked at was never within the thickness since, so it cannot have changed sides;
   * one found over its triangle with no side yet takes the side it is on then (see
   * {@link SurfaceSelfContact.holdOff}). Allocates nothing.
   */
  refreshSides(particles: ParticleStore): void {
    const pos = particles.position;
    const pairs = this.active;
    const sides = this.sides;
    const looked = this.looked;
    this.examined = 0;
    for (let k = 0; k < this.activeCount; k++) {
      const c = pairs[k * 4 + 3]!;
      if (c < 0 || looked[k] === 0) continue;
      looked[k] = 0;
      const i = pairs[k * 4]!;
      const a = pairs[k * 4 + 1]!;
      const b = pairs[k * 4 + 2]!;
      const ax = pos[a * 3]!;
      const ay = pos[a * 3 + 1]!;
      const az = pos[a * 3 + 2]!;
      const e1x = pos[b * 3]! - ax;
      const e1y = pos[b * 3 + 1]! - ay;
      const e1z = pos[b * 3 + 2]! - az;
      const e2x = pos[c * 3]! - ax;
      const e2y = pos[c * 3 + 1]! - ay;
      const e2z = pos[c * 3 + 2]! - az;
      const nx = e1y * e2z - e1z * e2y;
      const ny = e1z * e2x - e1x * e2z;
      const nz = e1x * e2y - e1y * e2x;
      const len2 = nx * nx + ny * ny + nz * nz;
      const px = pos[i * 3]! - ax;
      const py = pos[i * 3 + 1]! - ay;
      const pz = pos[i * 3 + 2]! - az;
      // The foot's weights on b and c: ((e2 × n) · p) / |n|² and ((n × e1) · p) / |n|².
      const v = ((e2y * nz - e2z * ny) * px + (e2z * nx - e2x * nz) * py + (e2x * ny - e2y * nx) * pz) / len2;
      const u = ((ny * e1z - nz * e1y) * px + (nz * e1x - nx * e1z) * py + (nx * e1y - ny * e1x) * pz) / len2;
      const above = px * nx + py * ny + pz * nz;
      const side = len2 > 0 && v >= 0 && u >= 0 && u + v <= 1 ? (above > 0 ? 1 : above < 0 ? -1 : 0) : 0;
      // A new side is a new constraint: looked at in the next pass.
      if (side !== sides[k]) this.due[k] = -Infinity;
      sides[k] = side;
    }
  }

  /** Activates particles `i` and `j` (no stick joins them) if they can come within `thickness` of each other. */
  private pickParticles(pos: Float64Array, reach: Float64Array, i: number, j: number): void {
    const near = ACTIVE_SKIN * this.thickness + reach[i - this.first]! + reach[j - this.first]!;
    if (distance2(pos, i * 3, j * 3) < near * near) this.addActive(i, j, -1, -1, 0);
  }

  /**
   * Activates particle `i` against triangle `t` (corners a, b, c) if it can come within
   * `thickness` of it: over the triangle, with the side it is on; beside it, where `joined`
   * (a stick neighbour of a corner) only near the edge.
   */
  private pickTriangle(pos: Float64Array, reach: Float64Array, i: number, a: number, b: number, c: number, t: number, joined: boolean): void {
    const frames = this.frames;
    const o = t * FRAME;
    const x = pos[i * 3]!;
    const y = pos[i * 3 + 1]!;
    const z = pos[i * 3 + 2]!;
    const ri = reach[i - this.first]!;
    // Nearer the triangle's ball than the thickness and both reaches?
    let near = frames[o + 3]! + ri;
    let dx = x - frames[o]!;
    let dy = y - frames[o + 1]!;
    let dz = z - frames[o + 2]!;
    if (dx * dx + dy * dy + dz * dz >= near * near) return;
    // Nearer its plane (a closer bound for one above or below the triangle)?
    dx = x - frames[o + 8]!;
    dy = y - frames[o + 9]!;
    dz = z - frames[o + 10]!;
    const d = frames[o + 5]! * dx + frames[o + 6]! * dy + frames[o + 7]! * dz;
    near = frames[o + 4]! + ri;
    if (d * d >= near * near) return;
    // Over the triangle (its foot on the plane inside)?
    const v = frames[o + 11]! * dx + frames[o + 12]! * dy + frames[o + 13]! * dz + frames[o + 17]!;
    const u = frames[o + 14]! * dx + frames[o + 15]! * dy + frames[o + 16]! * dz + frames[o + 17]!;
    if (v >= 0 && u >= 0 && u + v <= 1) {
      this.addActive(i, a, b, c, d > 0 ? 1 : d < 0 ? -1 : 0);
      return;
    }
    // Beside it: nearer the triangle itself than the thickness and both reaches? (The
    // foot's distance outside is at least its most negative weight times that corner's
    // height; in a cloth lying in layers this drops most of the triangles about the one a
    // particle lies over, which the ball and plane tests let through.)
    const outside = Math.max(-(1 - u - v) * frames[o + 18]!, -v * frames[o + 19]!, -u * frames[o + 20]!);
    if (d * d + outside * outside >= near * near) return;
    // A stick neighbour of a corner beside the triangle is the sheet lying on (a crease of one
    // spacing is the sticks' business), left alone unless its foot is near enough the edge to
    // come over before the next pick, a tight fold.
    if (joined && outside >= PICK_SLACK * this.thickness) return;
    this.addActive(i, a, b, c, 0);
  }

  /**
   * Each triangle's frame for this step, once per triangle rather than once per pair (a
   * triangle is in 20 or so): its ball, its unit normal, corner a, and the two vectors
   * whose dot products with (x - a) are the barycentric weights of corners b and c of x's
   * foot on its plane. Allocates only when the body has more triangles than ever.
   */
  private frame(pos: Float64Array, triangles: ArrayLike<number>, triangleCount: number, reach: Float64Array): void {
    const first = this.first;
    if (this.frames.length < triangleCount * FRAME) this.frames = new Float64Array(triangleCount * FRAME);
    if (this.framed.length < triangleCount) this.framed = new Int32Array(triangleCount);
    const frames = this.frames;
    // The sum of each particle's triangles' unit normals, for markCurved, in the same pass.
    const normals = this.normals;
    normals.fill(0);
    for (let t = 0; t < triangleCount; t++) {
      this.frameOf(pos, triangles, t, reach);
      const o = t * FRAME;
      for (let v = 0; v < 3; v++) {
        const q = (triangles[t * 3 + v]! - first) * 3;
        normals[q] = normals[q]! + frames[o + 5]!;
        normals[q + 1] = normals[q + 1]! + frames[o + 6]!;
        normals[q + 2] = normals[q + 2]! + frames[o + 7]!;
      }
    }
  }

  /** Triangle `t`'s frame (see {@link SurfaceSelfContact.frames}), how near counts from the reaches `reach`. */
  private frameOf(pos: Float64Array, triangles: ArrayLike<number>, t: number, reach: Float64Array): void {
    const first = this.first;
    const frames = this.frames;
    const a = triangles[t * 3]!;
    const b = triangles[t * 3 + 1]!;
    const c = triangles[t * 3 + 2]!;
    const ax = pos[a * 3]!;
    const ay = pos[a * 3 + 1]!;
    const az = pos[a * 3 + 2]!;
    const e1x = pos[b * 3]! - ax;
    const e1y = pos[b * 3 + 1]! - ay;
    const e1z = pos[b * 3 + 2]! - az;
    const e2x = pos[c * 3]! - ax;
    const e2y = pos[c * 3 + 1]! - ay;
    const e2z = pos[c * 3 + 2]! - az;
    // The centroid less a, and the largest distance from it to a corner.
    const gx = (e1x + e2x) / 3;
    const gy = (e1y + e2y) / 3;
    const gz = (e1z + e2z) / 3;
    const r2 = Math.max(gx * gx + gy * gy + gz * gz, (e1x - gx) ** 2 + (e1y - gy) ** 2 + (e1z - gz) ** 2, (e2x - gx) ** 2 + (e2y - gy) ** 2 + (e2z - gz) ** 2);
    const near = ACTIVE_SKIN * this.thickness + Math.max(reach[a - first]!, reach[b - first]!, reach[c - first]!);
    const nx = e1y * e2z - e1z * e2y;
    const ny = e1z * e2x - e1x * e2z;
    const nz = e1x * e2y - e1y * e2x;
    const len2 = nx * nx + ny * ny + nz * nz;
    const o = t * FRAME;
    frames[o] = ax + gx;
    frames[o + 1] = ay + gy;
    frames[o + 2] = az + gz;
    frames[o + 3] = Math.sqrt(r2) + near;
    frames[o + 4] = near;
    frames[o + 8] = ax;
    frames[o + 9] = ay;
    frames[o + 10] = az;
    if (len2 === 0) {
      // Degenerate: no normal, and no point is over it (weights of -1).
      for (let k = 5; k < 8; k++) frames[o + k] = 0;
      for (let k = 11; k < 17; k++) frames[o + k] = 0;
      frames[o + 17] = -1;
      for (let k = 18; k < 21; k++) frames[o + k] = 0;
      return;
    }
    const len = Math.sqrt(len2);
    frames[o + 5] = nx / len;
    frames[o + 6] = ny / len;
    frames[o + 7] = nz / len;
    // For p = x - a in the plane: v = ((e2 × n) · p) / |n|², u = ((n × e1) · p) / |n|².
    frames[o + 11] = (e2y * nz - e2z * ny) / len2;
    frames[o + 12] = (e2z * nx - e2x * nz) / len2;
    frames[o + 13] = (e2x * ny - e2y * nx) / len2;
    frames[o + 14] = (ny * e1z - nz * e1y) / len2;
    frames[o + 15] = (nz * e1x - nx * e1z) / len2;
    frames[o + 16] = (nx * e1y - ny * e1x) / len2;
    frames[o + 17] = 0;
    // Heights over the edges opposite a, b and c: a foot at weight -k of a corner is k times
    // its height outside the triangle, at least.
    const fx = e2x - e1x;
    const fy = e2y - e1y;
    const fz = e2z - e1z;
    frames[o + 18] = len / Math.sqrt(fx * fx + fy * fy + fz * fz);
    frames[o + 19] = len / Math.sqrt(e2x * e2x + e2y * e2y + e2z * e2z);
    frames[o + 20] = len / Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
  }

  /**
   * Marks, for this step, the particles whose neighbour pairs need a look: those that are
   * bent (one of their triangles faces more than {@link FLAT} away from their triangles'
   * mean normal, or is degenerate) or have a bent stick neighbour. Over the triangles of a
   * particle's neighbours the normals then differ by little (see {@link FLAT}), far from
   * the fold back over itself that puts a neighbour over one of them.
   */
  private markCurved(triangles: ArrayLike<number>, triangleCount: number): void {
    const first = this.first;
    const frames = this.frames;
    const normals = this.normals;
    const bent = this.bent;
    bent.fill(0);
    for (let t = 0; t < triangleCount; t++) {
      const o = t * FRAME;
      const nx = frames[o + 5]!;
      const ny = frames[o + 6]!;
      const nz = frames[o + 7]!;
      for (let v = 0; v < 3; v++) {
        const p = triangles[t * 3 + v]! - first;
        const mx = normals[p * 3]!;
        const my = normals[p * 3 + 1]!;
        const mz = normals[p * 3 + 2]!;
        const along = nx * mx + ny * my + nz * mz;
        if (along <= 0 || along * along < FLAT * FLAT * (mx * mx + my * my + mz * mz)) bent[p] = 1;
      }
    }
    const curved = this.curved;
    const joinedStart = this.joinedStart;
    const joined = this.joined;
    for (let k = 0; k < this.count; k++) {
      let c = bent[k]!;
      for (let e = joinedStart[k]!; e < joinedStart[k + 1]! && c === 0; e++) c = bent[joined[e]!]!;
      curved[k] = c;
    }
  }

  /**
   * One relaxation pass over the pairs found for this step: each particle over
   * its triangle is brought to `thickness` on its starting side, each particle
   * pair to `thickness` apart with friction (`separatePair`), shared by inverse
   * mass. Allocates nothing.
   */
  project(world: World): void {
    if (this.activeCount === 0) return;
    const particles = world.particles;
    this.room[0] = Math.min(particles.pushOutRoom, this.pushOutSpeed * world.substep);
    const pos = particles.position;
    const lastPass = this.lastPass;
    const odometer = this.odometer;
    const travel = this.travel;
    const from = this.first * 3;
    if (this.trackedStale) this.track();
    const tracked = this.tracked;
    // Only the particles in active pairs: half of a draped 64² cloth. (One left out is in no
    // pair, so its travel is not read; taken in again, its new pairs are looked at in the next
    // pass, and its odometer goes on from where it was last followed.)
    for (let e = 0; e < this.trackedCount; e++) {
      const k = tracked[e]!;
      const x = pos[from + k * 3]!;
      const y = pos[from + k * 3 + 1]!;
      const z = pos[from + k * 3 + 2]!;
      const dx = x - lastPass[k * 3]!;
      const dy = y - lastPass[k * 3 + 1]!;
      const dz = z - lastPass[k * 3 + 2]!;
      const travelled = odometer[k]! + Math.sqrt(dx * dx + dy * dy + dz * dz);
      odometer[k] = travelled;
      travel[k] = travelled;
      lastPass[k * 3] = x;
      lastPass[k * 3 + 1] = y;
      lastPass[k * 3 + 2] = z;
    }
    const pairs = this.active;
    // Backwards: the particle pairs (listed last) first, then the particle–triangle pairs,
    // whose correction is the finer one. (Measured: the folded sheet of
    // particleCollisions.test.ts rests 0.6% closer than its thickness the other way round.)
    const due = this.due;
    const looked = this.looked;
    const first = this.first;
    for (let k = this.activeCount - 1; k >= 0; k--) {
      const b = pairs[k * 4 + 2]!;
      if (b < 0) {
        const sum = travel[pairs[k * 4]! - first]! + travel[pairs[k * 4 + 1]! - first]!;
        if (sum < due[k]!) continue;
        this.examined++;
        this.separate(world, k);
      } else {
        const sum = travel[pairs[k * 4]! - first]! + travel[pairs[k * 4 + 1]! - first]! + travel[b - first]! + travel[pairs[k * 4 + 3]! - first]!;
        if (sum < due[k]!) continue;
        looked[k] = 1;
        this.examined++;
        this.holdOff(particles, k);
      }
    }
  }

  /** Lists in `tracked` the particles in some active pair. */
  private track(): void {
    let n = 0;
    for (let k = 0; k < this.count; k++) if (this.activeIn[k]! > 0) this.tracked[n++] = k;
    this.trackedCount = n;
    this.trackedStale = false;
  }

  /** Particle `i` joins an active pair. */
  private enter(i: number): void {
    const k = i - this.first;
    const n = this.activeIn[k]!;
    this.activeIn[k] = n + 1;
    if (n === 0) this.trackedStale = true;
  }

  /** Particle `i` leaves an active pair. */
  private leave(i: number): void {
    const k = i - this.first;
    const n = this.activeIn[k]! - 1;
    this.activeIn[k] = n;
    if (n === 0) this.trackedStale = true;
  }

  /**
   * Pair `k` (particles `i`, `j` and, unless -1, `b` and `c`) was found `clearance[0]` beyond
   * touching: due again once its particles' `travel` sums to that plus their credit now
   * (2 · odometer - travel each: see {@link SurfaceSelfContact.travel}).
   */
  private lookAgain(k: number, i: number, j: number, b: number, c: number): void {
    const f = this.first;
    const travel = this.travel;
    const odometer = this.odometer;
    let credit = 2 * odometer[i - f]! - travel[i - f]! + 2 * odometer[j - f]! - travel[j - f]!;
    if (b >= 0) credit += 2 * odometer[b - f]! - travel[b - f]! + 2 * odometer[c - f]! - travel[c - f]!;
    this.due[k] = this.clearance[0]! + credit;
  }

  /** Active particle pair `k`, due: at least `thickness` apart, with friction (`separatePair`). */
  private separate(world: World, k: number): void {
    const pos = world.particles.position;
    const i = this.active[k * 4]!;
    const j = this.active[k * 4 + 1]!;
    const d = Math.sqrt(distance2(pos, i * 3, j * 3));
    if (d >= this.thickness) {
      this.clearance[0] = d - this.thickness;
      this.lookAgain(k, i, j, -1, -1);
      return;
    }
    // Touching: looked at again in the next pass.
    this.due[k] = -Infinity;
    const ix = pos[i * 3]!;
    const iy = pos[i * 3 + 1]!;
    const iz = pos[i * 3 + 2]!;
    const jx = pos[j * 3]!;
    const jy = pos[j * 3 + 1]!;
    const jz = pos[j * 3 + 2]!;
    if (separatePair(world, i, j, this.minimum)) {
      // Its travel grows by its move (in the L1 norm, at least as long).
      const travel = this.travel;
      const f = this.first;
      travel[i - f] = travel[i - f]! + Math.abs(pos[i * 3]! - ix) + Math.abs(pos[i * 3 + 1]! - iy) + Math.abs(pos[i * 3 + 2]! - iz);
      travel[j - f] = travel[j - f]! + Math.abs(pos[j * 3]! - jx) + Math.abs(pos[j * 3 + 1]! - jy) + Math.abs(pos[j * 3 + 2]! - jz);
    }
  }

  /**
   * Active pair `k`, particle `i` and triangle (a, b, c), due (see {@link SurfaceSelfContact.due}):
   * over the triangle, at least `thickness` on its side of the
   * plane (see {@link SurfaceSelfContact.sides}); beside it, see
   * {@link SurfaceSelfContact.holdOffBeside}.
   */
  private holdOff(particles: ParticleStore, k: number): void {
    const pairs = this.active;
    const i = pairs[k * 4]!;
    const a = pairs[k * 4 + 1]!;
    const b = pairs[k * 4 + 2]!;
    const c = pairs[k * 4 + 3]!;
    const due = this.due;
    const side = this.sides[k]!;
    const pos = particles.position;
    const thickness = this.thickness;
    const ax = pos[a * 3]!;
    const ay = pos[a * 3 + 1]!;
    const az = pos[a * 3 + 2]!;
    const e1x = pos[b * 3]! - ax;
    const e1y = pos[b * 3 + 1]! - ay;
    const e1z = pos[b * 3 + 2]! - az;
    const e2x = pos[c * 3]! - ax;
    const e2y = pos[c * 3 + 1]! - ay;
    const e2z = pos[c * 3 + 2]! - az;
    let nx = e1y * e2z - e1z * e2y;
    let ny = e1z * e2x - e1x * e2z;
    let nz = e1x * e2y - e1y * e2x;
    const len2 = nx * nx + ny * ny + nz * nz;
    // Degenerate, or touching below: looked at again in the next pass.
    due[k] = -Infinity;
    if (len2 === 0) return;
    const px = pos[i * 3]! - ax;
    const py = pos[i * 3 + 1]! - ay;
    const pz = pos[i * 3 + 2]! - az;
    const above = px * nx + py * ny + pz * nz;
    // Without a remembered side, the side it is on now.
    const toward = side !== 0 ? side : above < 0 ? -1 : 1;
    const len = Math.sqrt(len2);
    // Its height on its side; the thickness or more (as far from the triangle, at least):
    // most pairs end here.
    const d = (above * toward) / len;
    const gap = thickness - d;
    if (gap <= 0) {
      this.clearance[0] = -gap;
      this.lookAgain(k, i, a, b, c);
      return;
    }
    nx = (nx / len) * toward;
    ny = (ny / len) * toward;
    nz = (nz / len) * toward;
    // Barycentric weights of the particle's foot on the plane. A particle beside the triangle is held from
    // its nearest edge or corner instead: left alone, one lying past a free edge within the thickness of the
    // plane met the contact 11 mm deep the moment its foot drifted over the edge, was pushed off at the
    // push-out speed and pulled back by its sticks, over and over (crumples buzzed at 1–2 m/s).
    const d00 = e1x * e1x + e1y * e1y + e1z * e1z;
    const d01 = e1x * e2x + e1y * e2y + e1z * e2z;
    const d11 = e2x * e2x + e2y * e2y + e2z * e2z;
    const d20 = px * e1x + py * e1y + pz * e1z;
    const d21 = px * e2x + py * e2y + pz * e2z;
    const det = d00 * d11 - d01 * d01;
    const v = (d11 * d20 - d01 * d21) / det;
    const u = (d00 * d21 - d01 * d20) / det;
    const s = 1 - v - u;
    if (v < -EDGE || u < -EDGE || s < -EDGE) {
      // Its distance from the triangle is at least √(d² + o²), o the foot's distance outside,
      // itself at least a negative weight's size times that corner's height over the opposite
      // edge (|n| / edge): most particles beside a triangle end here, without the closest point.
      const fx = e2x - e1x;
      const fy = e2y - e1y;
      const fz = e2z - e1z;
      const outside2 = Math.max(s < 0 ? (s * s * len2) / (fx * fx + fy * fy + fz * fz) : 0, v < 0 ? (v * v * len2) / d11 : 0, u < 0 ? (u * u * len2) / d00 : 0);
      const far2 = d * d + outside2;
      if (far2 >= thickness * thickness) {
        this.clearance[0] = Math.sqrt(far2) - thickness;
        this.lookAgain(k, i, a, b, c);
        return;
      }
      this.holdOffBeside(particles, i, a, b, c);
      this.clearance[0] = this.push[7]!;
      this.lookAgain(k, i, a, b, c);
      return;
    }
    // Over the triangle within the thickness with no side yet (it came over since its side was
    // read): held on the side it is on from now on.
    if (side === 0) this.sides[k] = toward;
    const push = this.push;
    push[0] = clamp01(s);
    push[1] = clamp01(v);
    push[2] = clamp01(u);
    push[3] = nx;
    push[4] = ny;
    push[5] = nz;
    push[6] = gap;
    this.pushApart(particles, i, a, b, c);
  }

  /**
   * Particle `i` beside triangle (a, b, c) (its foot on the plane outside): at least `thickness`
   * from the triangle's closest point, along the line from that point, shared by inverse mass and
   * the closest point's barycentric weights, with the same push-out limit as over the triangle.
   */
  private holdOffBeside(particles: ParticleStore, i: number, a: number, b: number, c: number): void {
    const pos = particles.position;
    const q = this.buf;
    q[0] = pos[i * 3]!;
    q[1] = pos[i * 3 + 1]!;
    q[2] = pos[i * 3 + 2]!;
    q[3] = pos[a * 3]!;
    q[4] = pos[a * 3 + 1]!;
    q[5] = pos[a * 3 + 2]!;
    q[6] = pos[b * 3]!;
    q[7] = pos[b * 3 + 1]!;
    q[8] = pos[b * 3 + 2]!;
    q[9] = pos[c * 3]!;
    q[10] = pos[c * 3 + 1]!;
    q[11] = pos[c * 3 + 2]!;
    closestPointTriangle(q);
    const ba = q[PointTri.U]!;
    const bb = q[PointTri.V]!;
    const bc = q[PointTri.W]!;
    const nx = q[0]! - (ba * q[3]! + bb * q[6]! + bc * q[9]!);
    const ny = q[1]! - (ba * q[4]! + bb * q[7]! + bc * q[10]!);
    const nz = q[2]! - (ba * q[5]! + bb * q[8]! + bc * q[11]!);
    const d2 = nx * nx + ny * ny + nz * nz;
    const thickness = this.thickness;
    const push = this.push;
    // How far from touching it is left (0 once pushed): see holdOff's `due`.
    push[7] = d2 >= thickness * thickness ? Math.sqrt(d2) - thickness : 0;
    if (d2 >= thickness * thickness || d2 === 0) return;
    const d = Math.sqrt(d2);
    push[0] = ba;
    push[1] = bb;
    push[2] = bc;
    push[3] = nx / d;
    push[4] = ny / d;
    push[5] = nz / d;
    push[6] = thickness - d;
    this.pushApart(particles, i, a, b, c);
  }

  /**
   * Moves particle `i` away from the point of triangle (a, b, c) with barycentric weights
   * `push[0..3)` along the unit normal `push[3..6)` by the gap `push[6]`, shared by inverse mass
   * and those weights (so momentum is kept). As between bodies, the pair is left parting by at most
   * `pushOutSpeed` this substep: where sticks and pins press the sheet thinner than the thickness
   * (a cloth wound tight, a crumple held by its own sticks), the whole gap becoming speed every
   * substep pumped it up to 140 m/s; capped, the sheet is held apart at that speed instead.
   */
  private pushApart(particles: ParticleStore, i: number, a: number, b: number, c: number): void {
    const pos = particles.position;
    const prev = particles.previous;
    const w = particles.inverseMass;
    const push = this.push;
    const ba = push[0]!;
    const bb = push[1]!;
    const bc = push[2]!;
    const nx = push[3]!;
    const ny = push[4]!;
    const nz = push[5]!;
    const wi = w[i]!;
    const wa = w[a]! * ba;
    const wb = w[b]! * bb;
    const wc = w[c]! * bc;
    const denominator = wi + wa * ba + wb * bb + wc * bc;
    if (denominator === 0) return;
    const moved =
      (pos[i * 3]! - prev[i * 3]! - ba * (pos[a * 3]! - prev[a * 3]!) - bb * (pos[b * 3]! - prev[b * 3]!) - bc * (pos[c * 3]! - prev[c * 3]!)) * nx +
      (pos[i * 3 + 1]! - prev[i * 3 + 1]! - ba * (pos[a * 3 + 1]! - prev[a * 3 + 1]!) - bb * (pos[b * 3 + 1]! - prev[b * 3 + 1]!) - bc * (pos[c * 3 + 1]! - prev[c * 3 + 1]!)) * ny +
      (pos[i * 3 + 2]! - prev[i * 3 + 2]! - ba * (pos[a * 3 + 2]! - prev[a * 3 + 2]!) - bb * (pos[b * 3 + 2]! - prev[b * 3 + 2]!) - bc * (pos[c * 3 + 2]! - prev[c * 3 + 2]!)) * nz;
    const gap = push[6]!;
    const room = this.room[0]! - moved;
    const depth = gap < room ? gap : room;
    if (depth <= 0) return;
    const lambda = depth / denominator;
    move(pos, i, nx, ny, nz, wi * lambda);
    move(pos, a, nx, ny, nz, -wa * lambda);
    move(pos, b, nx, ny, nz, -wb * lambda);
    move(pos, c, nx, ny, nz, -wc * lambda);
    // Along a unit normal: each moves as far as its share.
    const travel = this.travel;
    const f = this.first;
    travel[i - f] = travel[i - f]! + wi * lambda;
    travel[a - f] = travel[a - f]! + wa * lambda;
    travel[b - f] = travel[b - f]! + wb * lambda;
    travel[c - f] = travel[c - f]! + wc * lambda;
  }

  private addActive(i: number, a: number, b: number, c: number, side: number): void {
    const k = this.activeCount++;
    if (k * 4 + 4 > this.active.length) {
      const grown = new Int32Array(this.active.length * 2);
      grown.set(this.active);
      this.active = grown;
    }
    if (k >= this.sides.length) {
      const grown = new Int8Array(this.sides.length * 2);
      grown.set(this.sides);
      this.sides = grown;
      const dueGrown = new Float64Array(this.due.length * 2);
      dueGrown.set(this.due);
      this.due = dueGrown;
      const lookedGrown = new Uint8Array(this.looked.length * 2);
      lookedGrown.set(this.looked);
      this.looked = lookedGrown;
    }
    this.active[k * 4] = i;
    this.active[k * 4 + 1] = a;
    this.active[k * 4 + 2] = b;
    this.active[k * 4 + 3] = c;
    this.sides[k] = side;
    this.due[k] = -Infinity;
    this.looked[k] = 0;
    this.enter(i);
    this.enter(a);
    if (c >= 0) {
      this.enter(b);
      this.enter(c);
    }
  }
}

/**
 * How near (in thicknesses, plus both reaches) a pair must be when picked to be
 * projected until the next pick. More than 1: the reaches are estimates from
 * the latest substep, and a particle that a collision or a stick turns mid-step
 * can move further. (Measured, picking before every step: at 1 the layers of
 * the folded sheet in particleCollisions.test.ts close to 0.75 of the thickness
 * while landing.) A kept pick leaves ACTIVE_SKIN - PICK_SLACK of it: a pair left
 * out is a quarter of a thickness beyond touching, plus the reaches. (Measured
 * against 2: the fold of selfCollision.test.ts thrown down at 0, 1 and 4 m/s
 * comes as near, 0.97, 0.96 and 0.23 of the thickness at its lowest, and the
 * draped 64² cloth projects about a fifth fewer pairs.)
 */
const ACTIVE_SKIN = 1.75;

/**
 * How far (in thicknesses) each particle may move relative to the body, beyond
 * the reach it was picked with, before its body's pairs are picked again: a
 * pick is kept while no particle has moved more than half of it (a pair left
 * out was then at least ACTIVE_SKIN - PICK_SLACK thicknesses plus both
 * reaches apart), so a sheet at rest is picked once.
 */
export const PICK_SLACK = 0.5;

/**
 * Cosine of the largest angle (18°) between one of a particle's triangles and their mean
 * normal for the particle to count as flat. Over a flat particle's neighbours' triangles
 * the normals then differ by at most about 72°, far from the fold back over itself (near
 * 180°) that puts a neighbour over a triangle.
 */
const FLAT = 0.95;

/** Numbers per triangle in {@link SurfaceSelfContact.activate}'s frames. */
const FRAME = 21;

/** Barycentric slack: a particle this far (in weight) past a triangle's edge still counts as over it, so none slips between two. */
const EDGE = 1e-3;

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

function distance2(pos: Float64Array, p: number, q: number): number {
  const dx = pos[p]! - pos[q]!;
  const dy = pos[p + 1]! - pos[q + 1]!;
  const dz = pos[p + 2]! - pos[q + 2]!;
  return dx * dx + dy * dy + dz * dz;
}

function move(pos: Float64Array, i: number, x: number, y: number, z: number, by: number): void {
  pos[i * 3] = pos[i * 3]! + x * by;
  pos[i * 3 + 1] = pos[i * 3 + 1]! + y * by;
  pos[i * 3 + 2] = pos[i * 3 + 2]! + z * by;
}
