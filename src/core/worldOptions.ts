import type { StickKind } from './constraints/sticks.js';
import type { SlowerThanRealTimeReport } from './realTime.js';
import { checkBoolean, checkInteger, checkNumber, toVec3, type Vec3, type Vec3Like } from './math.js';
import type { StickKernel } from './wasm/stickKernel.js';
import { PARTICLE_DEFAULTS } from './defaults.js';

export { WORLD_DEFAULTS } from './defaults.js';

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
   * (see docs/solver.md, "Substeps rather than iterations").
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
   * Called once, the first time `advance()` runs slower than real time for more
   * than a second (`maxStepsPerAdvance` drops time), with the measured step cost
   * and what to change; without it the world says so with `console.warn`.
   * `stats.slowerThanRealTime` and `stats.realTimeRatio` follow it throughout.
   * Later through `world.realTime.onSlow`.
   */
  onSlowerThanRealTime?: (report: SlowerThanRealTimeReport) => void;
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
   * `src/core/wasm/sticks.wat`; a step of a 64×64 or 128×128 cloth takes about
   * half the time it takes with `'js'`, see docs/performance.md), or `'js'`, the TypeScript loops. Both give
   * the same positions bit for bit. Default `'wasm'`; where WebAssembly SIMD is
   * unavailable (or a Content Security Policy forbids compiling it) the world
   * quietly uses `'js'`, and `world.kernel` says which one runs.
   *
   * With `'wasm'`, `particles.position` and `particles.inverseMass` and the stick
   * table's `a`, `b`, `rest`, `stiffness`, `compliance` and `lambda` are views into the kernel's
   * `WebAssembly.Memory`, replaced whenever particles *or sticks* are added beyond
   * capacity: re-read them after adding either. Only sticks of kind `'equal'`
   * with the exact square root and no constraint damping use the kernel; the rest use the TypeScript loop.
   */
  kernel?: StickKernel;
  /**
   * Most speed (m/s) that pushing a particle out of a collider may give it along
   * the contact normal, beyond its own motion. A deep penetration (a particle
   * released from a pin under the floor) is then resolved at this speed instead
   * of becoming a launch. Default 3; `Infinity` turns it off; change it later through
   * `world.contacts.maxPushOutSpeed` (see `ContactSettings`).
   */
  maxPushOutSpeed?: number;
  /**
   * Long-range attachments (see `Tethers`, docs/solver.md): every particle tied
   * by rigid sticks to a pin is held within its rest distance of it, so a light
   * cloth or rope carries a heavy load (a 32 kg box in a 1.35 kg hammock).
   * Default true; false gives plain relaxation. Later through `world.tethers.enabled`.
   */
  tethers?: boolean;
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
  /**
   * Share of the error repaired per pass, in (0, 1]; default 1 (rigid). Below 1
   * the stick's softness depends on the substeps and iterations (the paper's
   * relaxation); `compliance` gives one that does not (`complianceForStiffness`
   * converts).
   */
  stiffness?: number;
  /** Compliance in m/N, the inverse of the stick's spring constant: it stretches α·F under a force F, whatever the solver settings. Default 0 (rigid). */
  compliance?: number;
  /** Constraint damping in N·s/m, a dashpot beside the compliant spring (needs a compliance > 0 to act). Default 0. */
  damping?: number;
  /** `'equal'` (default), `'min'` (only pushes apart) or `'max'` (only pulls together: a rope). */
  kind?: StickKind;
}

/** What {@link World.addPin} and {@link World.setPin} take. */
export interface PinOptions {
  /**
   * Compliance in m/N, making the pin a zero-length spring of k = 1/compliance
   * between the particle and the target: under a force F the particle stays
   * F·compliance from the target, whatever the solver settings, and it keeps
   * its mass (sticks no longer see it as immovable). Default 0: the particle is
   * held exactly at the target and is immovable while pinned.
   */
  compliance?: number;
  /** Constraint damping in N·s/m, a dashpot beside the spring that damps the particle's velocity (the target is taken as still; needs a compliance > 0 to act). Default 0. */
  damping?: number;
  /**
   * Most force in N the spring pulls with (needs a compliance > 0 to act):
   * beyond it the particle lags the target, as a hand lets a heavy load
   * drag. A drag uses it so that pulling never stretches what it holds.
   * Default Infinity.
   */
  maxForce?: number;
}

/** A particle's options, checked, with the defaults filled in. */
export interface CheckedParticle {
  position: Vec3;
  velocity: Vec3;
  inverseMass: number;
  radius: number;
  friction: number;
  restitution: number;
}

export function checkParticleOptions(o: ParticleOptions, what: string): CheckedParticle {
  if (!o || typeof o !== 'object') throw new TypeError(`${what}: options must be an object, got ${String(o)}`);
  return {
    position: toVec3(o.position, `${what}: position`),
    velocity: o.velocity === undefined ? [0, 0, 0] : toVec3(o.velocity, `${what}: velocity`),
    inverseMass: inverseMassOf(o.mass ?? PARTICLE_DEFAULTS.mass, `${what}: mass`),
    radius: checkNumber(o.radius ?? PARTICLE_DEFAULTS.radius, `${what}: radius`, 0),
    friction: checkNumber(o.friction ?? PARTICLE_DEFAULTS.friction, `${what}: friction`, 0),
    restitution: checkNumber(o.restitution ?? PARTICLE_DEFAULTS.restitution, `${what}: restitution`, 0, 1),
  };
}

/** 1/mass, with 0 for an immovable particle (mass 0 or Infinity); `what` names the mass in the error. */
export function inverseMassOf(mass: number, what: string): number {
  if (typeof mass !== 'number' || Number.isNaN(mass) || mass < 0) throw new RangeError(`${what} must be >= 0 (0 or Infinity = immovable), got ${String(mass)}`);
  return mass === 0 || mass === Infinity ? 0 : 1 / mass;
}

/** Checks that `n` is a finite number > 0. */
export function checkPositive(n: number, what: string): number {
  checkNumber(n, what, 0);
  if (n === 0) throw new RangeError(`${what} must be > 0, got 0`);
  return n;
}

/** The settings a world is made with and may change while it runs: every {@link WorldOptions} field but gravity (a vector) and the callbacks, all given. `<World>`'s settings are these and its own frame-loop ones. */
export type SolverSettings = Required<Omit<WorldOptions, 'gravity' | 'clock' | 'onSlowerThanRealTime'>>;

/**
 * Throws unless every given setting is in range, naming `who` and the setting
 * (`World: iterations must be an integer >= 1, got 0`): the one check behind
 * `new World(options)` and `<World>`'s props. Unset settings are not checked.
 *
 * @example
 * ```ts
 * checkSolverSettings({ substeps: 8, sleep: true }, 'World');
 * ```
 */
export function checkSolverSettings(s: Partial<SolverSettings>, who: string): void {
  const number = (key: 'damping' | 'budgetMs' | 'sleepSpeed' | 'sleepTime' | 'restitutionThreshold') => s[key] !== undefined && checkNumber(s[key], `${who}: ${key}`, 0);
  const integer = (key: 'iterations' | 'substeps' | 'maxStepsPerAdvance' | 'minSubsteps' | 'minIterations', min: number) => s[key] !== undefined && checkInteger(s[key], `${who}: ${key}`, min);
  const flag = (key: 'sqrtApprox' | 'sleep' | 'tethers') => s[key] !== undefined && checkBoolean(s[key], `${who}: ${key}`);
  if (s.timeStep !== undefined) checkPositive(s.timeStep, `${who}: timeStep`);
  for (const key of ['iterations', 'substeps', 'maxStepsPerAdvance', 'minSubsteps', 'minIterations'] as const) integer(key, 1);
  if (s.seed !== undefined) checkInteger(s.seed, `${who}: seed`, 0);
  for (const key of ['damping', 'budgetMs', 'sleepSpeed', 'sleepTime', 'restitutionThreshold'] as const) number(key);
  // Infinity turns the push-out limit off.
  if (s.maxPushOutSpeed !== undefined && s.maxPushOutSpeed !== Infinity) checkNumber(s.maxPushOutSpeed, `${who}: maxPushOutSpeed`, 0);
  for (const key of ['sqrtApprox', 'sleep', 'tethers'] as const) flag(key);
  const kernel: unknown = s.kernel;
  if (kernel !== undefined && kernel !== 'wasm' && kernel !== 'js') throw new RangeError(`${who}: kernel must be 'wasm' or 'js', got ${typeof kernel === 'string' ? `'${kernel}'` : String(kernel)}`);
}
