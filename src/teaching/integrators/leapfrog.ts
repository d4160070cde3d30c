import type { Vec3 } from '../../core/math.js';
import { checkStep, type AccelerationFunction, type ParticleState } from './stepper.js';

const a: Vec3 = [0, 0, 0];

/**
 * Leapfrog as the course notes write it: velocities live half a step after the
 * positions. The first call starts v½ = v₀ + a·dt/2; every step then does
 * p ← p + v½·dt and v½ ← v½ + a(p)·dt. Second order (the error over a fixed time
 * quarters when `dt` halves), time-reversible, energy bounded; `dt` must stay
 * constant. The half-step velocity is kept in `state.halfStepVelocity`; `state.v`
 * is set to the velocity at `p`, v½ − a·dt/2, so it compares with the other
 * steppers. The acceleration is evaluated at the half-step velocity.
 */
export function leapfrog(state: ParticleState, acceleration: AccelerationFunction, dt: number): void {
  checkStep(dt, 'leapfrog');
  const p = state.p;
  const v = state.v;
  let half = state.halfStepVelocity;
  if (half === undefined) {
    acceleration(p, v, a);
    half = state.halfStepVelocity = [v[0] + a[0] * dt * 0.5, v[1] + a[1] * dt * 0.5, v[2] + a[2] * dt * 0.5];
  }
  for (let k = 0; k < 3; k++) p[k] = p[k]! + half[k]! * dt;
  acceleration(p, half, a);
  for (let k = 0; k < 3; k++) {
    v[k] = half[k]! + a[k]! * dt * 0.5;
    half[k] = half[k]! + a[k]! * dt;
  }
}
