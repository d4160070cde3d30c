import { widen } from '../constraints/table.js';
import type { FeatureKind, WorldFeature } from '../features.js';
import type { World } from '../world.js';
import { BodyBroadPhase, type BroadPhaseState } from './bodyBroadPhase.js';
import type { HullManifold } from './hullContact.js';
import type { FaceMemory, HullTests } from './hullTests.js';
import { makeBodyContact, type CapsuleTests } from './bodyContactTests.js';
import { segmentTriangle } from './segmentTriangleContact.js';

// The contact buffer's layout and the pair kinds (bodyContactTests.ts's BodyContact,
// bodyBroadPhase.ts's Pair) as plain numbers: a const enum imported from another
// module is a property load per use under vitest's module runner, and this is the
// innermost loop of the step.
const NORMAL = 0;
const DEPTH = 3;
const COUNT = 4;
const COEF = 5;
const REACH = 11;
const PREFER = 12;
const POINT_SEGMENT = 0;
const SEGMENT_SEGMENT = 1;
const POINT_HULL = 2;
const SEGMENT_HULL = 3;
const SEGMENT_TRIANGLE = 4;
const HULL_HULL = 5;
const POINT_TRIANGLE = 6;
/** bodyFeatures.ts's HULL_EDGE: the `segRow` of a hull's edge. */
const HULL_EDGE = -1;
/** ParticleFlag.Alive and .Asleep. */
const ALIVE = 1;
const ASLEEP = 4;
/** ParticleFlag.Pushed. */
const PUSHED = 16;

/** Scratch doubles of the stage (a double in a field or an argument may be boxed). */
const enum Limit {
  /** Most separating displacement per substep a contact may leave the pair with: `maxPushOutSpeed`·h. */
  Cap = 0,
  /** Approach per substep beyond which a contact wakes a sleeping body: sleep speed·h + |g|·h². */
  Wake = 1,
  /** The contact's weight Σ shareᵢ·cᵢ² (see `weigh`). */
  Weight = 2,
  Size = 3,
}

/**
 * Collisions between bodies, on in every world that has a body to collide by
 * (from its first rope, capsule edge or hull; see `World.bodyContactStage`): cloth and rope particles
 * against ragdoll and rigid-body capsules and hulls, capsules against capsules
 * (ragdoll against ragdoll), capsules, hull edges and corners and rope segments
 * against cloth triangles (a cloth is a surface, not a net of balls), and hulls
 * against hulls (box on box). Bodies joined by a stick or a
 * shared particle do not collide with each other, nor do bodies whose
 * collision groups rule it out (`collisionGroups`), nor two sleeping bodies.
 *
 * It is a stage of every relaxation pass, after the user constraints and before
 * the static colliders (so the ground has the last word). The first pass of a
 * step runs the broad phase ({@link BodyBroadPhase}); every pass tests the
 * candidates and projects each contact found, the paper's section 5 shared by
 * inverse mass between the particles of both features (equal and opposite, so
 * momentum is kept). Three rules keep it from adding energy or stalling:
 *
 * 1. **Limited push-out.** A contact may leave its pair separating by at most
 *    `world.contacts.maxPushOutSpeed` per second over the substep, like the
 *    static contacts' rule: two bodies created inside each other come apart at
 *    that speed instead of flying apart.
 * 2. **Friction** on the relative motion of the two contact points: up to μ ×
 *    the depth removed of their tangential displacement this substep, shared like
 *    the push, stopping rather than reversing (static below the friction angle).
 *    μ of a contact is √(μa·μb) of the two sides (Box2D's mixing), so two bodies
 *    of μ 0.5 grip like either one on a collider of friction 0.5.
 * 3. **No bounce**: a contact stops the approach (restitution 0 between bodies).
 *
 * A sleeping body in contact is held still (infinitely heavy) until something
 * moves into it faster than the sleep speed (beyond gravity's own press), which
 * wakes it with its island: a box resting on a sleeping box lets both sleep, a
 * box dropped on it wakes it.
 *
 * @example
 * ```ts
 * const contacts = bodyContacts(world);
 * contacts.enabled = false; // bodies pass through each other again (static colliders still hold)
 * ```
 */
export class BodyContacts implements WorldFeature {
  /** Collide bodies with each other. Default true. */
  enabled = true;
  /** The broad phase and its candidate pairs. */
  readonly broad = new BodyBroadPhase();
  /** Contacts projected in the latest substep, over all its passes. */
  contacts = 0;
  private readonly buf = makeBodyContact();
  /**
   * The tests against hulls, with their manifold: null until the world's first hull hands them
   * over (see {@link BodyContacts.addHullTests}); no hull pair is listed before.
   */
  private hulls: HullTests | null = null;
  /**
   * The tests against capsule edges: null until the world's first capsule edge hands them over
   * (see {@link BodyContacts.addCapsuleTests}); no capsule pair is listed before.
   */
  private capsules: CapsuleTests | null = null;
  private manifold: HullManifold | null = null;
  /** Which hull face each particle was last pushed out through (see `pointHull`). */
  private readonly memory: FaceMemory = { key: new Int32Array(0), face: new Int32Array(0), seen: new Int32Array(0), now: 1 };
  private readonly limits = new Float64Array(Limit.Size);
  /** The inverse mass each particle of the contact in the buffer moves by (see `weigh`). */
  private readonly share = new Float64Array(6);
  /** The step the broad phase last ran in, and the substeps it still covers. */
  private step = -1;
  private left = 0;

  /** The contacts' memory a snapshot keeps: which face each particle last left a hull by, and the broad phase's order and sleepers' boxes. */
  saveState(): BodyContactsState {
    const m = this.memory;
    return { key: m.key.slice(), face: m.face.slice(), seen: m.seen.slice(), now: m.now, broad: this.broad.saveState() };
  }

  /** Returns to {@link saveState}'s copy; without one, the contacts start with no memory. */
  loadState(world: World, data: unknown): void {
    const m = this.memory;
    const state = data as BodyContactsState | undefined;
    this.step = -1;
    this.left = 0;
    if (state === undefined) {
      m.seen.fill(0);
      this.broad.loadState(world, undefined);
      return;
    }
    m.key = state.key.slice();
    m.face = state.face.slice();
    m.seen = state.seen.slice();
    m.now = state.now;
    this.broad.loadState(world, state.broad);
  }

  /** @internal Called with the world's first hull: from then on the stage tests hull pairs with `tests`. */
  addHullTests(tests: HullTests): void {
    if (this.hulls !== null) return;
    this.hulls = tests;
    this.manifold = tests.manifold();
    this.broad.solids = tests.pairs;
  }

  /** @internal Called with the world's first capsule edge: from then on the stage tests capsule pairs with `tests`. */
  addCapsuleTests(tests: CapsuleTests): void {
    this.capsules = tests;
    this.broad.solids = tests.pairs;
  }

  /** Relaxation pass `pass` of a substep: the broad phase on a step's first, then every candidate is tested and projected. */
  project(world: World, pass: number): void {
    if (!this.enabled) return;
    const broad = this.broad;
    if (pass === 0) {
      // One broad phase per step, at its first substep (or when a substep count ran out: a restored snapshot).
      const context = world.stepContext;
      if (world.stepCount !== this.step || this.left <= 0) {
        broad.run(world, context.substeps);
        this.step = world.stepCount;
        this.left = context.substeps;
      }
      this.left--;
      this.contacts = 0;
      const memory = this.memory;
      memory.now++;
      if (memory.seen.length < world.particles.capacity) {
        memory.key = widen(memory.key, world.particles.capacity);
        memory.face = widen(memory.face, world.particles.capacity);
        memory.seen = widen(memory.seen, world.particles.capacity);
      }
      const g2 = context.gx * context.gx + context.gy * context.gy + context.gz * context.gz;
      this.limits[Limit.Cap] = context.pushOutCap;
      this.limits[Limit.Wake] = world.sleep.speed * context.h + Math.sqrt(g2) * context.h2;
    }
    const features = broad.features;
    const particles = world.particles;
    const radius = particles.radius;
    const w = particles.inverseMass;
    const { c, ids } = this.buf;
    const segRadius = broad.segRadius;
    for (let k = 0; k < broad.count; k++) {
      const x = broad.x[k]!;
      const y = broad.y[k]!;
      switch (broad.kind[k]) {
        case POINT_SEGMENT:
          c[REACH] = radius[x]! + segRadius[y]!;
          if (this.capsules!.pointSegment(particles, x, features.segA[y]!, features.segB[y]!, c, ids)) this.resolve(world);
          break;
        case SEGMENT_SEGMENT: {
          const a = features.segA[x]!;
          const b = features.segB[x]!;
          c[REACH] = segRadius[x]! + segRadius[y]!;
          c[PREFER] = centre(w[a]!, w[b]!);
          if (this.capsules!.segmentSegment(particles, a, b, features.segA[y]!, features.segB[y]!, c, ids)) this.resolve(world);
          break;
        }
        case POINT_HULL:
          c[REACH] = radius[x]! + features.hullRadius[y]!;
          if (this.hulls!.pointHull(particles, x, features.hulls[y]!, this.memory, features.hullKey[y]!, c, ids)) this.resolve(world);
          break;
        case SEGMENT_HULL: {
          const a = features.segA[x]!;
          const b = features.segB[x]!;
          const hull = features.hulls[y]!;
          c[REACH] = segRadius[x]! + features.hullRadius[y]!;
          c[PREFER] = centre(w[a]!, w[b]!);
          // A capsule's ends are points of its radius; a hull's corners are listed on their own.
          if (features.segRow[x]! >= 0) {
            if (this.hulls!.pointHull(particles, a, hull, this.memory, features.hullKey[y]!, c, ids)) this.resolve(world);
            if (this.hulls!.pointHull(particles, b, hull, this.memory, features.hullKey[y]!, c, ids)) this.resolve(world);
          }
          if (this.hulls!.segmentHull(particles, a, b, hull, c, ids)) this.resolve(world);
          break;
        }
        case HULL_HULL:
          this.manifold!.margin[0] = features.hullRadius[x]! + features.hullRadius[y]!;
          this.hulls!.hullHull(particles, features.hulls[x]!, features.hulls[y]!, this.manifold!);
          this.resolveManifold(world);
          break;
        case SEGMENT_TRIANGLE: {
          const a = features.segA[x]!;
          const b = features.segB[x]!;
          const ta = features.triA[y]!;
          const tb = features.triB[y]!;
          const tc = features.triC[y]!;
          // A hull keeps the triangle's particles out by their radius already (point against hull):
          // its edges need only keep the triangles from passing between them, not round them off.
          // The triangle's thickness: the largest radius of its corners (written out: a double returned from a call may be boxed).
          const ra = radius[ta]!;
          const rb = radius[tb]!;
          const rc = radius[tc]!;
          const thick = ra > rb ? (ra > rc ? ra : rc) : rb > rc ? rb : rc;
          c[REACH] = segRadius[x]! + (features.segRow[x]! === HULL_EDGE ? 0 : thick);
          c[PREFER] = centre(w[a]!, w[b]!);
          if (segmentTriangle(particles, a, b, ta, tb, tc, c, ids)) this.resolve(world);
          break;
        }
        case POINT_TRIANGLE: {
          const ta = features.triA[y]!;
          const tb = features.triB[y]!;
          const tc = features.triC[y]!;
          c[REACH] = radius[x]!;
          if (segmentTriangle(particles, x, x, ta, tb, tc, c, ids)) this.resolve(world);
          break;
        }
      }
    }
  }

  /** Projects each point of the hull pair's manifold, its depth measured from the particles as they are by then. */
  private resolveManifold(world: World): void {
    const m = this.manifold!;
    const margin = m.margin[0]!;
    const pos = world.particles.position;
    const { c, ids } = this.buf;
    const nx = m.normal[0]!;
    const ny = m.normal[1]!;
    const nz = m.normal[2]!;
    for (let k = 0; k < m.count; k++) {
      const n = m.sizes[k]!;
      let gap = 0;
      for (let j = 0; j < n; j++) {
        const i = m.ids[k * 6 + j]!;
        const coef = m.coefs[k * 6 + j]!;
        ids[j] = i;
        c[COEF + j] = coef;
        gap += coef * (pos[i * 3]! * nx + pos[i * 3 + 1]! * ny + pos[i * 3 + 2]! * nz);
      }
      if (gap >= margin) continue;
      c[NORMAL] = nx;
      c[NORMAL + 1] = ny;
      c[NORMAL + 2] = nz;
      c[DEPTH] = margin - gap;
      c[COUNT] = n;
      this.resolve(world);
    }
  }

  /**
   * Projects the contact in the buffer: every particle i moves by
   * sᵢ·cᵢ·λ along the normal, λ = depth / Σ sⱼ·cⱼ², sᵢ its inverse mass or
   * less where its tethers hold it (see `weigh`), so the contact points part
   * by exactly the depth and Σ m·Δx = 0 but for what a held particle's anchors
   * take; then friction takes back part of the points' relative sliding the same way.
   */
  private resolve(world: World): void {
    const particles = world.particles;
    const pos = particles.position;
    const prev = particles.previous;
    const flags = particles.flags;
    const c = this.buf.c;
    const ids = this.buf.ids;
    const n = c[COUNT]!;
    const nx = c[NORMAL]!;
    const ny = c[NORMAL + 1]!;
    const nz = c[NORMAL + 2]!;
    // How far the contact points moved apart along the normal this substep (negative: closer).
    let moved = 0;
    let sleeper = -1;
    for (let k = 0; k < n; k++) {
      const p = ids[k]! * 3;
      moved += c[COEF + k]! * ((pos[p]! - prev[p]!) * nx + (pos[p + 1]! - prev[p + 1]!) * ny + (pos[p + 2]! - prev[p + 2]!) * nz);
      if ((flags[ids[k]!]! & ASLEEP) !== 0) sleeper = ids[k]!;
    }
    if (sleeper >= 0 && -moved > this.limits[Limit.Wake]!) world.wake(sleeper);
    this.weigh(world);
    const weight = this.limits[Limit.Weight]!;
    if (weight === 0) return;
    // Rule 1: leave the pair parting by at most the push-out cap this substep.
    const room = this.limits[Limit.Cap]! - moved;
    const depth = c[DEPTH]! < room ? c[DEPTH]! : room;
    // Held back: the pair was inside each other, and what joins either side must not carry the pushes off (see `LaunchGuard`).
    if (c[DEPTH]! > room) for (let k = 0; k < n; k++) flags[ids[k]!] = flags[ids[k]!]! | PUSHED;
    if (depth <= 0) return;
    const lambda = depth / weight;
    let dx = 0;
    let dy = 0;
    let dz = 0;
    let frictionA = 0;
    let frictionB = 0;
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      const p = i * 3;
      const coef = c[COEF + k]!;
      if (movable(flags[i]!)) {
        const s = this.share[k]! * coef * lambda;
        pos[p] = pos[p]! + nx * s;
        pos[p + 1] = pos[p + 1]! + ny * s;
        pos[p + 2] = pos[p + 2]! + nz * s;
      }
      dx += coef * (pos[p]! - prev[p]!);
      dy += coef * (pos[p + 1]! - prev[p + 1]!);
      dz += coef * (pos[p + 2]! - prev[p + 2]!);
      if (coef > 0) frictionA += coef * particles.friction[i]!;
      else frictionB -= coef * particles.friction[i]!;
    }
    this.contacts++;
    // Rule 2: friction on the relative tangential displacement of the contact points.
    const dn = dx * nx + dy * ny + dz * nz;
    const tx = dx - dn * nx;
    const ty = dy - dn * ny;
    const tz = dz - dn * nz;
    const slide = Math.sqrt(tx * tx + ty * ty + tz * tz);
    const grip = Math.sqrt(frictionA * frictionB) * depth;
    if (slide === 0 || grip === 0) return;
    const cut = (grip >= slide ? 1 : grip / slide) / weight;
    for (let k = 0; k < n; k++) {
      const i = ids[k]!;
      if (!movable(flags[i]!)) continue;
      const p = i * 3;
      const s = this.share[k]! * c[COEF + k]! * cut;
      pos[p] = pos[p]! - tx * s;
      pos[p + 1] = pos[p + 1]! - ty * s;
      pos[p + 2] = pos[p + 2]! - tz * s;
    }
  }

  /**
   * Fills `share` with the inverse mass each particle of the contact in the
   * buffer moves by, and the contact's weight Σ shareᵢ·cᵢ² into `limits`. A particle
   * its taut tethers hold against the push (a hammock under a box, see
   * `Tethers.holds`) moves as if it weighed at least what the other side
   * does: the tension that holds it answers the push, not its own few grams,
   * and its anchors take the difference in momentum.
   */
  private weigh(world: World): void {
    const particles = world.particles;
    const w = particles.inverseMass;
    const flags = particles.flags;
    const { c, ids } = this.buf;
    const n = c[COUNT]!;
    const share = this.share;
    let positive = 0;
    let negative = 0;
    for (let k = 0; k < n; k++) {
      const coef = c[COEF + k]!;
      const wk = movable(flags[ids[k]!]!) ? w[ids[k]!]! : 0;
      share[k] = wk;
      if (coef > 0) positive += wk * coef * coef;
      else negative += wk * coef * coef;
    }
    const tethers = world.tethers;
    if (tethers.count > 0 && positive > 0 && negative > 0) {
      const nx = c[NORMAL]!;
      const ny = c[NORMAL + 1]!;
      const nz = c[NORMAL + 2]!;
      for (let k = 0; k < n; k++) {
        const coef = c[COEF + k]!;
        if (share[k] === 0) continue;
        const other = coef > 0 ? negative : positive;
        const most = other / (coef * coef);
        if (share[k]! <= most) continue;
        const sign = coef > 0 ? 1 : -1;
        tethers.push[0] = sign * nx;
        tethers.push[1] = sign * ny;
        tethers.push[2] = sign * nz;
        if (tethers.holds(ids[k]!)) share[k] = most;
      }
    }
    let weight = 0;
    for (let k = 0; k < n; k++) weight += share[k]! * c[COEF + k]! * c[COEF + k]!;
    this.limits[Limit.Weight] = weight;
  }
}

/** Alive and awake (an immovable particle has inverse mass 0, so it needs no test here). */
function movable(flags: number): boolean {
  return (flags & (ALIVE | ASLEEP)) === ALIVE;
}

/** Where a segment's mass centre lies, as a parameter from its first end: w_a / (w_a + w_b). */
function centre(wa: number, wb: number): number {
  return wa + wb > 0 ? wa / (wa + wb) : 0.5;
}

/** The world's body-contact stage as a feature of it (see `World.features`). */
export const BODY_CONTACTS: FeatureKind<BodyContacts> = {
  name: 'bodyContacts',
  create: (world) => {
    const system = new BodyContacts();
    // The solver runs it in every relaxation pass from now on.
    world.bodyContactStage = system;
    return system;
  },
};

/**
 * The body-contact stage of `world` ({@link BodyContacts}), created on first use:
 * turn collisions between bodies off or on with its `enabled`, read how many
 * contacts the latest substep projected from its `contacts`.
 *
 * @example
 * ```ts
 * bodyContacts(world).enabled = false;
 * ```
 */
export function bodyContacts(world: World): BodyContacts {
  return world.features.of(BODY_CONTACTS);
}

/** What a snapshot keeps of the body contacts (see {@link BodyContacts.saveState}): plain data, for `world.snapshot()`. */
export interface BodyContactsState {
  key: Int32Array;
  face: Int32Array;
  seen: Int32Array;
  now: number;
  broad: BroadPhaseState;
}
