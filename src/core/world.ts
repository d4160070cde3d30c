import type { BodyOptions, BodyRecord } from './bodies/body.js';
import { BoxCollider, type BoxShape } from './colliders/box.js';
import { CapsuleCollider, type CapsuleShape } from './colliders/capsule.js';
import type { Collider } from './colliders/collider.js';
import { ContactSettings } from './colliders/contactResponse.js';
import { ObbCollider, type ObbShape } from './colliders/obb.js';
import { PlaneCollider, type PlaneShape } from './colliders/plane.js';
import { SphereCollider, type SphereShape } from './colliders/sphere.js';
import { TriangleMeshCollider, type MeshShape } from './colliders/triangleMesh.js';
import { OrderScratch, resumeOrder } from './constraints/coloring.js';
import type { Constraint } from './constraints/constraint.js';
import { PinTable } from './constraints/pins.js';
import { widen } from './constraints/table.js';
import { StickTable, stickKindCode, type StickKind } from './constraints/sticks.js';
import { TimeBudget } from './budget.js';
import { SleepSystem, type SleepSnapshot } from './sleep.js';
import { createStats, type WorldStats } from './stats.js';
import type { Force } from './forces/force.js';
import { checkBoolean, checkInteger, checkNumber, checkOptions, toVec3, type Vec3, type Vec3Like } from './math.js';
import { copyValues, ParticleFlag, ParticleStore } from './particles.js';
import { SeededRandom } from './random.js';
import { stepWorld } from './solver.js';
import { Registry } from './registry.js';
import { restoreSnapshot, takeSnapshot, type WorldSnapshot } from './snapshot.js';
import { WasmStickKernel, type StickKernel } from './wasm/stickKernel.js';

/**
 * Options of {@link World}. `gravity`, `timeStep`, `substeps`, `iterations`,
 * `damping`, `sqrtApprox`, `maxStepsPerAdvance`, `budgetMs`, `kernel` and `clock`
 * can be changed later through the world's property of the same name; the
 * budget's minimums through `world.budget`, sleeping through `world.sleep`
 * (`enabled`, `speed`, `time`), the seed through `world.random.state`.
 */
export interface WorldOptions {
  /** Acceleration of gravity in m/s², default `[0, -9.81, 0]`. */
  gravity?: Vec3Like;
  /** Fixed step in seconds, default 1/60. */
  timeStep?: number;
  /** Relaxation passes per substep, default 1. */
  iterations?: number;
  /**
   * Verlet + relaxation substeps per step, default 10. Small steps buy far more
   * stiffness and far less artificial damping per pass than extra iterations
   * (see the README's fidelity table).
   */
  substeps?: number;
  /** Per-second drag k: velocity is scaled by 1 - k·h each substep. 0 (default) = none. */
  damping?: number;
  /** Use the paper's square-root approximation in the stick pass. Default false. */
  sqrtApprox?: boolean;
  /** Most steps one `advance()` call runs; the rest of a long pause is dropped. Default 5. */
  maxStepsPerAdvance?: number;
  /** Seed of the generator that jitters coincident particles apart. */
  seed?: number;
  /**
   * Wall-clock milliseconds each `advance()` may spend stepping. When set, the
   * world lowers substeps (then iterations) frame by frame to stay within it,
   * never below `minSubsteps` × `minIterations` (see `stats`). Default 0: off.
   */
  budgetMs?: number;
  /** Fewest substeps the time budget may use, default 1. */
  minSubsteps?: number;
  /** Fewest relaxation passes the time budget may use, default 1. */
  minIterations?: number;
  /** Milliseconds now, for `stats` and the time budget; default `performance.now()`. Inject one to test deterministically. */
  clock?: () => number;
  /**
   * Let bodies that have come to rest fall asleep: they cost nothing until touched
   * (see `SleepSystem`). Default false: a sleeping body freezes slightly short of
   * full convergence and does not notice colliders you move or particles you write
   * directly (call `wake`), so it is a choice for scenes with many resting bodies.
   */
  sleep?: boolean;
  /** Speed (m/s) below which a body's particles count as resting, default 0.01 (see `SleepSystem.speed`). */
  sleepSpeed?: number;
  /** Seconds a body must rest before it falls asleep, default 0.5. */
  sleepTime?: number;
  /**
   * What runs the stick pass: `'wasm'`, a WebAssembly SIMD kernel (built from
   * `src/core/wasm/sticks.wat`; a step of a 64×64 or 128×128 cloth measured
   * about 2× faster than with `'js'`), or `'js'`, the TypeScript loops. Both give
   * the same positions bit for bit. Default `'wasm'`; where WebAssembly SIMD is
   * unavailable (or a Content Security Policy forbids compiling it) the world
   * quietly uses `'js'`, and `world.kernel` says which one runs.
   *
   * With `'wasm'`, `particles.position` and `particles.inverseMass` and the stick
   * table's `a`, `b`, `rest` and `stiffness` are views into the kernel's
   * `WebAssembly.Memory`, replaced whenever particles *or sticks* are added beyond
   * capacity: re-read them after adding either. Only sticks of kind `'equal'`
   * with the exact square root use the kernel; the rest use the TypeScript loop.
   */
  kernel?: StickKernel;
  /**
   * Most speed (m/s) that pushing a particle out of a collider may give it along
   * the contact normal, beyond its own motion. A deep penetration (a particle
   * released from a pin under the floor) is then resolved at this speed instead
   * of becoming a launch. Default 3; change it later through
   * `world.contacts.maxPushOutSpeed` (see `ContactSettings`).
   */
  maxPushOutSpeed?: number;
  /** Approach speeds (m/s) below this do not bounce, so resting contacts settle. Default 0.5; later `world.contacts.restitutionThreshold`. */
  restitutionThreshold?: number;
}

/** What {@link World.addParticle} takes. */
export interface ParticleOptions {
  /** Where the particle starts (m). */
  position: Vec3Like;
  /** Initial velocity in m/s, default zero. */
  velocity?: Vec3Like;
  /** kg; 0 or Infinity makes the particle immovable. Default 1. */
  mass?: number;
  /** Collision radius in m, default 0. */
  radius?: number;
  /** Coulomb friction coefficient μ, default 0.5. */
  friction?: number;
  /**
   * Bounciness against colliders in [0, 1], default 0: a particle that hits a
   * collider at normal speed v leaves at e·v, where e is the larger of this and
   * the collider's `restitution` (Box2D's rule: either bouncy side bounces).
   */
  restitution?: number;
}

/** What {@link World.addStick} takes. */
export interface StickOptions {
  /** Rest length; default the particles' current distance. */
  length?: number;
  /** Share of the error repaired per pass, in (0, 1]; default 1 (rigid). */
  stiffness?: number;
  /** `'equal'` (default), `'min'` (only pushes apart) or `'max'` (only pulls together: a rope). */
  kind?: StickKind;
}

/** What {@link World.addCollider} takes. */
export type ColliderShape = PlaneShape | SphereShape | BoxShape | CapsuleShape | ObbShape | MeshShape | Collider;

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
export class World {
  /** Particle storage; renderers read `particles.position` directly. */
  readonly particles = new ParticleStore();
  /** The stick table, in solving order (rows move: look them up with `stickRow`). */
  readonly sticks = new StickTable(64, (id, row) => this.stickRows.set(id, row));
  /** The pin table. */
  readonly pins = new PinTable();
  /** Static colliders, projected in every relaxation pass. */
  readonly colliders: Collider[] = [];
  /** User constraints, projected in every relaxation pass. */
  readonly constraints: Constraint[] = [];
  /** Force generators, applied at the start of every substep. */
  readonly forces: Force[] = [];
  /** Callbacks run at the start of every step, before forces (see `onBeforeStep`). */
  readonly beforeStep: ((world: World) => void)[] = [];
  /** Callbacks run at the end of every step (see `onAfterStep`). */
  readonly afterStep: ((world: World) => void)[] = [];
  /** Bodies by slot (`record.id`); a removed body's slot holds its dead record (`alive: false`) until the next body takes it. */
  readonly bodies: BodyRecord[] = [];
  /** The seeded generator behind coincident-particle jitter. */
  readonly random: SeededRandom;
  /** Numbers about the latest steps (time, passes used, sleeping bodies), updated in place. */
  readonly stats: WorldStats = createStats();
  /** Hands out every id of something removable, from one counter (see {@link Registry}). */
  readonly registry = new Registry();
  /** How contacts turn into velocity: the push-out speed limit and the restitution threshold (change them live). */
  readonly contacts = new ContactSettings();
  /** Sleeping bodies and the awake particle ranges the solver works on. */
  readonly sleep: SleepSystem;
  /** The per-frame time budget controller (`budgetMs`). */
  readonly budget: TimeBudget;
  /** Milliseconds now (see {@link WorldOptions.clock}). */
  clock: () => number;
  /** @internal Work arrays for re-ordering the stick table. */
  readonly orderScratch = new OrderScratch();
  /** @internal The WebAssembly stick kernel while {@link World.kernel} is `'wasm'`, else null. */
  stickKernel: WasmStickKernel | null = null;

  /** Use the square-root approximation for sticks. */
  sqrtApprox: boolean;
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

  private gravityValue: Vec3;
  /** @internal Backing field of `timeStep`; the solver reads it directly (no getter call in the loop). */
  timeStepValue: number;
  /** @internal Backing field of `substeps`. */
  substepsValue: number;
  /** @internal Substeps the solver runs: `substeps`, or fewer under a time budget. */
  activeSubsteps: number;
  /** @internal Iterations the world's own constraints get: `iterations`, or fewer under a time budget. */
  activeIterations: number;
  private iterationsValue: number;
  private dampingValue: number;
  private maxStepsValue: number;
  /** @internal True while the solver runs the force generators (see `applyForce`). */
  applyingForces = false;
  /** True while `step()` runs: removals from the lists it walks are deferred (see `dropFrom`). */
  private stepping = false;
  private retiredEntries = false;
  private accumulator = 0;
  /** Slots of removed bodies, reused by the next `addBody` (the last freed first). */
  private freeBodySlots: number[] = [];
  private nextBodySerial = 1;
  private stickRows = new Map<number, number>();
  private pinRows = new Map<number, number>();
  private customIds = new Map<number, Constraint>();
  private colliderIds = new Map<number, Collider>();

  constructor(options: WorldOptions = {}) {
    checkOptions(options, 'World: options');
    this.gravityValue = toVec3(options.gravity ?? [0, -9.81, 0], 'World: gravity');
    this.timeStepValue = checkPositive(options.timeStep ?? 1 / 60, 'World: timeStep');
    this.iterationsValue = checkInteger(options.iterations ?? 1, 'World: iterations', 1);
    this.substepsValue = checkInteger(options.substeps ?? 10, 'World: substeps', 1);
    this.dampingValue = checkNumber(options.damping ?? 0, 'World: damping', 0);
    this.sqrtApprox = checkBoolean(options.sqrtApprox ?? false, 'World: sqrtApprox');
    this.maxStepsValue = checkInteger(options.maxStepsPerAdvance ?? 5, 'World: maxStepsPerAdvance', 1);
    this.random = new SeededRandom(options.seed === undefined ? undefined : checkInteger(options.seed, 'World: seed', 0));
    this.stepStartPositions = new Float64Array(this.particles.capacity * 3);
    this.activeSubsteps = this.substepsValue;
    this.activeIterations = this.iterations;
    this.budget = new TimeBudget(options.budgetMs ?? 0, options.minSubsteps ?? 1, options.minIterations ?? 1);
    this.sleep = new SleepSystem(checkBoolean(options.sleep ?? false, 'World: sleep'), options.sleepSpeed ?? 0.01, options.sleepTime ?? 0.5);
    if (options.clock !== undefined && typeof options.clock !== 'function') throw new TypeError(`World: clock must be a function, got ${String(options.clock)}`);
    this.clock = options.clock ?? (() => performance.now());
    this.kernel = options.kernel ?? 'wasm';
    this.contacts.maxPushOutSpeed = checkNumber(options.maxPushOutSpeed ?? 3, 'World: maxPushOutSpeed', 0);
    this.contacts.restitutionThreshold = checkNumber(options.restitutionThreshold ?? 0.5, 'World: restitutionThreshold', 0);
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

  /** Relaxation passes per substep (an integer >= 1). */
  get iterations(): number {
    return this.iterationsValue;
  }
  set iterations(n: number) {
    this.iterationsValue = checkInteger(n, 'World: iterations', 1);
  }

  /** Per-second drag k of the damped Verlet step, >= 0. */
  get damping(): number {
    return this.dampingValue;
  }
  set damping(k: number) {
    this.dampingValue = checkNumber(k, 'World: damping', 0);
  }

  /** Most steps per `advance()` call (an integer >= 1). */
  get maxStepsPerAdvance(): number {
    return this.maxStepsValue;
  }
  set maxStepsPerAdvance(n: number) {
    this.maxStepsValue = checkInteger(n, 'World: maxStepsPerAdvance', 1);
  }

  /** Per-frame time budget in ms for `advance()`; 0 turns it off (see {@link WorldOptions.budgetMs}). */
  get budgetMs(): number {
    return this.budget.budgetMs;
  }
  set budgetMs(ms: number) {
    this.budget.budgetMs = checkNumber(ms, 'World: budgetMs', 0);
    if (ms === 0) this.setActive(this.substepsValue, this.iterations);
  }

  /** Acceleration of gravity (m/s²). */
  get gravity(): Readonly<Vec3> {
    return this.gravityValue;
  }
  set gravity(g: Vec3Like) {
    this.gravityValue = toVec3(g, 'World: gravity');
    // Sleeping bodies rest against the old gravity.
    this.sleep.wakeAll(this);
  }

  /** The fixed step (s). Changing it rescales previous positions so velocities are kept (course notes, variable dt). */
  get timeStep(): number {
    return this.timeStepValue;
  }
  set timeStep(dt: number) {
    checkPositive(dt, 'World: timeStep');
    this.rescaleVelocities(dt / this.timeStepValue);
    this.timeStepValue = dt;
  }

  /** Substeps per step. Changing it keeps velocities, like a time step change. */
  get substeps(): number {
    return this.substepsValue;
  }
  set substeps(n: number) {
    checkInteger(n, 'World: substeps', 1);
    this.substepsValue = n;
    this.setActive(this.budget.active ? Math.min(this.activeSubsteps, n) : n, this.activeIterations);
  }

  /** The Verlet step h = timeStep / substeps (substeps in use); velocities are (x - x*) / h. */
  get substep(): number {
    return this.timeStepValue / this.activeSubsteps;
  }

  /** Live particles. */
  get particleCount(): number {
    return this.particles.count;
  }

  /** Live constraints of every kind (sticks, pins, user constraints). */
  get constraintCount(): number {
    let custom = 0;
    for (const c of this.customIds.values()) custom += c.constraintCount ?? 1;
    return this.sticks.count + this.pins.count + custom;
  }

  /** Current positions, xyz interleaved by particle id. Re-read after adding particles or sticks: the array may be replaced (see {@link WorldOptions.kernel}). */
  get positions(): Float64Array {
    return this.particles.position;
  }

  /**
   * Adds a particle and returns its id. The previous position is set so that under
   * constant acceleration it follows p0 + v0·t + ½·a·t² exactly at every step.
   */
  addParticle(options: ParticleOptions): number {
    return this.addParticles([options]);
  }

  /**
   * Adds particles in one contiguous id range (a body) and returns the first id;
   * the i-th particle gets id `first + i`.
   */
  addParticles(list: readonly ParticleOptions[]): number {
    if (!Array.isArray(list) || list.length === 0) throw new RangeError('addParticles: list must be a non-empty array');
    const checked = list.map((o, i) => checkParticle(o, list.length === 1 ? 'addParticle' : `addParticles[${i}]`));
    const first = this.particles.allocate(list.length);
    // The slots may be free ones inside the solver's ranges, which skip free slots.
    this.sleep.invalidate();
    this.syncCapacity();
    this.placeKernelColumns();
    checked.forEach((o, i) => this.writeParticle(first + i, o));
    // Interpolated rendering blends from here: a new particle starts where it is, not where the slot's last owner was.
    copyValues(this.particles.position, this.stepStartPositions, first * 3, (first + list.length) * 3);
    return first;
  }

  /** Adds a stick between particles `a` and `b`; returns its constraint id. */
  addStick(a: number, b: number, options: StickOptions = {}): number {
    checkOptions(options, 'addStick: options');
    this.checkParticle(a, 'addStick: a');
    this.checkParticle(b, 'addStick: b');
    if (a === b) throw new RangeError(`addStick: a and b must differ, both are particle ${a}`);
    const p = this.particles.position;
    const length = options.length ?? Math.hypot(p[b * 3]! - p[a * 3]!, p[b * 3 + 1]! - p[a * 3 + 1]!, p[b * 3 + 2]! - p[a * 3 + 2]!);
    checkNumber(length, 'addStick: length', 0);
    const stiffness = checkNumber(options.stiffness ?? 1, 'addStick: stiffness', 0, 1);
    if (stiffness === 0) throw new RangeError('addStick: stiffness must be in (0, 1], got 0');
    const kind = stickKindCode(options.kind ?? 'equal', 'addStick: kind');
    const id = this.registry.issue();
    this.stickRows.set(id, this.sticks.add(id, a, b, length, stiffness, kind));
    this.placeKernelColumns();
    return id;
  }

  /** Changes a stick's rest length, stiffness or kind in place. */
  setStick(id: number, options: StickOptions): void {
    const row = this.stickRows.get(id);
    if (row === undefined) throw new RangeError(`setStick: no stick with id ${id}`);
    if (checkOptions(options, 'setStick: options') === undefined) throw new TypeError('setStick: options must be an options object, got undefined');
    if (options.length !== undefined) this.sticks.rest[row] = checkNumber(options.length, 'setStick: length', 0);
    if (options.stiffness !== undefined) this.sticks.setStiffness(row, checkNumber(options.stiffness, 'setStick: stiffness', Number.MIN_VALUE, 1));
    if (options.kind !== undefined) this.sticks.setKind(row, stickKindCode(options.kind, 'setStick: kind'));
    this.wake(this.sticks.a[row]!);
    this.wake(this.sticks.b[row]!);
  }

  /** Row of stick `id` in {@link World.sticks}, or -1; rows move when sticks are added or removed (the table is kept in solving order). */
  stickRow(id: number): number {
    return this.stickRows.get(id) ?? -1;
  }

  /** Row of pin `id` in `pins` (its target is at `pins.target[row * 3]`), or -1. Rows move: look them up when needed. */
  pinRow(id: number): number {
    return this.pinRows.get(id) ?? -1;
  }

  /**
   * Pins particle `id` at `target` (default: where it is) and returns the pin's
   * constraint id. While pinned the particle is immovable to sticks.
   */
  addPin(id: number, target?: Vec3Like): number {
    this.checkParticle(id, 'addPin: particle');
    const t = target === undefined ? this.getPosition(id) : toVec3(target, 'addPin: target');
    const particles = this.particles;
    if ((particles.flags[id]! & ParticleFlag.Pinned) === 0) {
      particles.freeInverseMass[id] = particles.inverseMass[id]!;
      particles.inverseMass[id] = 0;
      particles.flags[id]! |= ParticleFlag.Pinned;
    }
    this.wake(id);
    const pin = this.registry.issue();
    this.pinRows.set(pin, this.pins.add(pin, id, t[0], t[1], t[2]));
    return pin;
  }

  /** Moves pin `pin` to `target`; the particle follows inside the next relaxation passes. */
  setPinTarget(pin: number, target: Vec3Like): void {
    const row = this.pinRows.get(pin);
    if (row === undefined) throw new RangeError(`setPinTarget: no pin with id ${pin}`);
    // Called every frame while dragging, so it reads the target without copying it.
    if (typeof target !== 'object' || target === null) throw new TypeError(`setPinTarget: target must be [x, y, z] or {x, y, z}, got ${String(target)}`);
    const isArray = Array.isArray(target);
    // The same vectors addPin takes (toVec3), checked without a copy.
    if (isArray && (target as readonly number[]).length !== 3) throw new TypeError(`setPinTarget: target must have 3 components, got ${(target as readonly number[]).length}`);
    const v = target as { x: number; y: number; z: number };
    const x = isArray ? (target as readonly number[])[0]! : v.x;
    const y = isArray ? (target as readonly number[])[1]! : v.y;
    const z = isArray ? (target as readonly number[])[2]! : v.z;
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || !Number.isFinite(x + y + z)) throw new RangeError(`setPinTarget: target must be finite numbers, got [${x}, ${y}, ${z}]`);
    const out = this.pins.target;
    out[row * 3] = x;
    out[row * 3 + 1] = y;
    out[row * 3 + 2] = z;
    this.wake(this.pins.particle[row]!);
  }

  /** Adds a user constraint to the relaxation loop; returns its id for `removeConstraint`. */
  addConstraint(constraint: Constraint): number {
    if (!constraint || typeof constraint.project !== 'function') throw new TypeError('addConstraint: constraint must have a project(world) method');
    const id = this.registry.issue();
    this.customIds.set(id, constraint);
    this.constraints.push(constraint);
    return id;
  }

  /** Adds a force generator, applied at the start of every substep. Returns a function that removes it. */
  addForce(force: Force): () => void {
    if (!force || typeof force.apply !== 'function') throw new TypeError('addForce: force must have an apply(world) method');
    this.forces.push(force);
    return () => this.dropFrom(this.forces, force, RETIRED_FORCE);
  }

  /** Adds a static collider and returns its id. Sleeping bodies wake (one may now be inside it). */
  addCollider(shape: ColliderShape): number {
    const collider = makeCollider(shape);
    const id = this.registry.issue();
    this.colliderIds.set(id, collider);
    this.colliders.push(collider);
    this.wakeAll();
    return id;
  }

  /** The collider with id `id`, e.g. to move a plane or change its friction (then call `wakeAll`: sleepers do not notice). */
  getCollider(id: number): Collider {
    const c = this.colliderIds.get(id);
    if (!c) throw new RangeError(`getCollider: no collider with id ${id}`);
    return c;
  }

  /** Removes a collider. Sleeping bodies wake (one may have rested on it). */
  removeCollider(id: number): void {
    const c = this.colliderIds.get(id);
    if (!c) throw new RangeError(`removeCollider: no collider with id ${id}`);
    this.colliderIds.delete(id);
    this.colliders.splice(this.colliders.indexOf(c), 1);
    this.wakeAll();
  }

  /** Removes a stick, pin, user constraint, or any constraint a table registered (angle, plane, capsule edge, face, spring). */
  removeConstraint(id: number): void {
    const stick = this.stickRows.get(id);
    if (stick !== undefined) {
      this.wake(this.sticks.a[stick]!);
      this.wake(this.sticks.b[stick]!);
      this.stickRows.delete(id);
      // Rows that move report themselves through the table's onMove.
      this.sticks.removeRow(stick);
      return;
    }
    const pin = this.pinRows.get(id);
    if (pin !== undefined) {
      const particle = this.pins.particle[pin]!;
      this.pinRows.delete(id);
      const moved = this.pins.removeRow(pin);
      if (moved >= 0) this.pinRows.set(moved, pin);
      this.unpinIfFree(particle);
      this.wake(particle);
      return;
    }
    const custom = this.customIds.get(id);
    if (custom) {
      this.customIds.delete(id);
      this.dropFrom(this.constraints, custom, RETIRED_CONSTRAINT);
      return;
    }
    // Angle and plane constraints, capsule edges, solid faces, springs: their table removes the row.
    const owner = this.registry.ownerOf(id);
    if (owner !== undefined) {
      owner.remove(id);
      return;
    }
    throw new RangeError(`removeConstraint: no constraint with id ${id}`);
  }

  /**
   * Registers particles `[first, first + count)` as one body and returns its
   * record. Builders call this after `addParticles`; push the ids of the body's
   * constraints into `record.constraints` so `removeBody` takes them along.
   */
  addBody(first: number, count: number, options: BodyOptions = {}): BodyRecord {
    checkInteger(count, 'addBody: count', 1);
    for (let i = first; i < first + count; i++) {
      this.checkParticle(i, 'addBody: first/count');
      // Removing this body would delete the owner's particles.
      const owner = this.bodyOf(i);
      if (owner !== undefined) throw new RangeError(`addBody: particle ${i} belongs to body ${owner.id} (a ${owner.kind}); a body's range must hold particles of no other body`);
    }
    const iterations = options.iterations === undefined ? undefined : checkInteger(options.iterations, 'addBody: iterations', 1);
    const slot = this.freeBodySlots.pop() ?? this.bodies.length;
    const record: BodyRecord = { id: slot, serial: this.nextBodySerial++, kind: options.kind ?? 'body', first, count, iterations, constraints: [], alive: true, onRemove: [] };
    this.bodies[slot] = record;
    // The body's sticks move to its own segment (own iteration count, sleep) at the next step.
    for (let i = first; i < first + count; i++) this.particles.body[i] = record.id;
    this.sticks.ordered = false;
    this.sleep.invalidate();
    return record;
  }

  /** Removes a body: its constraints, then its particles (with anything else attached to them). */
  removeBody(body: number | BodyRecord): void {
    const record = typeof body === 'number' ? this.bodies[body] : body;
    if (!record || !record.alive) throw new RangeError(`removeBody: no body with id ${typeof body === 'number' ? body : body?.id}`);
    record.alive = false;
    for (const cleanup of record.onRemove) cleanup();
    for (const id of record.constraints) if (this.hasConstraint(id)) this.removeConstraint(id);
    // One pass over the tables for the whole range, not one per particle.
    const end = record.first + record.count;
    this.detachRange(record.first, end);
    for (let i = record.first; i < end; i++) if (this.particles.isAlive(i)) this.particles.release(i);
    // The dead record lets go of what it held; its slot goes to the next body added.
    record.constraints.length = 0;
    record.onRemove.length = 0;
    record.surface = undefined;
    this.sleep.forgetBody(record.id);
    this.freeBodySlots.push(record.id);
  }

  /** The live body whose range holds particle `id`, or undefined. */
  bodyOf(id: number): BodyRecord | undefined {
    const b = this.particles.isAlive(id) ? this.particles.body[id]! : -1;
    return b >= 0 && this.bodies[b]!.alive ? this.bodies[b] : undefined;
  }

  /** True when `id` names a live stick, pin, user constraint or registered constraint. */
  hasConstraint(id: number): boolean {
    return this.stickRows.has(id) || this.pinRows.has(id) || this.customIds.has(id) || this.registry.ownerOf(id) !== undefined;
  }

  /** Removes a particle and every stick and pin attached to it. Its id becomes invalid (and may be reused). */
  removeParticle(id: number): void {
    this.checkParticle(id, 'removeParticle: id');
    // A body owns its range: a freed slot inside it would be reused by a stranger
    // that removing the body would then delete too.
    const owner = this.particles.body[id]!;
    if (owner >= 0 && this.bodies[owner]!.alive) throw new Error(`removeParticle: particle ${id} belongs to body ${owner} (a ${this.bodies[owner]!.kind}); remove the whole body with removeBody`);
    this.detachRange(id, id + 1);
    this.particles.release(id);
    this.sleep.invalidate();
  }

  /** Removes every stick and pin with an end among particles `[first, end)`. */
  private detachRange(first: number, end: number): void {
    const inside = (id: number) => id >= first && id < end;
    // Backwards: a removed row is filled from the end, which was already looked at.
    for (let row = this.sticks.count - 1; row >= 0; row--) {
      if (inside(this.sticks.a[row]!) || inside(this.sticks.b[row]!)) this.removeConstraint(this.sticks.ids[row]!);
    }
    for (let row = this.pins.count - 1; row >= 0; row--) {
      if (inside(this.pins.particle[row]!)) this.removeConstraint(this.pins.ids[row]!);
    }
  }

  /** Calls `callback` at the start of every step; returns a function that unsubscribes. */
  onBeforeStep(callback: (world: World) => void): () => void {
    return this.subscribe(this.beforeStep, callback, 'onBeforeStep');
  }

  /** Calls `callback` at the end of every step (e.g. to tear cloth); returns a function that unsubscribes. */
  onAfterStep(callback: (world: World) => void): () => void {
    return this.subscribe(this.afterStep, callback, 'onAfterStep');
  }

  private subscribe(list: ((world: World) => void)[], callback: (world: World) => void, what: string): () => void {
    if (typeof callback !== 'function') throw new TypeError(`${what}: callback must be a function, got ${String(callback)}`);
    list.push(callback);
    return () => this.dropFrom(list, callback, RETIRED_CALLBACK);
  }

  /**
   * Takes `item` out of one of the lists a step walks through. During a step the
   * entry is swapped for an inert `retired` stand-in and the list is compacted
   * when the step ends: splicing now would shift the entries behind it under the
   * running loop, which would then skip the next one.
   */
  private dropFrom<T>(list: T[], item: T, retired: T): void {
    const i = list.indexOf(item);
    if (i < 0) return;
    if (this.stepping) {
      list[i] = retired;
      this.retiredEntries = true;
    } else list.splice(i, 1);
  }

  /** Removes the stand-ins `dropFrom` left during the step. */
  private compactLists(): void {
    this.retiredEntries = false;
    compact(this.beforeStep, RETIRED_CALLBACK);
    compact(this.afterStep, RETIRED_CALLBACK);
    compact(this.forces, RETIRED_FORCE);
    compact(this.constraints, RETIRED_CONSTRAINT);
  }

  /** Runs exactly one fixed step. */
  step(): void {
    if (this.stepping) throw new Error('step: called from inside a step (a callback, force or constraint of this world)');
    this.stepping = true;
    try {
      this.runStep();
    } finally {
      this.stepping = false;
      if (this.retiredEntries) this.compactLists();
    }
  }

  private runStep(): void {
    for (let i = 0; i < this.beforeStep.length; i++) this.beforeStep[i]!(this);
    if (!this.budget.active) this.activeIterations = this.iterations;
    else if (this.activeIterations > this.iterations) this.activeIterations = this.iterations;
    stepWorld(this);
    this.time += this.timeStepValue;
    this.stepCount++;
    const stats = this.stats;
    stats.iterationsUsed = this.activeIterations;
    stats.substepsUsed = this.activeSubsteps;
    stats.passesUsed = this.sleep.maxPasses;
    stats.awakeBodies = this.sleep.awakeBodies;
    stats.sleepingBodies = this.sleep.sleepingBodies;
    stats.particles = this.particles.count;
    stats.awakeParticles = this.sleep.awakeParticles;
    stats.sticks = this.sticks.count;
    for (let i = 0; i < this.afterStep.length; i++) this.afterStep[i]!(this);
  }

  /**
   * Adds `elapsedSeconds` to the accumulator and runs as many whole steps as it
   * holds, at most `maxStepsPerAdvance` (time beyond that is dropped, so a stalled
   * tab does not spiral). Sets `alpha` to the leftover fraction; returns the steps run.
   */
  advance(elapsedSeconds: number): number {
    checkNumber(elapsedSeconds, 'advance: elapsedSeconds', 0);
    const dt = this.timeStepValue;
    this.accumulator += elapsedSeconds;
    // The tolerance keeps 60 calls of 1/60 s from drifting into a skipped step.
    const due = dt * (1 - 1e-9);
    let planned = 0;
    for (let acc = this.accumulator; acc >= due && planned < this.maxStepsPerAdvance; acc = Math.max(0, acc - dt)) planned++;
    if (this.budget.active && planned > 0) {
      this.budget.plan(planned, this.substepsValue, this.iterations, this.fullPasses());
      this.setActive(this.budget.substeps, this.budget.iterations);
    }
    // The clock is read per frame, not per step: its boxed result is the frame's only garbage.
    const start = planned > 0 ? this.clock() : 0;
    let steps = 0;
    this.frameSteps = Math.max(planned, 1);
    try {
      while (this.accumulator >= due && steps < this.maxStepsPerAdvance) {
        this.frameStep = steps;
        this.step();
        this.accumulator = Math.max(0, this.accumulator - dt);
        steps++;
      }
    } finally {
      this.frameStep = 0;
      this.frameSteps = 1;
    }
    if (steps > 0) {
      const ms = this.clock() - start;
      this.stats.msPerFrame = ms;
      this.stats.msPerStep = ms / steps;
      this.stats.stepsPerFrame = steps;
      this.budget.observe(ms, steps, this.activeSubsteps, this.sleep.maxPasses);
    }
    if (this.accumulator >= due) {
      // Time beyond maxStepsPerAdvance is dropped. A remainder within the tolerance
      // of a whole step (10 s is not a whole number of 1/60 s steps in binary) is
      // that step, dropped too: kept, it made the next advance(0) run a step.
      this.accumulator %= dt;
      if (this.accumulator >= due) this.accumulator = 0;
    }
    this.alpha = this.accumulator / dt;
    return steps;
  }

  /** Most passes per substep an awake body (or the world) asks for at full quality. */
  private fullPasses(): number {
    let passes = this.iterations;
    for (let b = 0; b < this.bodies.length; b++) {
      const body = this.bodies[b]!;
      if (body.alive && !this.sleep.isAsleep(b) && body.iterations !== undefined && body.iterations > passes) passes = body.iterations;
    }
    return passes;
  }

  /** Switches the substeps and iterations in use, keeping velocities when the substep changes. */
  private setActive(substeps: number, iterations: number): void {
    if (substeps !== this.activeSubsteps) {
      this.rescaleVelocities(this.activeSubsteps / substeps);
      this.activeSubsteps = substeps;
    }
    this.activeIterations = iterations;
  }

  /** Position of particle `id`, written into `out` when given. */
  getPosition(id: number, out: Vec3 = [0, 0, 0]): Vec3 {
    this.checkParticle(id, 'getPosition: id');
    const p = this.particles.position;
    out[0] = p[id * 3]!;
    out[1] = p[id * 3 + 1]!;
    out[2] = p[id * 3 + 2]!;
    return out;
  }

  /** Position of particle `id` blended between the last two steps by `alpha`, for rendering. */
  getInterpolatedPosition(id: number, out: Vec3 = [0, 0, 0]): Vec3 {
    this.checkParticle(id, 'getInterpolatedPosition: id');
    const p = this.particles.position;
    const s = this.stepStartPositions;
    for (let k = 0; k < 3; k++) out[k] = s[id * 3 + k]! + (p[id * 3 + k]! - s[id * 3 + k]!) * this.alpha;
    return out;
  }

  /** Velocity of particle `id`: (x - x*) / h, the mean over the latest substep h. */
  getVelocity(id: number, out: Vec3 = [0, 0, 0]): Vec3 {
    this.checkParticle(id, 'getVelocity: id');
    const p = this.particles.position;
    const q = this.particles.previous;
    const h = this.substep;
    for (let k = 0; k < 3; k++) out[k] = (p[id * 3 + k]! - q[id * 3 + k]!) / h;
    return out;
  }

  /**
   * Moves particle `id` to `position`. With `keepVelocity` (default true) it is a
   * teleport: x* moves along, x' - x*' = x - x* (course notes). With
   * `keepVelocity: false` x* stays, so the move becomes velocity, which is how the
   * paper sets bodies in motion ("move the shoulder particle backwards").
   */
  setPosition(id: number, position: Vec3Like, options: { keepVelocity?: boolean } = {}): void {
    this.checkParticle(id, 'setPosition: id');
    const t = toVec3(position, 'setPosition: position');
    const keep = options.keepVelocity ?? true;
    const p = this.particles.position;
    const q = this.particles.previous;
    for (let k = 0; k < 3; k++) {
      if (keep) q[id * 3 + k] = t[k]! - (p[id * 3 + k]! - q[id * 3 + k]!);
      p[id * 3 + k] = t[k]!;
    }
    this.wake(id);
  }

  /** Sets the velocity of particle `id`: x* = x - v·h (course notes). */
  setVelocity(id: number, velocity: Vec3Like): void {
    this.checkParticle(id, 'setVelocity: id');
    const v = toVec3(velocity, 'setVelocity: velocity');
    const p = this.particles.position;
    const q = this.particles.previous;
    for (let k = 0; k < 3; k++) q[id * 3 + k] = p[id * 3 + k]! - v[k]! * this.substep;
    this.wake(id);
  }

  /** Applies impulse `j` (N·s): v += j / m, i.e. x* -= j·w·h (course notes). Immovable particles ignore it. */
  applyImpulse(id: number, impulse: Vec3Like): void {
    this.checkParticle(id, 'applyImpulse: id');
    const j = toVec3(impulse, 'applyImpulse: impulse');
    const w = this.particles.inverseMass[id]!;
    const q = this.particles.previous;
    for (let k = 0; k < 3; k++) q[id * 3 + k] = q[id * 3 + k]! - j[k]! * w * this.substep;
    this.wake(id);
  }

  /**
   * Adds force `f` (N) to particle `id` for the next step only, over all its
   * substeps. Called from a force generator's `apply` (which runs every substep)
   * it adds to the current substep only, as writing `particles.force` does.
   */
  applyForce(id: number, force: Vec3Like): void {
    this.checkParticle(id, 'applyForce: id');
    const f = toVec3(force, 'applyForce: force');
    // Generators run again every substep: holding their force too would add it up substep after substep.
    if (this.applyingForces) {
      const now = this.particles.force;
      for (let k = 0; k < 3; k++) now[id * 3 + k] = now[id * 3 + k]! + f[k]!;
      return;
    }
    const acc = this.particles.heldForce;
    for (let k = 0; k < 3; k++) acc[id * 3 + k] = acc[id * 3 + k]! + f[k]!;
    this.wake(id);
  }

  /** Mass of particle `id` in kg (Infinity when immovable; a pinned particle reports its own mass). */
  getMass(id: number): number {
    this.checkParticle(id, 'getMass: id');
    const pinned = (this.particles.flags[id]! & ParticleFlag.Pinned) !== 0;
    const w = pinned ? this.particles.freeInverseMass[id]! : this.particles.inverseMass[id]!;
    return w === 0 ? Infinity : 1 / w;
  }

  /** Sets the mass of particle `id` (0 or Infinity = immovable). */
  setMass(id: number, mass: number): void {
    this.checkParticle(id, 'setMass: id');
    const w = inverseMassOf(mass, 'setMass: mass');
    if ((this.particles.flags[id]! & ParticleFlag.Pinned) !== 0) this.particles.freeInverseMass[id] = w;
    else this.particles.inverseMass[id] = w;
    // Whether a loose particle is an anchor decides which segment its sticks go to.
    this.sticks.ordered = false;
    this.wake(id);
  }

  /** A copy of the whole dynamic state; `restore` brings it back bit for bit. */
  snapshot(): WorldSnapshot {
    const snapshot: WorldSnapshot & SolverSnapshot = takeSnapshot(this, {
      accumulator: this.accumulator,
      nextConstraintId: this.registry.next,
      timeStep: this.timeStepValue,
      substeps: this.substepsValue,
      gravity: [...this.gravityValue],
    });
    snapshot.solver = { sleep: this.sleep.save(), sticksOrdered: this.sticks.ordered, activeSubsteps: this.activeSubsteps, activeIterations: this.activeIterations };
    return snapshot;
  }

  /** Returns the world to a snapshot taken from it (or from a world with the same colliders and user constraints). */
  restore(snapshot: WorldSnapshot): void {
    const scalars = restoreSnapshot(this, snapshot);
    this.accumulator = scalars.accumulator;
    // Colliders and user constraints are not in a snapshot: ids handed out since must stay taken.
    this.registry.next = Math.max(this.registry.next, scalars.nextConstraintId);
    this.timeStepValue = scalars.timeStep;
    this.substepsValue = scalars.substeps;
    this.gravityValue = [...scalars.gravity] as Vec3;
    this.stickRows = new Map(Array.from(this.sticks.ids.subarray(0, this.sticks.count), (id, row) => [id, row]));
    this.pinRows = new Map(Array.from(this.pins.ids.subarray(0, this.pins.count), (id, row) => [id, row]));
    this.syncCapacity();
    this.placeKernelColumns();
    // The step that led to the snapshot is not in it: draw the restored positions as they are.
    this.stepStartPositions.set(this.particles.position.subarray(0, this.particles.end * 3));
    // The solver's own state: stick segments, sleep timers, substeps in use.
    const solver = (snapshot as WorldSnapshot & SolverSnapshot).solver;
    resumeOrder(this.sticks, this.particles, this.orderScratch, solver?.sticksOrdered ?? false);
    this.sleep.load(this, solver?.sleep);
    this.activeSubsteps = solver?.activeSubsteps ?? this.substepsValue;
    this.activeIterations = solver?.activeIterations ?? this.iterations;
  }

  /** Throws unless `id` is a live particle; `what` names the argument. */
  checkParticle(id: number, what: string): void {
    if (!this.particles.isAlive(id)) throw new RangeError(`${what}: no particle with id ${String(id)}`);
  }

  /** Wakes every sleeping body: call it after moving a collider or changing the scene behind the solver's back. */
  wakeAll(): void {
    this.sleep.wakeAll(this);
  }

  /**
   * Wakes the body holding particle `id`, with every body tied to it by sticks, and
   * restarts its rest timer. Pins, teleports, velocity changes, impulses, forces
   * and stick changes call it; call it yourself after writing particle arrays directly.
   */
  wake(id: number): void {
    this.sleep.wakeParticle(this, id);
  }

  private writeParticle(id: number, o: CheckedParticle): void {
    const particles = this.particles;
    particles.inverseMass[id] = o.inverseMass;
    particles.freeInverseMass[id] = o.inverseMass;
    particles.radius[id] = o.radius;
    particles.friction[id] = o.friction;
    particles.restitution[id] = o.restitution;
    const h = this.substep;
    const g = this.gravityValue;
    for (let k = 0; k < 3; k++) {
      particles.position[id * 3 + k] = o.position[k]!;
      // x* = x0 - v0·h + ½·a·h² makes Verlet reproduce the closed-form parabola exactly.
      const a = o.inverseMass === 0 ? 0 : g[k]!;
      particles.previous[id * 3 + k] = o.position[k]! - o.velocity[k]! * h + 0.5 * a * h * h;
    }
  }

  private unpinIfFree(particle: number): void {
    const pins = this.pins;
    for (let row = 0; row < pins.count; row++) if (pins.particle[row] === particle) return;
    const particles = this.particles;
    particles.inverseMass[particle] = particles.freeInverseMass[particle]!;
    particles.flags[particle]! &= ~ParticleFlag.Pinned;
  }

  /** Keeps x - x* proportional to the step when the step changes (course notes, variable dt). */
  private rescaleVelocities(ratio: number): void {
    const p = this.particles.position;
    const q = this.particles.previous;
    for (let i = 0; i < this.particles.end * 3; i++) q[i] = p[i]! - (p[i]! - q[i]!) * ratio;
  }

  /**
   * @internal With the WebAssembly kernel on, puts arrays that were replaced (by
   * growth or a restore) back into its memory; without memory for them, falls back
   * to the TypeScript loops. Six comparisons when nothing was replaced.
   */
  placeKernelColumns(): void {
    if (this.stickKernel !== null && !this.stickKernel.adopt(this.particles, this.sticks)) this.stickKernel = null;
  }

  private syncCapacity(): void {
    if (this.stepStartPositions.length !== this.particles.capacity * 3) this.stepStartPositions = widen(this.stepStartPositions, this.particles.capacity, 3);
  }
}

/** Inert stand-ins for entries removed while a step walks their list. */
const RETIRED_CALLBACK = (): void => {};
const RETIRED_FORCE: Force = { apply: () => {} };
const RETIRED_CONSTRAINT: Constraint = { project: () => {} };

/** Removes every `retired` entry from `list`, in place, keeping the order of the rest. */
function compact<T>(list: T[], retired: T): void {
  let kept = 0;
  for (let i = 0; i < list.length; i++) if (list[i] !== retired) list[kept++] = list[i]!;
  list.length = kept;
}

/** What a snapshot carries for the solver besides the particle and constraint arrays. */
interface SolverSnapshot {
  solver?: { sleep: SleepSnapshot; sticksOrdered: boolean; activeSubsteps: number; activeIterations: number };
}

interface CheckedParticle {
  position: Vec3;
  velocity: Vec3;
  inverseMass: number;
  radius: number;
  friction: number;
  restitution: number;
}

function checkParticle(o: ParticleOptions, what: string): CheckedParticle {
  if (!o || typeof o !== 'object') throw new TypeError(`${what}: options must be an object, got ${String(o)}`);
  return {
    position: toVec3(o.position, `${what}: position`),
    velocity: o.velocity === undefined ? [0, 0, 0] : toVec3(o.velocity, `${what}: velocity`),
    inverseMass: inverseMassOf(o.mass ?? 1, `${what}: mass`),
    radius: checkNumber(o.radius ?? 0, `${what}: radius`, 0),
    friction: checkNumber(o.friction ?? 0.5, `${what}: friction`, 0),
    restitution: checkNumber(o.restitution ?? 0, `${what}: restitution`, 0, 1),
  };
}

function inverseMassOf(mass: number, what: string): number {
  if (typeof mass !== 'number' || Number.isNaN(mass) || mass < 0) throw new RangeError(`${what} must be >= 0 (0 or Infinity = immovable), got ${String(mass)}`);
  return mass === 0 || mass === Infinity ? 0 : 1 / mass;
}

function checkPositive(n: number, what: string): number {
  checkNumber(n, what, 0);
  if (n === 0) throw new RangeError(`${what} must be > 0, got 0`);
  return n;
}

function makeCollider(shape: ColliderShape): Collider {
  if (!shape || typeof shape !== 'object') throw new TypeError(`addCollider: shape must be an object, got ${String(shape)}`);
  if ('project' in shape && typeof shape.project === 'function') {
    if (shape.restitution !== undefined) checkNumber(shape.restitution, 'addCollider: restitution', 0, 1);
    return shape;
  }
  switch (shape.type) {
    case 'plane':
      return new PlaneCollider(shape as PlaneShape);
    case 'sphere':
      return new SphereCollider(shape as SphereShape);
    case 'box':
      return new BoxCollider(shape as BoxShape);
    case 'capsule':
      return new CapsuleCollider(shape as CapsuleShape);
    case 'obb':
      return new ObbCollider(shape as ObbShape);
    case 'mesh':
      return new TriangleMeshCollider(shape as MeshShape);
    default:
      throw new RangeError(`addCollider: unknown shape type ${JSON.stringify((shape as { type?: unknown }).type)} (expected 'plane', 'sphere', 'box', 'capsule', 'obb' or 'mesh')`);
  }
}
