import type { ParticleStore } from '../particles.js';
import type { World } from '../world.js';
import type { ActiveSelfPairsState } from './activeSelfPairs.js';
import { SelfContactProjection } from './selfContactProjection.js';
import { SelfContactSearch, type SelfContactSearchState } from './selfContactSearch.js';
import { ACTIVE_SKIN, PICK_SLACK } from './selfContactSkins.js';
import { FRAME, TriangleFrames } from './triangleFrames.js';

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
  /** The pairs the passes project, picked by {@link SurfaceSelfContact.activate}, and their projection. */
  readonly projection: SelfContactProjection;
  /** The frames of the triangles, for the picks. */
  private readonly framing: TriangleFrames;

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
    joinedStart: Int32Array,
    joined: Int32Array,
    pushOutSpeed = Infinity,
  ) {
    this.search = new SelfContactSearch(first, count, thickness, joinedStart, joined);
    this.staleMark = new Uint8Array(count);
    this.projection = new SelfContactProjection(first, count, thickness, pushOutSpeed);
    this.framing = new TriangleFrames(first, count, thickness, joinedStart, joined);
  }

  /**
   * What the next steps build on, for snapshots: plain data (copies). Of the triangles' frames
   * only their room: a pick makes a triangle's frame before it reads it, but only a whole pick
   * makes room for them.
   */
  saveState(): SurfaceSelfContactState {
    return {
      search: this.search.saveState(),
      projection: this.projection.saveState(),
      frames: this.framing.frames.length,
      framed: this.framed.length,
    };
  }

  /** Returns to {@link SurfaceSelfContact.saveState}'s copy (copied again). */
  loadState(state: SurfaceSelfContactState): void {
    this.search.loadState(state.search);
    this.projection.loadState(state.projection);
    if (this.framing.frames.length !== state.frames) this.framing.frames = new Float64Array(state.frames);
    // The repicks' marks only tell one repick's finds apart: none marked, numbered afresh.
    this.seen.fill(0);
    this.seenNeighbour.fill(0);
    this.framed = new Int32Array(state.framed);
    this.repicks = 0;
  }

  /** Pairs projected in this step's passes. */
  get activePairs(): number {
    return this.projection.activePairs;
  }

  /** Looks at pairs in this step's passes so far, summed over the passes (the rest were skipped, too far apart to touch). */
  get examined(): number {
    return this.projection.examined;
  }

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
    this.projection.dropMarked(mark);
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
      this.framing.frameOf(pos, triangles, t, reach);
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
   * (see `TriangleFrames.curved`) it is not looked at. Allocates only when more pairs pass
   * than ever before, or the body has more triangles than ever.
   */
  activate(particles: ParticleStore, triangles: ArrayLike<number>, triangleCount: number, reach: Float64Array): void {
    const pos = particles.position;
    const first = this.first;
    if (this.framed.length < triangleCount) this.framed = new Int32Array(triangleCount);
    this.framing.frameAll(pos, triangles, triangleCount, reach);
    this.framing.markCurved(triangles, triangleCount);
    const curved = this.framing.curved;
    this.projection.clear(pos);
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

  /** Before a step that keeps the latest pick: see `ActiveSelfPairs.refreshSides`. */
  refreshSides(particles: ParticleStore): void {
    this.projection.refreshSides(particles);
  }

  /** One relaxation pass over the pairs picked for this step (see {@link SelfContactProjection.project}). Allocates nothing. */
  project(world: World): void {
    this.projection.project(world);
  }

  /** Activates particles `i` and `j` (no stick joins them) if they can come within `thickness` of each other. */
  private pickParticles(pos: Float64Array, reach: Float64Array, i: number, j: number): void {
    const near = ACTIVE_SKIN * this.thickness + reach[i - this.first]! + reach[j - this.first]!;
    if (distance2(pos, i * 3, j * 3) < near * near) this.projection.add(i, j, -1, -1, 0);
  }

  /**
   * Activates particle `i` against triangle `t` (corners a, b, c) if it can come within
   * `thickness` of it: over the triangle, with the side it is on; beside it, where `joined`
   * (a stick neighbour of a corner) only near the edge.
   */
  private pickTriangle(pos: Float64Array, reach: Float64Array, i: number, a: number, b: number, c: number, t: number, joined: boolean): void {
    const frames = this.framing.frames;
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
      this.projection.add(i, a, b, c, d > 0 ? 1 : d < 0 ? -1 : 0);
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
    this.projection.add(i, a, b, c, 0);
  }
}

function distance2(pos: Float64Array, p: number, q: number): number {
  const dx = pos[p]! - pos[q]!;
  const dy = pos[p + 1]! - pos[q + 1]!;
  const dz = pos[p + 2]! - pos[q + 2]!;
  return dx * dx + dy * dy + dz * dz;
}

/** What a snapshot keeps of a {@link SurfaceSelfContact} (plain data). */
export interface SurfaceSelfContactState {
  search: SelfContactSearchState;
  projection: ActiveSelfPairsState;
  /** The length of the triangles' frames. */
  frames: number;
  /** The length of the repicks' marks of the triangles. */
  framed: number;
}
