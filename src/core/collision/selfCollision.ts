import type { BodyRecord } from '../bodies/body.js';
import type { Constraint } from '../constraints/constraint.js';
import type { WorldFeature } from '../features.js';
import { particleSlot, type ConstraintId } from '../ids.js';
import { checkBoolean, checkNumber } from '../math.js';
import { ParticleFlag } from '../particles.js';
import { addBuiltinConstraint, addSubstepStage, dropSubstepStage } from '../stages.js';
import type { SubstepStage } from '../stepContext.js';
import type { World } from '../world.js';
import { EdgeSelfContact, type EdgeSelfContactState } from './edgeSelfContact.js';
import { SelfContactList, Span, type SelfContactListState } from './selfContactList.js';
import { SelfContactPush } from './selfContactPush.js';
import { SelfContactSearch } from './selfContactSearch.js';
import { PAIRS_SKIN, PAIRS_SUFFICE, SKIN, STRAYS_ALONE } from './selfContactTuning.js';
import { stickNeighbours } from './stickNeighbours.js';

/** What {@link enableSelfCollision} takes. */
export interface SelfCollisionOptions {
  /**
   * Least distance (m) between two particles of the body that no stick joins;
   * keep it below the stick lengths. Of 400 layers thrown onto another, none
   * passed through from a fifth of the spacing up but one made inside the
   * other's thickness; thinner, about one in 200 did at a tenth and a third of
   * those onto a hanging layer at a fiftieth, mostly where one layer wraps
   * round the other's rim, which `edges: true` holds from a twelfth of the
   * spacing (docs/self-collision.md, "What is tested").
   */
  thickness: number;
  /**
   * Also hold edges of the surface apart where they cross (edge–edge contact),
   * for what particle–triangle contact misses: two edges meeting with no
   * particle near the other's face, such as two strips crossing edge on, or a
   * layer far thinner than the spacing caught by a stick over another's rim.
   * Default false: it costs more than the rest of self-collision where a
   * cloth lies in layers (docs/performance.md), and sheets meeting face on
   * (folds, crumples, a cloth pulled through a ring) do not need it.
   */
  edges?: boolean;
  /**
   * Most speed (m/s) at which a particle and a triangle, or two particles, of
   * the body closer than `thickness` are pushed apart, beyond their own
   * motion. Default: the world's `contacts.maxPushOutSpeed` (3 m/s unless
   * set). Where the body's own sticks press two layers closer than the
   * thickness (a tight crumple), the push and the sticks fight, and the
   * particles caught there can move at up to this speed. A lower speed lets a
   * cloth wound tighter than its thickness allows pass through itself far
   * more (`test/core/selfCollision.test.ts`, the ring wound twice).
   */
  maxPushOutSpeed?: number;
}

/** Returned by {@link enableSelfCollision}. */
export interface SelfCollision {
  /** Stops the body's self-collision (the same as `world.remove(selfCollision)`); harmless when already stopped. */
  remove(): void;
  /** Listings of the pairs that can touch run so far (a cloth at rest needs none after its first). */
  readonly searches: number;
  /** Pairs the latest listing holds: particle pairs, particle–triangle pairs and, with `edges`, edge pairs. */
  readonly listed: number;
  /** Pairs found closer than the thickness, and pushed apart, in the latest relaxation pass. */
  readonly projected: number;
  /** Pairs looked at in the latest relaxation pass: those whose particles may have closed, since the listing, the room they had then. */
  readonly examined: number;
}

/**
 * Self-collision of one body: a substep stage lists the pairs that can touch
 * ({@link SelfContactList}) when the latest list may no longer hold, and a
 * relaxation constraint projects them every pass ({@link SelfContactPush}). A
 * feature of the world (named `selfCollision#n`): a snapshot keeps its list,
 * and removing the body takes it out.
 */
class SelfCollisionPass implements Constraint, SubstepStage, WorldFeature {
  /** Its name among the world's features. */
  readonly name: string;
  /** Listings run so far, and of those the listings of strays alone. */
  searches = 0;
  strayListings = 0;
  list: SelfContactList;
  push: SelfContactPush;
  private readonly search: SelfContactSearch;
  edges: EdgeSelfContact | undefined;
  /** The body's skin and the thickness (m): see {@link SelfContactList.begin}. */
  private readonly limits = new Float64Array(2);
  /** Per particle, half the latest listing's skin: an edge pair's allowance (see `EdgeSelfContact`). */
  private readonly allowance: Float64Array;
  /** The triangles of the latest listing (tearing drops some), or -1 before the first. */
  private listedTriangles = -1;
  /** Whether the surface's triangles are listed at all (see {@link PAIRS_SUFFICE}). */
  private readonly withTriangles: boolean;
  private readonly first: number;
  private readonly constraint: ConstraintId;
  private readonly hitsConstraint: ConstraintId;

  constructor(
    world: World,
    private readonly record: BodyRecord,
    private readonly thickness: number,
    private readonly joinedStart: Int32Array,
    private readonly joined: Int32Array,
    private readonly withEdges: boolean,
    private readonly pushOutSpeed: number,
  ) {
    this.first = particleSlot(record.first);
    const shape = surfaceShape(world, record);
    this.withTriangles = thickness < PAIRS_SUFFICE * shape.circumradius;
    const skin = (this.withTriangles ? SKIN : PAIRS_SKIN) * thickness;
    this.limits[0] = skin;
    this.limits[1] = thickness;
    this.allowance = new Float64Array(record.count).fill(skin / 2);
    this.list = new SelfContactList(this.first, record.count);
    this.search = new SelfContactSearch(this.first, record.count, joinedStart, joined);
    this.push = new SelfContactPush(this.list, this.first, thickness, pushOutSpeed, record.count);
    this.edges = withEdges ? new EdgeSelfContact(this.first, record.count, thickness, this.allowance, joinedStart, joined) : undefined;
    this.constraint = addBuiltinConstraint(world, 'selfCollision', this);
    this.hitsConstraint = addBuiltinConstraint(world, 'selfCollisionHits', { project: (w) => this.projectHits(w) });
    addSubstepStage(world, 'selfCollision', this);
    this.name = world.features.addInstance('selfCollision', this);
  }

  /** Pairs the latest listing holds. */
  get listed(): number {
    return this.list.pairCount + this.list.hitCount + (this.edges?.candidates ?? 0);
  }

  /** After each substep's integration: lists the pairs again when the latest list may miss one (or the triangles changed). */
  afterIntegrate(world: World): void {
    const particles = world.particles;
    if ((particles.flags[this.first]! & ParticleFlag.Asleep) !== 0) return;
    const surface = this.record.surface;
    const triangleCount = surface === undefined ? 0 : surface.triangleCount;
    const triangles = surface === undefined ? NO_TRIANGLES : surface.triangles;
    const listedTriangles = this.withTriangles ? triangleCount : 0;
    // Before the first listing, or once tearing changed the triangles, every particle is a stray.
    const strays = this.list.findStrays(particles, this.withTriangles, triangleCount !== this.listedTriangles);
    const listing = triangleCount === this.listedTriangles ? strays : this.record.count;
    if (listing > 0) {
      // Particle pairs alone: a few strays are listed again alone, many with all the rest. With
      // triangles, always all of it: a listing of strays there cost more than it saved (each
      // stray's triangles, and the skin kept as wide as the fall that set it; docs/self-collision.md).
      if (this.withTriangles || listing > STRAYS_ALONE * this.record.count || this.edges !== undefined || triangleCount !== this.listedTriangles) {
        this.list.begin(particles, listedTriangles, this.limits);
        this.search.search(this.list, particles, triangles, listedTriangles);
      } else {
        this.list.beginStrays(particles);
        this.search.searchStrays(this.list, particles);
        this.strayListings++;
      }
      this.list.endStrays();
      this.listedTriangles = triangleCount;
      this.searches++;
      if (this.edges !== undefined) {
        this.fitAllowance();
        this.edges.findCandidates(particles, triangles, triangleCount);
      }
    }
    // Edge pairs take the side each edge is on every substep (their lines' side flips as they go round each other's ends).
    this.edges?.activate(particles, this.allowance);
  }

  /** Each edge's allowance: half the latest listing's skin (the substep's moves may have widened it), or the body's before any. */
  private fitAllowance(): void {
    const listed = this.list.span[Span.Skin]!;
    const half = (listed > 0 ? listed : this.limits[0]!) / 2;
    // A loop, not `fill`: a double handed to a builtin is boxed (an allocation every listing).
    const allowance = this.allowance;
    for (let k = 0; k < allowance.length; k++) allowance[k] = half;
  }

  /** Every relaxation pass, before the colliders: the particle pairs. */
  project(world: World): void {
    // A sleeping body has no motion to fix.
    if ((world.particles.flags[this.first]! & ParticleFlag.Asleep) !== 0) return;
    this.push.projectPairs(world);
  }

  /**
   * Every relaxation pass, after the colliders: the edges, then the particle–triangle hits
   * (stages.ts says why; the hits last, so that their sides stand at the pass's end), then, where
   * either pushed, the colliders again over the body: the ground keeps the last word (what it
   * held was not pushed into it, but a particle just above it may have been).
   */
  private projectHits(world: World): void {
    const particles = world.particles;
    if ((particles.flags[this.first]! & ParticleFlag.Asleep) !== 0) return;
    const edges = this.edges !== undefined && this.edges.project(particles);
    const hits = this.push.projectHits(world);
    if (!hits && !edges) return;
    const colliders = world.colliders;
    if (edges) {
      for (let c = 0; c < colliders.length; c++) colliders[c]!.project(particles, this.first, this.first + this.record.count);
      return;
    }
    // The hits' particles alone: every other was projected this pass and has not moved since.
    const moved = this.push.moved;
    for (let m = 0; m < this.push.movedCount; m++) {
      const i = moved[m]!;
      for (let c = 0; c < colliders.length; c++) colliders[c]!.project(particles, i, i + 1);
    }
  }

  /** The list and what counts listings, for snapshots (plain data, copies). */
  saveState(): SelfCollisionState {
    return {
      count: this.record.count,
      list: this.list.saveState(),
      grid: this.search.saveState(),
      edges: this.edges?.saveState(),
      listedTriangles: this.listedTriangles,
      searches: this.searches,
    };
  }

  /** Returns to {@link SelfCollisionPass.saveState}'s copy; without one (enabled after the snapshot), starts over as when enabled. */
  loadState(_world: World, data: unknown): void {
    const state = data as SelfCollisionState | undefined;
    if (state === undefined || state.count !== this.record.count || (state.edges === undefined) !== (this.edges === undefined)) {
      this.list = new SelfContactList(this.first, this.record.count);
      this.push = new SelfContactPush(this.list, this.first, this.thickness, this.pushOutSpeed, this.record.count);
      this.edges = this.withEdges ? new EdgeSelfContact(this.first, this.record.count, this.thickness, this.allowance, this.joinedStart, this.joined) : undefined;
      this.fitAllowance();
      this.search.loadState(undefined, this.list);
      this.listedTriangles = -1;
      this.searches = 0;
      return;
    }
    this.list.loadState(state.list);
    this.search.loadState(state.grid, this.list);
    this.fitAllowance();
    if (state.edges !== undefined) this.edges?.loadState(state.edges);
    this.listedTriangles = state.listedTriangles;
    this.searches = state.searches;
  }

  /** Its body is going: it goes with it. */
  bodyRemoved(world: World, body: BodyRecord): void {
    if (body === this.record) world.features.delete(this.name);
  }

  /** Taken out of the world (`features.delete`): its constraint and stage go. */
  dispose(world: World): void {
    if (world.hasConstraint(this.constraint)) world.removeConstraint(this.constraint);
    if (world.hasConstraint(this.hitsConstraint)) world.removeConstraint(this.hitsConstraint);
    dropSubstepStage(world, this);
  }
}

const NO_TRIANGLES = new Uint32Array(0);

/** The body's surface at rest (now): its largest triangle circumradius and its triangles' mean edge (m); zeros without triangles. */
function surfaceShape(world: World, record: BodyRecord): { circumradius: number; edge: number } {
  const surface = record.surface;
  if (surface === undefined || surface.triangleCount === 0) return { circumradius: 0, edge: 0 };
  const pos = world.particles.position;
  const t = surface.triangles;
  let circumradius = 0;
  let edges = 0;
  const length = (p: number, q: number) => Math.hypot(pos[p * 3]! - pos[q * 3]!, pos[p * 3 + 1]! - pos[q * 3 + 1]!, pos[p * 3 + 2]! - pos[q * 3 + 2]!);
  for (let k = 0; k < surface.triangleCount; k++) {
    const a = t[k * 3]!;
    const b = t[k * 3 + 1]!;
    const c = t[k * 3 + 2]!;
    const ab = length(a, b);
    const bc = length(b, c);
    const ca = length(c, a);
    edges += ab + bc + ca;
    // R = abc / (4 · area), by Heron's formula for the area.
    const s = (ab + bc + ca) / 2;
    const area = Math.sqrt(Math.max(0, s * (s - ab) * (s - bc) * (s - ca)));
    circumradius = Math.max(circumradius, area > 0 ? (ab * bc * ca) / (4 * area) : Math.max(ab, bc, ca));
  }
  return { circumradius, edge: edges / (3 * surface.triangleCount) };
}

/**
 * Keeps a body from passing through itself: every particle stays `thickness`
 * away from each triangle of the body's surface it is not a corner of (a
 * cloth's, read from `body.surface`, so tearing is followed), on the side it
 * came over the triangle from, and from every particle of the body no stick
 * joins directly. Bodies without a surface (ropes, loose particles) get the
 * particle pairs only, as do surfaces whose thickness is at least about the
 * triangles' circumradius, which the particle pairs alone hold. The sticks are
 * read now: add them before enabling. Corrections are shared by inverse mass,
 * so momentum is kept. With `edges: true`, edges that cross are held apart too
 * ({@link EdgeSelfContact}). docs/self-collision.md explains the design.
 *
 * @example
 * ```ts
 * const cloth = world.bodies[clothId];
 * enableSelfCollision(world, cloth, { thickness: 0.02 });
 * ```
 */
export function enableSelfCollision(world: World, body: BodyRecord | number, options: SelfCollisionOptions): SelfCollision {
  const record = typeof body === 'number' ? world.bodies[body] : body;
  if (!record || !record.alive) throw new RangeError(`enableSelfCollision: body must be a live body or body id, got ${typeof body === 'number' ? body : String(body?.id)}`);
  if (!options || typeof options !== 'object') throw new TypeError(`enableSelfCollision: options must be { thickness, edges?, maxPushOutSpeed? }, got ${String(options)}`);
  const thickness = checkNumber(options.thickness, 'enableSelfCollision: thickness', Number.MIN_VALUE);
  const edges = checkBoolean(options.edges ?? false, 'enableSelfCollision: edges');
  // Infinity: the world's maxPushOutSpeed, whatever it is set to later.
  const pushOutSpeed = options.maxPushOutSpeed === undefined ? Infinity : checkNumber(options.maxPushOutSpeed, 'enableSelfCollision: maxPushOutSpeed', Number.MIN_VALUE);
  const { joinedStart, joined } = stickNeighbours(world, record);
  const pass = new SelfCollisionPass(world, record, thickness, joinedStart, joined, edges, pushOutSpeed);
  return {
    remove() {
      world.features.delete(pass.name);
    },
    get searches() {
      return pass.searches;
    },
    get listed() {
      return pass.listed;
    },
    get projected() {
      return pass.push.touching;
    },
    get examined() {
      return pass.push.examined;
    },
  };
}

/** What a snapshot keeps of one self-collision (plain data): see `SelfCollisionPass.saveState`. */
interface SelfCollisionState {
  /** The body's particle count, to tell a snapshot of another body. */
  count: number;
  list: SelfContactListState;
  /** The search's grid (absent in snapshots from before it was kept: the next listing sorts afresh). */
  grid?: Float64Array;
  edges: EdgeSelfContactState | undefined;
  listedTriangles: number;
  searches: number;
}
