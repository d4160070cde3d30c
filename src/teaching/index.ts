/**
 * sinew-physics/teaching: the course material beside the engine. The textbook integrators
 * for one particle (explicit and symplectic Euler, leapfrog, velocity and position
 * Verlet) with the `steppers` table that compares them, the closed-form
 * projectile, and the slides' target practice. `World` does not use any of it
 * (it has its own Verlet step); the Integrators and Target practice stories do.
 * Plain TypeScript like `sinew-physics/core`: no React, no three.js, no DOM.
 *
 * @example
 * ```ts
 * import { particleState, steppers, type AccelerationFunction } from 'sinew-physics/teaching';
 *
 * const spring: AccelerationFunction = (p, _v, out) => { out[0] = -p[0]; out[1] = -p[1]; out[2] = -p[2]; };
 * const state = particleState([1, 0, 0]);
 * for (let i = 0; i < 60; i++) steppers.leapfrog.step(state, spring, 1 / 60);
 * ```
 * @packageDocumentation
 */
export { particleState, type ParticleState, type AccelerationFunction, type Stepper } from './integrators/stepper.js';
export { explicitEuler, symplecticEuler } from './integrators/euler.js';
export { leapfrog } from './integrators/leapfrog.js';
export { velocityVerlet } from './integrators/velocityVerlet.js';
export { positionVerlet } from './integrators/positionVerlet.js';
export { steppers, type StepperName } from './integrators/steppers.js';
export { projectilePosition, projectileVelocity } from './integrators/projectile.js';
export { targetPractice, type TargetPracticeOptions, type TargetPracticeSolution, type Launch } from './targetPractice.js';
