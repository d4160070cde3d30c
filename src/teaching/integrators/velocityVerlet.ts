import type { Vec3 } from '../../core/math.js';
import { checkStep, type AccelerationFunction, type ParticleState } from './stepper.js';

const a0: Vec3 = [0, 0, 0];
const a1: Vec3 = [0, 0, 0];
const predicted: Vec3 = [0, 0, 0];

/**
 * Velocity Verlet: p ← p + v·dt + ½·a·dt², then v ← v + ½·(a + a′)·dt with a′ the
 * acceleration at the new position. Second order with energy bounded, like
 * leapfrog (for forces of position alone the two trace the same positions), but
 * position and velocity stay at the same instant and `dt` may change between steps.
 * A velocity-dependent acceleration is evaluated at the predicted v + a·dt.
 */
export function velocityVerlet(state: ParticleState, acceleration: AccelerationFunction, dt: number): void {
  checkStep(dt, 'velocityVerlet');
  const p = state.p;
  const v = state.v;
  acceleration(p, v, a0);
  for (let k = 0; k < 3; k++) {
    p[k] = p[k]! + v[k]! * dt + 0.5 * a0[k]! * dt * dt;
    predicted[k] = v[k]! + a0[k]! * dt;
  }
  acceleration(p, predicted, a1);
  for (let k = 0; k < 3; k++) v[k] = v[k]! + 0.5 * (a0[k]! + a1[k]!) * dt;
}
