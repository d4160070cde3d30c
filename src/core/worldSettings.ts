import { TimeBudget } from './budget.js';
import { ContactSettings } from './colliders/contactResponse.js';
import { checkBoolean, checkInteger, checkNumber, checkOptions, toVec3, type Vec3, type Vec3Like } from './math.js';
import { RealTimeWatch } from './realTime.js';
import { SleepSystem } from './sleep.js';
import { checkPositive, checkSolverSettings, WORLD_DEFAULTS, type WorldOptions } from './worldOptions.js';

/**
 * The settings of a {@link World} that a user tunes (gravity, time step, substeps,
 * iterations, damping, the time budget, sleeping, contacts), each checked where
 * it is set, in the constructor and by its setter alike. `World` extends it, so
 * they read as `world.substeps`; this class keeps them and their validation out
 * of the file that holds the world's tables and API.
 */
export abstract class WorldSettings {
  /** How contacts turn into velocity: the push-out speed limit and the restitution threshold (change them live). */
  readonly contacts = new ContactSettings();
  /** Sleeping bodies and the awake particle ranges the solver works on. */
  readonly sleep: SleepSystem;
  /** The per-frame time budget controller (`budgetMs`). */
  readonly budget: TimeBudget;
  /** Whether `advance()` keeps up with real time; set `realTime.onSlow` to hear when it does not (see {@link WorldOptions.onSlowerThanRealTime}). */
  readonly realTime: RealTimeWatch;
  /** @internal Backing field of `gravity`. */
  gravityValue: Vec3;
  /** @internal Backing field of `timeStep`; the solver reads it directly (no getter call in the loop). */
  timeStepValue: number;
  /** @internal Backing field of `substeps`. */
  substepsValue: number;
  /** @internal Substeps the solver runs: `substeps`, or fewer under a time budget. */
  activeSubsteps: number;
  /** @internal Iterations the world's own constraints get: `iterations`, or fewer under a time budget. */
  activeIterations: number;
  private iterationsValue: number;
  private sqrtApproxValue: boolean;
  private clockValue: () => number;
  private dampingValue: number;
  private maxStepsValue: number;

  constructor(options: WorldOptions) {
    checkOptions(options, 'World: options');
    checkSolverSettings(options, 'World');
    this.gravityValue = toVec3(options.gravity ?? WORLD_DEFAULTS.gravity, 'World: gravity');
    this.timeStepValue = checkPositive(options.timeStep ?? WORLD_DEFAULTS.timeStep, 'World: timeStep');
    this.iterationsValue = checkInteger(options.iterations ?? WORLD_DEFAULTS.iterations, 'World: iterations', 1);
    this.substepsValue = checkInteger(options.substeps ?? WORLD_DEFAULTS.substeps, 'World: substeps', 1);
    this.dampingValue = checkNumber(options.damping ?? WORLD_DEFAULTS.damping, 'World: damping', 0);
    this.sqrtApproxValue = checkBoolean(options.sqrtApprox ?? WORLD_DEFAULTS.sqrtApprox, 'World: sqrtApprox');
    this.maxStepsValue = checkInteger(options.maxStepsPerAdvance ?? WORLD_DEFAULTS.maxStepsPerAdvance, 'World: maxStepsPerAdvance', 1);
    this.activeSubsteps = this.substepsValue;
    this.activeIterations = this.iterations;
    this.budget = new TimeBudget(options.budgetMs ?? WORLD_DEFAULTS.budgetMs, options.minSubsteps ?? WORLD_DEFAULTS.minSubsteps, options.minIterations ?? WORLD_DEFAULTS.minIterations);
    this.sleep = new SleepSystem(checkBoolean(options.sleep ?? WORLD_DEFAULTS.sleep, 'World: sleep'), options.sleepSpeed ?? WORLD_DEFAULTS.sleepSpeed, options.sleepTime ?? WORLD_DEFAULTS.sleepTime);
    this.clockValue = checkClock(options.clock ?? (() => performance.now()));
    this.realTime = new RealTimeWatch(options.onSlowerThanRealTime);
    this.contacts.maxPushOutSpeed = options.maxPushOutSpeed ?? WORLD_DEFAULTS.maxPushOutSpeed;
    this.contacts.restitutionThreshold = options.restitutionThreshold ?? WORLD_DEFAULTS.restitutionThreshold;
  }

  /** Wakes every sleeping body (the world's tables are needed for it). */
  abstract wakeAll(): void;

  /** @internal Keeps velocities when the step changes (the world holds the particles). */
  abstract rescaleVelocities(ratio: number): void;

  /** Use the paper's square-root approximation in the stick pass (true or false; anything else throws, naming it). */
  get sqrtApprox(): boolean {
    return this.sqrtApproxValue;
  }
  set sqrtApprox(on: boolean) {
    this.sqrtApproxValue = checkBoolean(on, 'World: sqrtApprox');
  }

  /** Milliseconds now (see {@link WorldOptions.clock}); a function, anything else throws. */
  get clock(): () => number {
    return this.clockValue;
  }
  set clock(clock: () => number) {
    this.clockValue = checkClock(clock);
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
    this.wakeAll();
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

  /** @internal Switches the substeps and iterations in use, keeping velocities when the substep changes. */
  setActive(substeps: number, iterations: number): void {
    if (substeps !== this.activeSubsteps) {
      this.rescaleVelocities(this.activeSubsteps / substeps);
      this.activeSubsteps = substeps;
    }
    this.activeIterations = iterations;
  }
}

function checkClock(clock: unknown): () => number {
  if (typeof clock !== 'function') throw new TypeError(`World: clock must be a function, got ${String(clock)}`);
  return clock as () => number;
}
