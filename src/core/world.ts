import type { BodyOptions, BodyRecord } from './bodies/body.js';
import type { Collider } from './colliders/collider.js';
import type { KinematicCollider, KinematicPoseOptions } from './colliders/kinematic.js';
import { setColliderPose } from './kinematicColliders.js';
import type { RotationLike } from './quaternion.js';
import { OrderScratch } from './constraints/coloring.js';
import type { Constraint } from './constraints/constraint.js';
import { PinTable } from './constraints/pins.js';
import { widen } from './constraints/table.js';
import { StickTable } from './constraints/sticks.js';
import { Tethers } from './constraints/tethers.js';
import { LaunchGuard } from './colliders/launchGuard.js';
import { createStats, type WorldStats } from './stats.js';
import type { Force } from './forces/force.js';
import { checkInteger, type Vec3, type Vec3Like } from './math.js';
import { ParticleStore } from './particles.js';
import { SeededRandom } from './random.js';
import { Features } from './features.js';
import { Registry } from './registry.js';
import { StepContext, type SubstepStage } from './stepContext.js';
import { StepLists } from './stepLists.js';
import { advanceWorld, runStep } from './stepping.js';
import { addBody, addParticles, removeParticle } from './worldBodies.js';
import { addCollider, addPin, addStick, removeCollider, removeConstraint, setPin, setPinTarget, setStick } from './worldConstraints.js';
import { applyForce, applyImpulse, getInterpolatedPosition, getMass, getPosition, getVelocity, particleError, setMass, setPosition, setVelocity } from './particleAccess.js';
import { restoreWorld, snapshotWorld, type WorldSnapshot } from './snapshot.js';
import { particleSlot, type CallbackId, type ColliderId, type ConstraintId, type ForceId, type ParticleId } from './ids.js';
import { addForce, addStepCallback, removeFromWorld, type Removable } from './worldRemove.js';
import { WasmStickKernel, type StickKernel } from './wasm/stickKernel.js';
import type { ColliderShape } from './colliderFactory.js';
import { WORLD_DEFAULTS, type ParticleOptions, type PinOptions, type StickOptions, type WorldOptions } from './worldOptions.js';
import { WorldSettings } from './worldSettings.js';
import { Stages } from './stages.js';

export type { ColliderShape } from './colliderFactory.js';
export type { ParticleOptions, PinOptions, StickOptions, WorldOptions } from './worldOptions.js';
export type { Removable } from './worldRemove.js';

/**
 * The simulation: particles, constraints and colliders, stepped at a fixed rate
 * with Verlet integration and relaxation (Jakobsen, "Advanced Character Physics").
 *
 * @example
 * ```ts
 * const world = new World();
 * const anchor = world.addParticle({ position: [0, 2, 0], mass: 0 });
 * const bob = world.addParticle({ position: [1, 2, 0] });
 * world.addStick(anchor, bob);
 * world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
 * world.advance(1 / 60);
 * world.getPosition(bob); // swinging down
 * ```
 */
export class World extends WorldSettings {
  /** Particle storage; renderers read `particles.position` directly. */
  readonly particles = new ParticleStore();
  /** The stick table, in solving order (rows move: look them up with `stickRow`). */
  readonly sticks = new StickTable(64, (id, row) => this.stickRows.set(id, row));
  /** The pin table. */
  readonly pins = new PinTable();
  /** Long-range attachments: each particle tied by rigid links to an anchor is held within its rest distance of it (see `Tethers`; `tethers.enabled` turns them off). */
  readonly tethers: Tethers;
  /** @internal Bounds the speed contacts and constraints together give what was inside something (see {@link LaunchGuard}). */
  readonly launchGuard = new LaunchGuard();
  /** Static colliders, projected in every relaxation pass. */
  readonly colliders: Collider[] = [];
  /** The kinematic colliders among {@link World.colliders}, which every step moves (see `setColliderPose`). */
  readonly kinematicColliders: KinematicCollider[] = [];
  /** @internal The lists a step walks, with deferred removal (see {@link StepLists}). */
  readonly lists = new StepLists<World>();
  /** Users' constraints (`addConstraint`), projected in every relaxation pass after the built-in ones (see {@link Stages}). */
  readonly constraints: Constraint[] = this.lists.constraints;
  /** Force generators, applied at the start of every substep. */
  readonly forces: Force[] = this.lists.forces;
  /** Callbacks run at the start of every step, before forces (see `onBeforeStep`). */
  readonly beforeStep: ((world: World) => void)[] = this.lists.beforeStep;
  /** Callbacks run at the end of every step (see `onAfterStep`). */
  readonly afterStep: ((world: World) => void)[] = this.lists.afterStep;
  /** Bodies by slot (`record.id`); a removed body's slot holds its dead record (`alive: false`) until the next body takes it; dead records at the end are dropped, so the list is never longer than its last live body's slot + 1. */
  readonly bodies: BodyRecord[] = [];
  /** The seeded generator behind coincident-particle jitter. */
  readonly random: SeededRandom;
  /** Numbers about the latest steps (time, passes used, sleeping bodies), updated in place. */
  readonly stats: WorldStats = createStats();
  /** Hands out every id of something removable, from one counter (see {@link Registry}). */
  readonly registry = new Registry();
  /** Every part of the engine that keeps state for this world, by name: snapshots save them, removals tell them (see {@link Features}, docs/architecture.md). */
  readonly features: Features = new Features(this);
  /** @internal What the stages of the running step read, built once per step. */
  readonly stepContext = new StepContext();
  /** @internal The declared order of the step's built-in parts: relaxation constraints and substep stages (see {@link Stages}, docs/architecture.md). */
  readonly stages = new Stages();
  /** @internal Stages run after integration in every substep, in the order `stages.ts` declares (`stages.substep.items`). */
  readonly substepStages: SubstepStage[] = this.stages.substep.items;
  /**
   * @internal The body-contact stage of every relaxation pass (`collision/bodyContacts.ts`), or null
   * until something can touch another body: the first rope (its segments meet cloths' triangles),
   * capsule edge, hull or `bodyContacts(world)` call registers it. A world of cloths alone never needs
   * it, so an app that builds none of those leaves its code out of its bundle.
   */
  bodyContactStage: { project(world: World, pass: number): void } | null = null;
  /** @internal Work arrays for re-ordering the stick table. */
  readonly orderScratch = new OrderScratch();
  /** @internal The WebAssembly stick kernel while {@link World.kernel} is `'wasm'`, else null. */
  stickKernel: WasmStickKernel | null = null;

  /** Leftover fraction of a step after the last `advance()`, in [0, 1): blend `stepStartPositions` → `positions` by it. */
  alpha = 0;
  /** Simulated seconds. */
  time = 0;
  /** Steps taken. */
  stepCount = 0;
  /**
   * The running step's place in the current `advance()` call: step `frameStep`
   * (from 0) of `frameSteps`. Input that arrives once per frame, such as a
   * pointer, can be spread over the frame's steps by `(frameStep + 1) / frameSteps`
   * instead of jumping at the first (at 10 fps a frame holds six steps). A bare
   * `step()` is a frame of one step: 0 of 1.
   */
  frameStep = 0;
  /** Steps the current `advance()` call runs (see `frameStep`); 1 outside it. */
  frameSteps = 1;
  /** Positions at the start of the latest step, for interpolated rendering. */
  stepStartPositions: Float64Array;
  /** @internal Each particle's motion per substep at the start of the running step (see `colliders/stepPushOut.ts`). */
  stepStartVelocities: Float64Array;

  /** @internal True while the solver runs the force generators (see `applyForce`). */
  applyingForces = false;
  /** @internal Simulated time not yet stepped (s), in [0, timeStep) between `advance()` calls. */
  accumulator = 0;
  /** @internal Slots of removed bodies below the last live one, reused by the next `addBody` (the lowest first). */
  freeBodySlots: number[] = [];
  /** @internal The serial the next body gets (never reused, unlike slots). */
  nextBodySerial = 1;
  /**
   * @internal What the world's own ids name: a stick's or pin's row (the tables report every
   * move), a user constraint, a collider, a force generator, a callback and the list it is in.
   */
  stickRows = new Map<number, number>();
  pinRows = new Map<number, number>();
  customIds = new Map<number, Constraint>();
  colliderIds = new Map<number, Collider>();
  forceIds = new Map<number, Force>();
  callbackIds = new Map<number, { list: ((world: World) => void)[]; callback: (world: World) => void }>();

  constructor(options: WorldOptions = {}) {
    super(options);
    this.random = new SeededRandom(checkInteger(options.seed ?? WORLD_DEFAULTS.seed, 'World: seed', 0));
    this.stepStartPositions = new Float64Array(this.particles.capacity * 3);
    this.stepStartVelocities = new Float64Array(this.particles.capacity * 3);
    this.kernel = options.kernel ?? WORLD_DEFAULTS.kernel;
    this.tethers = new Tethers(options.tethers ?? WORLD_DEFAULTS.tethers);
  }

  /**
   * The stick kernel in use: `'wasm'` or `'js'` (see {@link WorldOptions.kernel}).
   * Setting `'wasm'` where WebAssembly SIMD is unavailable leaves `'js'`; either
   * switch moves the particle and stick arrays, so re-read them.
   */
  get kernel(): StickKernel {
    return this.stickKernel === null ? 'js' : 'wasm';
  }
  set kernel(kernel: StickKernel) {
    if (kernel !== 'wasm' && kernel !== 'js') throw new RangeError(`World: kernel must be 'wasm' or 'js', got ${typeof kernel === 'string' ? `'${kernel}'` : String(kernel)}`);
    if (kernel === 'js' && this.stickKernel !== null) {
      this.stickKernel.release(this.particles, this.sticks);
      this.stickKernel = null;
    } else if (kernel === 'wasm' && this.stickKernel === null) {
      this.stickKernel = WasmStickKernel.create();
      this.placeKernelColumns();
    }
  }

  /** Live particles. */
  get particleCount(): number {
    return this.particles.count;
  }

  /** Live constraints of every kind (sticks, pins, user constraints). */
  get constraintCount(): number {
    let custom = 0;
    for (const c of this.customIds.values()) custom += c.constraintCount ?? 1;
    for (const c of this.stages.ids.values()) custom += c.constraintCount ?? 1;
    return this.sticks.count + this.pins.count + custom;
  }

  /** Current positions, xyz interleaved by particle slot (`particleSlot(id)`; an id is its slot until the slot is reused). Re-read after adding particles or sticks: the array may be replaced (see {@link WorldOptions.kernel}). */
  get positions(): Float64Array {
    return this.particles.position;
  }

  /**
   * Adds a particle and returns its id. The previous position is set so that under
   * constant acceleration it follows p0 + v0·t + ½·a·t² exactly at every step.
   */
  addParticle(options: ParticleOptions): ParticleId {
    return this.addParticles([options]);
  }

  /**
   * Adds particles in one contiguous id range (a body) and returns the first id;
   * the i-th particle gets id `first + i`.
   */
  addParticles(list: readonly ParticleOptions[]): ParticleId {
    return addParticles(this, list);
  }

  /** Adds a stick between particles `a` and `b`; returns its id (undo with `remove`). */
  addStick(a: ParticleId, b: ParticleId, options: StickOptions = {}): ConstraintId {
    return addStick(this, a, b, options);
  }

  /** Changes a stick's rest length, stiffness or kind in place. */
  setStick(id: ConstraintId, options: StickOptions): void {
    setStick(this, id, options);
  }

  /** Row of stick `id` in {@link World.sticks}, or -1; rows move when sticks are added or removed (the table is kept in solving order). */
  stickRow(id: ConstraintId): number {
    return this.stickRows.get(id) ?? -1;
  }

  /** Row of pin `id` in `pins` (its target is at `pins.target[row * 3]`), or -1. Rows move: look them up when needed. */
  pinRow(id: ConstraintId): number {
    return this.pinRows.get(id) ?? -1;
  }

  /**
   * Pins particle `id` at `target` (default: where it is) and returns the pin's
   * id (undo with `remove`). While rigidly pinned (the default) the particle is
   * immovable to sticks; with `options.compliance` (m/N) it keeps its mass and
   * hangs on a zero-length spring of k = 1/compliance to the target, whatever
   * the substeps and iterations (see docs/materials.md).
   *
   * @example
   * ```ts
   * world.addPin(corner, undefined, { compliance: 1e-3 }); // sags 1 mm per newton of load
   * ```
   */
  addPin(id: ParticleId, target?: Vec3Like, options?: PinOptions): ConstraintId {
    return addPin(this, id, target, options);
  }

  /** Changes a pin's compliance (m/N) or damping (N·s/m) in place; a rigid pin turned compliant frees its particle's mass, and back. */
  setPin(pin: ConstraintId, options: PinOptions): void {
    setPin(this, pin, options);
  }

  /** Moves pin `pin` to `target`; the particle follows inside the next relaxation passes. */
  setPinTarget(pin: ConstraintId, target: Vec3Like): void {
    setPinTarget(this, pin, target);
  }

  /** Adds a user constraint to the relaxation loop; returns its id (undo with `remove`). */
  addConstraint(constraint: Constraint): ConstraintId {
    if (!constraint || typeof constraint.project !== 'function') throw new TypeError('addConstraint: constraint must have a project(world) method');
    const id = this.registry.issue();
    this.customIds.set(id, constraint);
    this.constraints.push(constraint);
    return id;
  }

  /** Adds a force generator, applied at the start of every substep; returns its id (undo with `remove`). */
  addForce(force: Force): ForceId {
    return addForce(this, force);
  }

  /** Adds a collider and returns its id (undo with `remove`): static, or with `kinematic: true` moved by {@link World.setColliderPose}. Sleeping bodies wake (one may now be inside it). */
  addCollider(shape: ColliderShape): ColliderId {
    return addCollider(this, shape);
  }

  /** The collider with id `id`, e.g. to move a plane or change its friction (then call `wakeAll`: sleepers do not notice). */
  getCollider(id: ColliderId): Collider {
    const c = this.colliderIds.get(id);
    if (!c) throw new RangeError(`getCollider: no collider with id ${id}`);
    return c;
  }

  /**
   * Moves kinematic collider `id` (added with `kinematic: true`): its frame
   * reaches `position`, turned by `rotation`, at the end of the next step (of
   * the current `advance()` call when set between calls), and particles it
   * meets on the way are swept, carried by friction and pushed at the
   * surface's speed (see `KinematicCollider`). `teleport: true` places it with
   * no velocity. Throws for a static collider.
   *
   * @example
   * ```ts
   * const bat = world.addCollider({ type: 'capsule', a: [0, 0, 0], b: [0, 0.8, 0], radius: 0.04, kinematic: true });
   * world.setColliderPose(bat, [0, 1, 0], [0, 0, 0.3, 0.954]);
   * ```
   */
  setColliderPose(id: ColliderId, position: Vec3Like, rotation?: RotationLike, options?: KinematicPoseOptions): void {
    setColliderPose(this, id, position, rotation, options);
  }

  /**
   * Undoes an add: pass it whatever an `add…`, `create…`, `enable…` or
   * `protect…` call returned (see {@link Removable}): a particle id, an id from
   * `addStick`, `addPin`, `addConstraint`, `addCollider`, `addForce`,
   * `onBeforeStep` / `onAfterStep` or a table's add (angle, plane, capsule edge,
   * face, spring); a body record from `addBody`; or a handle (`createCloth`,
   * `createBox`, `createRagdoll`, `enableSelfCollision`…), which goes with its
   * particles and constraints. `handle.remove()` does the same. Throws, naming
   * `target`, when it names nothing live.
   *
   * @example
   * ```ts
   * const stick = world.addStick(a, b);
   * const wind = world.addForce(new Wind({ velocity: [3, 0, 0] }));
   * const box = createBox(world, { size: 0.5 });
   * world.remove(stick);
   * world.remove(a); // a particle, with what is attached to it
   * world.remove(wind);
   * world.remove(box);
   * ```
   */
  remove(target: Removable): void {
    removeFromWorld(this, target);
  }

  /** {@link World.remove} for a collider id only: throws when `id` is not a live collider. Sleeping bodies wake (one may have rested on it). */
  removeCollider(id: ColliderId): void {
    removeCollider(this, id);
  }

  /** {@link World.remove} for constraint ids only (stick, pin, user constraint, angle, plane, capsule edge, face, spring): throws when `id` is not one. */
  removeConstraint(id: ConstraintId): void {
    removeConstraint(this, id);
  }

  /**
   * Registers particles `[first, first + count)` as one body and returns its
   * record. Builders call this after `addParticles`; push the ids of the body's
   * constraints into `record.constraints` so `world.remove(record)` takes them along.
   */
  addBody(first: ParticleId, count: number, options: BodyOptions = {}): BodyRecord {
    return addBody(this, first, count, options);
  }

  /** The live body whose range holds particle `id`, or undefined. */
  bodyOf(id: ParticleId): BodyRecord | undefined {
    return this.bodyAt(this.particles.slotOf(id));
  }

  /** @internal The live body whose range holds slot `slot` (an index, not an id), or undefined. */
  bodyAt(slot: number): BodyRecord | undefined {
    const b = slot >= 0 && slot < this.particles.end ? this.particles.body[slot]! : -1;
    return b >= 0 && this.bodies[b]!.alive ? this.bodies[b] : undefined;
  }

  /** True when `id` names a live stick, pin, user constraint or registered constraint. */
  hasConstraint(id: ConstraintId): boolean {
    return this.stickRows.has(id) || this.pinRows.has(id) || this.customIds.has(id) || this.registry.ownerOf(id) !== undefined;
  }

  /** {@link World.remove} for a particle id only: removes it and every stick and pin attached to it. Its id becomes invalid (and may be reused). A particle of a body goes with its body. */
  removeParticle(id: ParticleId): void {
    removeParticle(this, id);
  }

  /** Calls `callback` at the start of every step; returns its id (undo with `remove`). */
  onBeforeStep(callback: (world: World) => void): CallbackId {
    return addStepCallback(this, 'before', callback);
  }

  /** Calls `callback` at the end of every step (e.g. to tear cloth); returns its id (undo with `remove`). */
  onAfterStep(callback: (world: World) => void): CallbackId {
    return addStepCallback(this, 'after', callback);
  }

  /** Runs exactly one fixed step. */
  step(): void {
    this.lists.running(this.runStep);
  }

  private readonly runStep = (): void => runStep(this);

  /**
   * Adds `elapsedSeconds` to the accumulator and runs as many whole steps as it
   * holds, at most `maxStepsPerAdvance` (time beyond that is dropped, so a stalled
   * tab does not spiral). Sets `alpha` to the leftover fraction; returns the steps run.
   */
  advance(elapsedSeconds: number): number {
    return advanceWorld(this, elapsedSeconds);
  }

  /** Position of particle `id`, written into `out` when given. */
  getPosition(id: ParticleId, out: Vec3 = [0, 0, 0]): Vec3 {
    return getPosition(this, id, out);
  }

  /** Position of particle `id` blended between the last two steps by `alpha`, for rendering. */
  getInterpolatedPosition(id: ParticleId, out: Vec3 = [0, 0, 0]): Vec3 {
    return getInterpolatedPosition(this, id, out);
  }

  /** Velocity of particle `id`: (x - x*) / h, the mean over the latest substep h. */
  getVelocity(id: ParticleId, out: Vec3 = [0, 0, 0]): Vec3 {
    return getVelocity(this, id, out);
  }

  /**
   * Moves particle `id` to `position`. With `keepVelocity` (default true) it is a
   * teleport: x* moves along, x' - x*' = x - x* (course notes). With
   * `keepVelocity: false` x* stays, so the move becomes velocity, which is how the
   * paper sets bodies in motion ("move the shoulder particle backwards").
   */
  setPosition(id: ParticleId, position: Vec3Like, options: { keepVelocity?: boolean } = {}): void {
    setPosition(this, id, position, options);
  }

  /** Sets the velocity of particle `id`: x* = x - v·h (course notes). */
  setVelocity(id: ParticleId, velocity: Vec3Like): void {
    setVelocity(this, id, velocity);
  }

  /** Applies impulse `j` (N·s): v += j / m, i.e. x* -= j·w·h (course notes). Immovable particles ignore it. */
  applyImpulse(id: ParticleId, impulse: Vec3Like): void {
    applyImpulse(this, id, impulse);
  }

  /**
   * Adds force `f` (N) to particle `id` for the next step only, over all its
   * substeps. Called from a force generator's `apply` (which runs every substep)
   * it adds to the current substep only, as writing `particles.force` does.
   */
  applyForce(id: ParticleId, force: Vec3Like): void {
    applyForce(this, id, force);
  }

  /** Mass of particle `id` in kg (Infinity when immovable; a pinned particle reports its own mass). */
  getMass(id: ParticleId): number {
    return getMass(this, id);
  }

  /** Sets the mass of particle `id` (0 or Infinity = immovable). */
  setMass(id: ParticleId, mass: number): void {
    setMass(this, id, mass);
  }

  /** A copy of the whole dynamic state; `restore` brings it back bit for bit. */
  snapshot(): WorldSnapshot {
    return snapshotWorld(this);
  }

  /** Returns the world to a snapshot taken from it (or from a world with the same colliders and user constraints). */
  restore(snapshot: WorldSnapshot): void {
    restoreWorld(this, snapshot);
  }

  /** The slot (index into the particle columns) of particle `id`; throws, naming `id` and the argument `what`, unless it names a live particle (an id kept from a removed one throws, its slot reused or not). */
  checkParticle(id: ParticleId, what: string): number {
    const slot = this.particles.slotOf(id);
    if (slot < 0) throw new RangeError(particleError(this, id, what));
    return slot;
  }

  /** The id of the particle in slot `slot` (`positions[slot * 3]`), e.g. for a particle found by walking the columns. Throws when the slot holds none. */
  particleId(slot: number): ParticleId {
    if (!this.particles.isAlive(slot)) throw new RangeError(`particleId: slot ${String(slot)} holds no particle`);
    return this.particles.idOf(slot);
  }

  /** Wakes every sleeping body: call it after moving a collider or changing the scene behind the solver's back. */
  override wakeAll(): void {
    this.sleep.wakeAll(this);
  }

  /**
   * Wakes the body holding particle `id`, with every body tied to it by sticks, and
   * restarts its rest timer. Pins, teleports, velocity changes, impulses, forces
   * and stick changes call it; call it yourself after writing particle arrays directly.
   */
  wake(id: ParticleId): void {
    // Also called inside the step with slots, which are their own low bits: masked, unchecked.
    this.sleep.wakeParticle(this, particleSlot(id));
  }

  /** @internal Keeps x - x* proportional to the step when the step changes (course notes, variable dt). */
  override rescaleVelocities(ratio: number): void {
    const p = this.particles.position;
    const q = this.particles.previous;
    for (let i = 0; i < this.particles.end * 3; i++) q[i] = p[i]! - (p[i]! - q[i]!) * ratio;
  }

  /** @internal With the WebAssembly kernel on, puts arrays replaced (by growth or a restore) back into its memory, or falls back to the TypeScript loops without memory for them. */
  placeKernelColumns(): void {
    if (this.stickKernel !== null && !this.stickKernel.adopt(this.particles, this.sticks)) this.stickKernel = null;
  }

  /** @internal Grows the world's own per-particle arrays with the particle store. */
  syncCapacity(): void {
    if (this.stepStartPositions.length !== this.particles.capacity * 3) this.stepStartPositions = widen(this.stepStartPositions, this.particles.capacity, 3);
    if (this.stepStartVelocities.length !== this.particles.capacity * 3) this.stepStartVelocities = widen(this.stepStartVelocities, this.particles.capacity, 3);
  }
}
