import { widen } from './constraints/table.js';
import { MAX_PARTICLES, PARTICLE_GENERATIONS, PARTICLE_SLOT_BITS } from './ids.js';

/** Bit flags stored per particle slot. */
export const enum ParticleFlag {
  /** The slot holds a live particle. */
  Alive = 1,
  /** A pin holds the particle: sticks treat it as infinitely heavy. */
  Pinned = 2,
  /** The particle's body is asleep: it is neither integrated nor projected. */
  Asleep = 4,
  /**
   * A collider's push-out was held back by `pushOutRoom` since the flag was last
   * cleared: the particle brought penetration into the substep (made or moved
   * inside a collider). Set by the projections; a ragdoll's own passes read and
   * clear it (`bodies/ownPasses.ts`).
   */
  HeldBack = 8,
  /** The particle was inside something in the running step (its push-out was held back), or a rigid pin let it go since the last step: the launch guard bounds its body's speed (see `colliders/launchGuard.ts`). */
  Pushed = 16,
}

/**
 * Struct-of-arrays storage for particles. Positions, previous positions and
 * force accumulators are xyz-interleaved Float64Arrays (faster than Float32 in
 * the relaxation loop, see docs/performance.md); the rest is one value per slot.
 *
 * Slots are handed out contiguously so a body's particles form one range; removed
 * slots go to a free list and are reused. Arrays grow by doubling, never inside a step.
 * Re-read the arrays after adding particles: growing replaces them. With the
 * WebAssembly stick kernel on, `position` and `inverseMass` are views into its
 * memory and are also replaced when sticks are added (see `WasmStickKernel`).
 */
export class ParticleStore {
  /** Number of slots the arrays can hold. */
  capacity: number;
  /** One past the highest slot in use (freeing the last slots lowers it): loops run over `[0, end)`. */
  end = 0;
  /** Live particles. */
  count = 0;

  /** Current positions (m), xyz interleaved: particle `i` at `[3i, 3i + 3)`. */
  position: Float64Array;
  /** Positions one substep ago (Verlet's x*), xyz interleaved: velocity is implicit in `position - previous`. */
  previous: Float64Array;
  /**
   * Total external force (N) for the current substep: rebuilt every substep from
   * `heldForce` plus what the world's force generators add.
   */
  force: Float64Array;
  /**
   * Forces given with `world.applyForce` outside force generators, held for the
   * whole step (all its substeps), then cleared.
   */
  heldForce: Float64Array;
  /** 1 / mass (1/kg); 0 for an immovable or pinned particle. */
  inverseMass: Float64Array;
  /** The inverse mass a particle had before a pin made it immovable. */
  freeInverseMass: Float64Array;
  /** Collision radius (m). */
  radius: Float64Array;
  /** Coulomb friction coefficient μ against colliders. */
  friction: Float64Array;
  /** Bounciness in [0, 1] against colliders (the larger of this and the collider's applies). */
  restitution: Float64Array;
  /** {@link ParticleFlag} bits: alive, pinned, asleep. */
  flags: Uint8Array;
  /** Particles of the same non-zero group do not collide with each other. */
  group: Uint32Array;
  /** Id of the body whose range holds the particle, or -1 (set by `World.addBody`). */
  body: Int32Array;
  /** Penetration depth collected by collider projections in the current substep (for friction). */
  contactDepth: Float64Array;
  /** Sum of the collider pushes of the current substep, xyz interleaved (for restitution and the push-out speed limit). */
  contactPush: Float64Array;
  /** Restitution of the latest contact (the larger of the particle's and the collider's). */
  contactRestitution: Float64Array;
  /** Outward normal of the latest contact, xyz interleaved. */
  contactNormal: Float64Array;
  /** Friction coefficient of the latest contact (particle μ × collider μ). */
  contactFriction: Float64Array;
  /** Sum of the position corrections friction made in the current substep, xyz interleaved (held within μ × `contactDepth`). */
  frictionPush: Float64Array;
  /**
   * How far the surface under the latest contact moved this substep, xyz
   * interleaved: zero for static colliders, a kinematic collider's motion at
   * the contact otherwise (`respondToContacts` works on velocity relative to it).
   */
  contactMotion: Float64Array;
  /**
   * The generation of each slot's particle: 0 for a slot's first particle, higher
   * for each reuse (see {@link ParticleStore.allocate}). A slot and its generation
   * name one particle, even after the slot is reused; a particle's id carries the
   * generation in its high bits (see `ParticleId`). Freeing a slot raises it, so
   * a freed slot's generation is the one its next particle at least gets.
   */
  generation: Uint32Array;
  /**
   * One more than the highest generation any particle of each slot has had: a
   * new particle gets at least this, so no id handed out before names it, also
   * after a snapshot restored the slot's older generation. Not part of a
   * snapshot: it remembers what was handed out, whatever was restored since.
   */
  issued: Uint32Array;
  /**
   * How far (m) a collider may push a particle out along its normal in one
   * substep beyond taking back the particle's own approach (see `pushOut`):
   * `maxPushOutSpeed` × the substep, set by the step; unlimited outside it.
   */
  pushOutRoom = Infinity;
  /** Counts changes of a particle's mass through `setMass`: anchors (immovable particles) may have come or gone. */
  massChanges = 0;

  private freeSlots: number[] = [];

  constructor(capacity = 64) {
    this.capacity = capacity;
    this.position = new Float64Array(capacity * 3);
    this.previous = new Float64Array(capacity * 3);
    this.force = new Float64Array(capacity * 3);
    this.heldForce = new Float64Array(capacity * 3);
    this.inverseMass = new Float64Array(capacity);
    this.freeInverseMass = new Float64Array(capacity);
    this.radius = new Float64Array(capacity);
    this.friction = new Float64Array(capacity);
    this.restitution = new Float64Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.group = new Uint32Array(capacity);
    this.body = new Int32Array(capacity).fill(-1);
    this.contactDepth = new Float64Array(capacity);
    this.contactNormal = new Float64Array(capacity * 3);
    this.contactFriction = new Float64Array(capacity);
    this.frictionPush = new Float64Array(capacity * 3);
    this.contactPush = new Float64Array(capacity * 3);
    this.contactMotion = new Float64Array(capacity * 3);
    this.contactRestitution = new Float64Array(capacity);
    this.generation = new Uint32Array(capacity);
    this.issued = new Uint32Array(capacity);
  }

  /** True when slot `slot` (an index into the columns, not an id) holds a live particle. */
  isAlive(slot: number): boolean {
    return Number.isInteger(slot) && slot >= 0 && slot < this.end && (this.flags[slot]! & ParticleFlag.Alive) !== 0;
  }

  /** The id of the particle in slot `slot`: the slot with its generation above it. */
  idOf(slot: number): number {
    return slot + (this.generation[slot]! % PARTICLE_GENERATIONS) * MAX_PARTICLES;
  }

  /** The slot particle id `id` names, or -1 when it names no live particle (never one, removed, or from a former occupant of its slot). */
  slotOf(id: number): number {
    if (!(id >= 0 && id < MAX_PARTICLES * PARTICLE_GENERATIONS) || !Number.isInteger(id)) return -1;
    const slot = id & (MAX_PARTICLES - 1);
    if (slot >= this.end || (this.flags[slot]! & ParticleFlag.Alive) === 0) return -1;
    return id >>> PARTICLE_SLOT_BITS === this.generation[slot]! % PARTICLE_GENERATIONS ? slot : -1;
  }

  /**
   * Reserves `n` contiguous slots and returns the first. A single slot comes from the
   * free list when one is there; a range reuses a run of free slots when one is long enough.
   */
  allocate(n: number): number {
    const start = this.findFreeRun(n);
    if (start >= 0) {
      for (let i = start; i < start + n; i++) this.freeSlots.splice(this.freeSlots.indexOf(i), 1);
    } else {
      if (this.end + n > MAX_PARTICLES) throw new RangeError(`addParticles: a world holds at most ${MAX_PARTICLES} particles; ${this.count} live and ${n} more asked for`);
      if (this.end + n > this.capacity) this.grow(this.end + n);
    }
    const first = start >= 0 ? start : this.end;
    if (start < 0) this.end += n;
    const generation = this.rangeGeneration(first, n);
    for (let i = first; i < first + n; i++) {
      this.flags[i] = ParticleFlag.Alive;
      this.body[i] = -1;
      this.generation[i] = generation;
      this.issued[i] = generation + 1;
    }
    this.count += n;
    return first;
  }

  /**
   * One generation for the whole range, so that `first + i` is the id of its
   * i-th particle: at least each slot's (raised when it was freed), and, in the
   * id's wrapped form, none of the former particles' (so none of their ids names a newcomer).
   */
  private rangeGeneration(first: number, n: number): number {
    let generation = 0;
    for (let i = first; i < first + n; i++) generation = Math.max(generation, this.generation[i]!, this.issued[i]!);
    for (let tries = 0; tries <= n; tries++, generation++) {
      let clash = false;
      for (let i = first; i < first + n && !clash; i++) {
        const former = Math.max(this.generation[i]!, this.issued[i]!) - 1;
        clash = former >= 0 && (generation - former) % PARTICLE_GENERATIONS === 0;
      }
      if (!clash) break;
    }
    return generation;
  }

  /** Frees a slot; its data is zeroed so a dead slot never moves or collides. */
  release(slot: number): void {
    this.generation[slot] = this.generation[slot]! + 1;
    this.flags[slot] = 0;
    this.inverseMass[slot] = 0;
    this.freeInverseMass[slot] = 0;
    this.radius[slot] = 0;
    this.friction[slot] = 0;
    this.restitution[slot] = 0;
    this.group[slot] = 0;
    this.body[slot] = -1;
    this.contactDepth[slot] = 0;
    for (let k = 0; k < 3; k++) {
      this.position[slot * 3 + k] = 0;
      this.previous[slot * 3 + k] = 0;
      this.force[slot * 3 + k] = 0;
      this.heldForce[slot * 3 + k] = 0;
      this.contactPush[slot * 3 + k] = 0;
      this.frictionPush[slot * 3 + k] = 0;
      this.contactMotion[slot * 3 + k] = 0;
    }
    this.freeSlots.push(slot);
    this.count--;
    if (slot === this.end - 1) this.trimEnd();
  }

  /**
   * Lowers `end` past the free slots at the top, so that loops over `[0, end)`
   * cost what the live particles need, not what the world once held.
   */
  private trimEnd(): void {
    let end = this.end;
    while (end > 0 && (this.flags[end - 1]! & ParticleFlag.Alive) === 0) end--;
    if (end === this.end) return;
    this.end = end;
    this.freeSlots = this.freeSlots.filter((slot) => slot < end);
  }

  /** The free slots, for snapshots. */
  get free(): readonly number[] {
    return this.freeSlots;
  }

  /** Replaces the free list (restore from a snapshot). */
  setFree(slots: readonly number[]): void {
    this.freeSlots = slots.slice();
  }

  private findFreeRun(n: number): number {
    if (this.freeSlots.length < n) return -1;
    const sorted = this.freeSlots.slice().sort((a, b) => a - b);
    let runStart = 0;
    for (let i = 1; i <= sorted.length; i++) {
      if (i - runStart >= n) return sorted[runStart]!;
      if (i < sorted.length && sorted[i] !== sorted[i - 1]! + 1) runStart = i;
    }
    return -1;
  }

  /** Ensures room for `needed` slots, doubling so that repeated adds stay cheap. */
  grow(needed: number): void {
    let capacity = this.capacity;
    while (capacity < needed) capacity *= 2;
    if (capacity === this.capacity) return;
    this.position = widen(this.position, capacity, 3);
    this.previous = widen(this.previous, capacity, 3);
    this.force = widen(this.force, capacity, 3);
    this.heldForce = widen(this.heldForce, capacity, 3);
    this.inverseMass = widen(this.inverseMass, capacity, 1);
    this.freeInverseMass = widen(this.freeInverseMass, capacity, 1);
    this.radius = widen(this.radius, capacity, 1);
    this.friction = widen(this.friction, capacity, 1);
    this.restitution = widen(this.restitution, capacity, 1);
    this.flags = widen(this.flags, capacity, 1);
    this.group = widen(this.group, capacity, 1);
    this.body = widen(this.body, capacity, 1);
    this.body.fill(-1, this.capacity);
    this.generation = widen(this.generation, capacity, 1);
    this.issued = widen(this.issued, capacity, 1);
    this.contactDepth = widen(this.contactDepth, capacity, 1);
    this.contactNormal = widen(this.contactNormal, capacity, 3);
    this.contactFriction = widen(this.contactFriction, capacity, 1);
    this.frictionPush = widen(this.frictionPush, capacity, 3);
    this.contactPush = widen(this.contactPush, capacity, 3);
    this.contactMotion = widen(this.contactMotion, capacity, 3);
    this.contactRestitution = widen(this.contactRestitution, capacity, 1);
    this.capacity = capacity;
  }
}

/**
 * Copies `from[begin..end)` to `to[begin..end)`. A plain loop: in Node 20
 * `TypedArray.prototype.set` allocates a view per call. One shared function, so
 * that rare callers (a body falling asleep) run code the step keeps optimised.
 */
export function copyValues(from: Float64Array, to: Float64Array, begin: number, end: number): void {
  for (let i = begin; i < end; i++) to[i] = from[i]!;
}
