import type { Vec3 } from '../../core/math.js';
import { checkStep, type AccelerationFunction, type ParticleState } from './stepper.js';

// One scratch vector per module: the steppers allocate nothing per call.
const a: Vec3 = [0, 0, 0];

/**
 * Explicit (forward) Euler, the slides' S(t + Δt) = S(t) + Δt·dS/dt: the position
 * moves with the old velocity, then the velocity takes the acceleration. First
 * order (the error over a fixed time halves when `dt` halves) and it gains energy
 * on every oscillator: an undamped spring's amplitude grows by √(1 + ω²·dt²) a step.
 *
 * @example
 * ```ts
 * const state = particleState([1, 0, 0]);
 * const spring: AccelerationFunction = (p, _v, out) => { out[0] = -p[0]; out[1] = -p[1]; out[2] = -p[2]; };
 * for (let i = 0; i < 100; i++) explicitEuler(state, spring, 0.01);
 * ```
 */
export function explicitEuler(state: ParticleState, acceleration: AccelerationFunction, dt: number): void {
  checkStep(dt, 'explicitEuler');
  const p = state.p;
  const v = state.v;
  acceleration(p, v, a);
  for (let k = 0; k < 3; k++) {
    p[k] = p[k]! + v[k]! * dt;
    v[k] = v[k]! + a[k]! * dt;
  }
}

/**
 * Symplectic (semi-implicit) Euler, the course notes' variant: the velocity takes
 * the acceleration first and the position moves with the new velocity. Still first
 * order, but its energy stays bounded on a spring or an orbit instead of growing.
 */
export function symplecticEuler(state: ParticleState, acceleration: AccelerationFunction, dt: number): void {
  checkStep(dt, 'symplecticEuler');
  const p = state.p;
  const v = state.v;
  acceleration(p, v, a);
  for (let k = 0; k < 3; k++) {
    v[k] = v[k]! + a[k]! * dt;
    p[k] = p[k]! + v[k]! * dt;
  }
}
