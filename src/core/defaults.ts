import type { StickKernel } from './wasm/stickKernel.js';

// The physical defaults of the world and of what is added to it, in one place:
// the constructors, the add functions and the React layer read them here.

/**
 * The one definition of the world settings' defaults: `new World()` uses them,
 * and the React layer derives its `<World>` defaults from them (changing only
 * what it documents: sleeping on, a looser rest speed).
 */
export const WORLD_DEFAULTS = {
  gravity: [0, -9.81, 0] as const,
  timeStep: 1 / 60,
  iterations: 1,
  substeps: 10,
  damping: 0,
  sqrtApprox: false,
  maxStepsPerAdvance: 5,
  seed: 0x5eed,
  budgetMs: 0,
  minSubsteps: 1,
  minIterations: 1,
  sleep: false,
  sleepSpeed: 0.01,
  sleepTime: 0.5,
  kernel: 'wasm' as StickKernel,
  maxPushOutSpeed: 3,
  restitutionThreshold: 0.5,
  tethers: true,
};

/** What `addParticle` gives a particle whose options leave these out. */
export const PARTICLE_DEFAULTS = {
  /** Mass (kg). */
  mass: 1,
  /** Collision radius (m): a point. */
  radius: 0,
  /** Coulomb friction coefficient μ against colliders. */
  friction: 0.5,
  /** Bounciness in [0, 1]: none. */
  restitution: 0,
} as const;

/** What `addStick` gives a stick whose options leave these out (its length: the particles' distance now). */
export const STICK_DEFAULTS = {
  /** Share of the error a pass corrects (deprecated option). */
  stiffness: 1,
  /** Pushes and pulls. */
  kind: 'equal',
  /** Rigid (m/N). */
  compliance: 0,
  /** No dashpot (N·s/m). */
  damping: 0,
} as const;

/** What `addPin` gives a pin whose options leave these out. */
export const PIN_DEFAULTS = {
  /** Rigid (m/N). */
  compliance: 0,
  /** No dashpot (N·s/m). */
  damping: 0,
} as const;

/** What a collider gets when its shape leaves these out (a contact's μ is the particle's × the collider's, its restitution the larger of the two). */
export const COLLIDER_DEFAULTS = {
  /** Coulomb friction coefficient μ. */
  friction: 1,
  /** Bounciness in [0, 1]: none. */
  restitution: 0,
} as const;
