import type { BodyRecord } from '../bodies/body.js';
import type { Constraint } from '../constraints/constraint.js';
import type { WorldFeature } from '../features.js';
import { particleSlot, type CallbackId, type ConstraintId } from '../ids.js';
import { checkBoolean, checkNumber } from '../math.js';
import { ParticleFlag } from '../particles.js';
import { addBuiltinConstraint } from '../stages.js';
import type { World } from '../world.js';
import { EdgeSelfContact, type EdgeSelfContactState } from './edgeSelfContact.js';
import { PICK_SLACK } from './selfContactSkins.js';
import { stickNeighbours } from './stickNeighbours.js';
import { SurfaceSelfContact, type SurfaceSelfContactState } from './surfaceSelfContact.js';

/** What {@link enableSelfCollision} takes. */
export interface SelfCollisionOptions {
  /** Least distance (m) between two particles of the body that no stick joins; keep it below the stick lengths. */
  thickness: number;
  /**
   * Also hold edges of the surface apart where they cross (edge–edge contact),
   * for what particle–triangle contact misses: two edges meeting with no
   * particle near the other's face, such as two strips crossing edge on.
   * Default false: it costs more than the rest of self-collision where a
   * cloth lies in layers (docs/performance.md), and sheets meeting face on
   * (folds, crumples, a cloth pulled through a ring) do not need it.
   */
  edges?: boolean;
  /**
   * Most speed (m/s) at which a particle and a triangle of the body closer than
   * `thickness` are pushed apart, beyond their own motion. Default: the world's
   * `contacts.maxPushOutSpeed` (3 m/s unless set). Where the body's own sticks
   * press two layers closer than the thickness (a tight crumple), the push and
   * the sticks fight, and the particles caught there can move at up to this
   * speed. By default a crumple at rest does not buzz (docs/self-collision.md:
   * no particle above 0.5 m/s 5 s after landing). A lower speed lets a cloth
   * wound tighter than its thickness allows pass through itself far more
   * (`test/core/selfCollision.test.ts`, the ring wound twice).
   */
  maxPushOutSpeed?: number;
}

/** Returned by {@link enableSelfCollision}. */
export interface SelfCollision {
  /** Stops the body's self-collision (the same as `world.remove(selfCollision)`); harmless when already stopped. */
  remove(): void;
  /** Searches for the pairs that can touch run so far, whole or of a few particles (a cloth at rest needs none after its first). */
  readonly searches: number;
  /** Of {@link SelfCollision.searches}, those of every particle of the body; the others searched only the few that moved beyond their allowance. */
  readonly wholeSearches: number;
  /** Pairs the latest search listed: particle–triangle, particle–particle and, with `edges`, edge–edge. */
  readonly listed: number;
  /** Pairs projected in the latest step's passes. */
  readonly projected: number;
  /** Picks of the pairs to project run so far (a cloth at rest needs none after its first). */
  readonly picks: number;
  /**
   * Looks at particle–triangle and particle pairs in the latest step's passes, summed over the
   * passes: each pass skips a projected pair whose particles cannot have moved far enough
   * since its latest look to touch (a cloth lying in layers looks at its real contacts).
   */
  readonly examined: number;
}

/**
 * Self-collision of one body as a constraint: once per step (a before-step
 * callback) {@link SurfaceSelfContact} lists the pairs that can touch during
 * the step; each relaxation pass projects them. A feature of the world (named
 * `selfCollision#n`): a snapshot keeps what its searches and picks build on, and
 * removing the body takes it out.
 */
class SelfCollisionPass implements Constraint, WorldFeature {
  /** Remade when a snapshot from before it was enabled is loaded. */
  contact: SurfaceSelfContact;
  /** The body's first particle slot (its id carries a generation once the slot is reused). */
  private readonly first: number;
  edges: EdgeSelfContact | undefined;
  /** Its name among the world's features. */
  readonly name: string;
  /** Its constraint and its before-step callback in the world, until it is removed. */
  private readonly constraint: ConstraintId;
  private readonly callback: CallbackId;

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
    this.contact = new SurfaceSelfContact(this.first, record.count, thickness, joinedStart, joined, pushOutSpeed);
    this.edges = withEdges ? new EdgeSelfContact(this.first, record.count, thickness, this.contact.search.motion, joinedStart, joined) : undefined;
    this.outgrownList = new Int32Array(record.count);
    this.searchedNow = new Uint8Array(record.count);
    this.next = new Float64Array(record.count);
    this.picked = new Float64Array(record.count * 3);
    this.pickedReach = new Float64Array(record.count);
    this.stale = new Int32Array(record.count);
    this.reach = new Float64Array(record.count);
    this.constraint = addBuiltinConstraint(world, 'selfCollision', this);
    this.callback = world.onBeforeStep((w) => this.prepare(w));
    this.name = world.features.addInstance('selfCollision', this);
  }

  /**
   * What the next steps build on, for snapshots: the search's lists and grids, the picked
   * pairs with their sides and odometers, where each particle was picked. Plain data (copies).
   */
  saveState(): SelfCollisionState {
    return {
      count: this.record.count,
      contact: this.contact.saveState(),
      edges: this.edges?.saveState(),
      searchedTriangles: this.searchedTriangles,
      picked: this.picked.slice(),
      pickedReach: this.pickedReach.slice(),
      searches: this.searches,
      wholeSearches: this.wholeSearches,
      picks: this.picks,
    };
  }

  /** Returns to {@link SelfCollisionPass.saveState}'s copy; without one (enabled after the snapshot), starts over as when enabled. */
  loadState(_world: World, data: unknown): void {
    const state = data as SelfCollisionState | undefined;
    // None, or one of another self-collision (another body, or edges where this has none): start over.
    if (state === undefined || state.count !== this.record.count || (state.edges === undefined) !== (this.edges === undefined)) {
      this.contact = new SurfaceSelfContact(this.first, this.record.count, this.thickness, this.joinedStart, this.joined, this.pushOutSpeed);
      this.edges = this.withEdges ? new EdgeSelfContact(this.first, this.record.count, this.thickness, this.contact.search.motion, this.joinedStart, this.joined) : undefined;
      this.searchedTriangles = -1;
      this.picked.fill(0);
      this.pickedReach.fill(0);
      this.searches = 0;
      this.wholeSearches = 0;
      this.picks = 0;
      return;
    }
    this.contact.loadState(state.contact);
    if (state.edges !== undefined) this.edges?.loadState(state.edges);
    this.searchedTriangles = state.searchedTriangles;
    this.picked.set(state.picked);
    this.pickedReach.set(state.pickedReach);
    this.searches = state.searches;
    this.wholeSearches = state.wholeSearches;
    this.picks = state.picks;
  }

  /** Its body is going: it goes with it. */
  bodyRemoved(world: World, body: BodyRecord): void {
    if (body === this.record) world.features.delete(this.name);
  }

  /** Taken out of the world (`features.delete`): its constraint and callback go. */
  dispose(world: World): void {
    if (world.hasConstraint(this.constraint)) world.removeConstraint(this.constraint);
    world.remove(this.callback);
  }

  /** The particles {@link SelfCollisionPass.findOutgrown} found. */
  private readonly outgrownList: Int32Array;
  /** Per particle, 1 while it has just been searched alone (its pairs are picked again). */
  private readonly searchedNow: Uint8Array;
  /** Per particle, how far it can move relative to the body in the coming step (m). */
  private readonly next: Float64Array;
  private searchedTriangles = -1;
  /** Where each particle was when its pairs were last picked, less the body's mean position then, xyz (body-relative index). */
  private readonly picked: Float64Array;
  /** Per particle, its `next` when its pairs were last picked. */
  private readonly pickedReach: Float64Array;
  /** The particles {@link SelfCollisionPass.findStale} found. */
  private readonly stale: Int32Array;
  /** Per particle, its reach for a repick (see {@link SelfCollisionPass.findStale}). */
  private readonly reach: Float64Array;
  /** The body's mean position now (before this step). */
  private readonly centre = new Float64Array(3);
  /** Searches run so far, whole or of a few particles. */
  searches = 0;
  /** Whole searches run so far. */
  wholeSearches = 0;
  /** Picks run so far. */
  picks = 0;

  /**
   * Before each step: searches again for the pairs that can touch (the body's
   * triangles are read then: tearing changes them), unless the latest search
   * still covers this step. A search lists pairs within `thickness` plus each
   * side's allowance, a skin of one thickness plus its next step's move; it
   * holds until some particle's move since (relative to the body, so a cloth
   * falling as a whole does not count) plus its next step's move exceeds its
   * allowance. A cloth at rest is searched once (Verlet lists with a skin).
   * When a few particles outgrow their allowance (at most {@link LOCAL_SEARCH}
   * of the body, counting those searched so since the latest whole search),
   * only their pairs are searched again.
   * Then, from the search's list, picks the pairs the passes project; later,
   * again only the pairs of the particles that have moved further than their
   * pick allowed for (see {@link PICK_SLACK}), and reads the others' sides.
   */
  prepare(world: World): void {
    const particles = world.particles;
    const first = this.first;
    const end = first + this.record.count;
    const pos = particles.position;
    const prev = particles.previous;
    const flags = particles.flags;
    // The body's mean position and mean move per substep.
    let cx = 0;
    let cy = 0;
    let cz = 0;
    let mx = 0;
    let my = 0;
    let mz = 0;
    let n = 0;
    for (let i = first; i < end; i++) {
      if ((flags[i]! & ParticleFlag.Alive) === 0) continue;
      cx += pos[i * 3]!;
      cy += pos[i * 3 + 1]!;
      cz += pos[i * 3 + 2]!;
      mx += pos[i * 3]! - prev[i * 3]!;
      my += pos[i * 3 + 1]! - prev[i * 3 + 1]!;
      mz += pos[i * 3 + 2]! - prev[i * 3 + 2]!;
      n++;
    }
    if (n === 0) return;
    cx /= n;
    cy /= n;
    cz /= n;
    mx /= n;
    my /= n;
    mz /= n;
    const contact = this.contact;
    const search = contact.search;
    const allowance = search.motion;
    const steps = world.substeps;
    const thickness = contact.thickness;
    const surface = this.record.surface;
    const triangleCount = surface ? surface.triangleCount : 0;
    // How far each particle can move relative to the body in the next step: its latest
    // substep's move less the mean, over the step, half as much again for what forces
    // and constraints add.
    const next = this.next;
    for (let i = first; i < end; i++) {
      const dx = pos[i * 3]! - prev[i * 3]! - mx;
      const dy = pos[i * 3 + 1]! - prev[i * 3 + 1]! - my;
      const dz = pos[i * 3 + 2]! - prev[i * 3 + 2]! - mz;
      next[i - first] = Math.min(1.5 * Math.sqrt(dx * dx + dy * dy + dz * dz) * steps, MAX_REACH);
    }
    const triangles = surface ? surface.triangles : NO_TRIANGLES;
    const now = this.centre;
    now[0] = cx;
    now[1] = cy;
    now[2] = cz;
    const count = this.record.count;
    const outgrown = triangleCount !== this.searchedTriangles ? count : this.findOutgrown(world);
    // Edge pairs have no search of their own particles: with them, always a whole search.
    const whole = outgrown > 0 && (triangleCount !== this.searchedTriangles || this.edges !== undefined || outgrown + search.searchedAlone > Math.max(count * LOCAL_SEARCH, LOCAL_SEARCH_LEAST));
    if (whole) {
      for (let k = 0; k < count; k++) allowance[k] = thickness + SKIN_STEPS * next[k]!;
      this.searchedTriangles = triangleCount;
      this.searches++;
      this.wholeSearches++;
      search.findAll(particles, triangles, triangleCount, now);
      this.edges?.findCandidates(particles, triangles, triangleCount);
    } else if (outgrown > 0) {
      const list = this.outgrownList;
      for (let s = 0; s < outgrown; s++) {
        const k = list[s]! - first;
        allowance[k] = thickness + SKIN_STEPS * next[k]!;
        this.searchedNow[k] = 1;
      }
      this.searches++;
      search.findAround(particles, triangles, triangleCount, now, list, outgrown);
    }
    // A particle's pairs stay picked while it has not moved, relative to the body, further
    // than half the slack beyond the reach it was picked with (its next move included). A few
    // particles past that (a settling cloth: 1 to 17 of 4 096 at a time), and those just
    // searched alone, have their pairs picked again; many, all of them.
    const staleCount = whole ? count : this.findStale(world);
    if (outgrown > 0 && !whole) for (let s = 0; s < outgrown; s++) this.searchedNow[this.outgrownList[s]! - first] = 0;
    if (staleCount > this.record.count * WHOLE_PICK) {
      for (let i = first; i < end; i++) this.repicked(i, pos);
      this.picks++;
      contact.activate(particles, triangles, triangleCount, next);
    } else {
      if (staleCount > 0) {
        contact.repick(particles, triangles, this.stale, staleCount, this.reach);
        for (let s = 0; s < staleCount; s++) this.repicked(this.stale[s]!, pos);
        this.picks++;
      }
      contact.refreshSides(particles);
    }
    this.edges?.activate(particles, next);
  }

  /** Particle `i` (positions `pos`) has just had its pairs picked. */
  private repicked(i: number, pos: Float64Array): void {
    const k = i - this.first;
    const centre = this.centre;
    this.picked[k * 3] = pos[i * 3]! - centre[0]!;
    this.picked[k * 3 + 1] = pos[i * 3 + 1]! - centre[1]!;
    this.picked[k * 3 + 2] = pos[i * 3 + 2]! - centre[2]!;
    this.pickedReach[k] = this.next[k]!;
  }

  /**
   * Lists in {@link SelfCollisionPass.stale} the live particles that have moved, relative to
   * the body, further than half the pick's slack beyond the reach they were picked with (their
   * next move included), and returns how many; sets each particle's reach for a repick
   * ({@link SelfCollisionPass.reach}): a stale one's next move, any other's reach when picked
   * plus how far it has moved since.
   */
  private findStale(world: World): number {
    const pos = world.particles.position;
    const flags = world.particles.flags;
    const first = this.first;
    const end = first + this.record.count;
    const next = this.next;
    const picked = this.picked;
    const pickedReach = this.pickedReach;
    const reach = this.reach;
    const searchedNow = this.searchedNow;
    const slack = 0.5 * PICK_SLACK * this.contact.thickness;
    const cx = this.centre[0]!;
    const cy = this.centre[1]!;
    const cz = this.centre[2]!;
    let count = 0;
    for (let i = first; i < end; i++) {
      const k = i - first;
      const sx = pos[i * 3]! - cx - picked[k * 3]!;
      const sy = pos[i * 3 + 1]! - cy - picked[k * 3 + 1]!;
      const sz = pos[i * 3 + 2]! - cz - picked[k * 3 + 2]!;
      const moved = Math.sqrt(sx * sx + sy * sy + sz * sz);
      if ((flags[i]! & ParticleFlag.Alive) !== 0 && (moved + next[k]! > pickedReach[k]! + slack || searchedNow[k] === 1)) {
        this.stale[count++] = i;
        reach[k] = next[k]!;
      } else reach[k] = pickedReach[k]! + moved;
    }
    return count;
  }

  /**
   * Whether some live particle's move since its latest search (relative to the body) plus its
   * next move exceeds its allowance: if so, lists in {@link SelfCollisionPass.outgrownList} those
   * that have used up {@link SEARCH_AHEAD} of theirs and returns how many; else 0.
   */
  private findOutgrown(world: World): number {
    const pos = world.particles.position;
    const flags = world.particles.flags;
    const first = this.first;
    const end = first + this.record.count;
    const next = this.next;
    const search = this.contact.search;
    const from = search.searched;
    const limit = search.motion;
    const cx = this.centre[0]!;
    const cy = this.centre[1]!;
    const cz = this.centre[2]!;
    let count = 0;
    let over = false;
    for (let i = first; i < end; i++) {
      if ((flags[i]! & ParticleFlag.Alive) === 0) continue;
      const k = i - first;
      const sx = pos[i * 3]! - cx - from[k * 3]!;
      const sy = pos[i * 3 + 1]! - cy - from[k * 3 + 1]!;
      const sz = pos[i * 3 + 2]! - cz - from[k * 3 + 2]!;
      const used = Math.sqrt(sx * sx + sy * sy + sz * sz) + next[k]!;
      if (used > limit[k]!) over = true;
      if (used > SEARCH_AHEAD * limit[k]!) this.outgrownList[count++] = i;
    }
    return over ? count : 0;
  }

  project(world: World): void {
    // A sleeping body has no motion to fix.
    if ((world.particles.flags[this.first]! & ParticleFlag.Asleep) !== 0) return;
    this.contact.project(world);
    this.edges?.project(world.particles);
  }
}

/** Most a particle's next move counts for in a search (m): bounds its cost when a cloth is flung. */
const MAX_REACH = 0.15;

/**
 * A search's skin, in steps of each particle's current move beyond one
 * thickness: a particle moving steadily outlasts about this many steps before
 * it calls for the next search. (On the bench's draped 64² cloth a skin of 1
 * step searches in 99 of 300 steps, 2 in six, with a list about as long.)
 */
const SKIN_STEPS = 2;

const NO_TRIANGLES = new Int32Array(0);

/**
 * Up to this fraction of a body's particles outgrowing their allowance, counted
 * with those searched alone since the latest whole search, only theirs are
 * searched again (`SelfContactSearch.findAround`); past it, all. Those searched
 * alone since lie in small grids of their own, made again at each local
 * search, and a local search costs each particle ten to twenty times its share
 * of a whole one (its triangles are searched too): past a sixteenth, a whole
 * search is about as cheap, and clears them.
 */
const LOCAL_SEARCH = 1 / 16;

/** The least number of particles {@link LOCAL_SEARCH} allows, for small bodies. */
const LOCAL_SEARCH_LEAST = 64;

/**
 * When some particle outgrows its allowance, those that have used this much of
 * theirs are searched with it: a settling cloth's particles, slowing one after
 * another, then call for a search every few dozen steps rather than every step.
 * (Over six drops of the 64² cloth onto a ball, steps 90–390: at 1, 20–68
 * searches and 6.0 ms per step; at 0.5, 3–19 searches and 5.3 ms.)
 */
const SEARCH_AHEAD = 0.5;

/**
 * Above this fraction of a body's particles stale, all its pairs are picked
 * again rather than theirs alone (a repick tests each of their listed pairs,
 * a whole pick every listed pair once).
 */
const WHOLE_PICK = 0.125;

/**
 * Keeps a body from passing through itself: every particle stays `thickness`
 * away from each triangle of the body's surface it is not a corner of (a
 * cloth's, read from `body.surface` every step, so tearing is followed), on the
 * side it started the step on, and from every particle of the body no stick
 * joins directly. A fold holds at any thickness, thinner than the spacing too:
 * a particle cannot fall between the corners of a triangle. Bodies without a
 * surface (ropes, loose particles) get the particle pairs only. The sticks are
 * read now: add them before enabling. Corrections are shared by inverse mass,
 * so momentum is kept. See {@link SurfaceSelfContact}. With `edges: true`,
 * edges that cross are held apart too ({@link EdgeSelfContact}).
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
  const handle: SelfCollision = {
    remove() {
      world.features.delete(pass.name);
    },
    get searches() {
      return pass.searches;
    },
    get wholeSearches() {
      return pass.wholeSearches;
    },
    get listed() {
      return pass.contact.search.candidates + (pass.edges?.candidates ?? 0);
    },
    get projected() {
      return pass.contact.activePairs + (pass.edges?.activePairs ?? 0);
    },
    get picks() {
      return pass.picks;
    },
    get examined() {
      return pass.contact.examined;
    },
  };
  return handle;
}

/** What a snapshot keeps of one self-collision (plain data): see `SelfCollisionPass.saveState`. */
interface SelfCollisionState {
  /** The body's particle count, to tell a snapshot of another body. */
  count: number;
  contact: SurfaceSelfContactState;
  edges: EdgeSelfContactState | undefined;
  searchedTriangles: number;
  picked: Float64Array;
  pickedReach: Float64Array;
  searches: number;
  wholeSearches: number;
  picks: number;
}
