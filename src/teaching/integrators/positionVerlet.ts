import type { Vec3 } from '../../core/math.js';
import { checkStep, type AccelerationFunction, type ParticleState } from './stepper.js';

const a: Vec3 = [0, 0, 0];

/**
 * Position Verlet, the `World`'s own integrator for one particle:
 * p′ = 2p − p* + a·dt², the velocity implicit in p − p* (Jakobsen; the slides).
 * The first call sets p* = p − v·dt + ½·a·dt², the `World`'s start, which makes a
 * constant acceleration follow the closed-form parabola exactly. Afterwards
 * `state.v` is (p′ − p)/dt, the mean velocity over the step, as `World.getVelocity`
 * reports it; `dt` must stay constant. Second order, energy bounded.
 */
export function positionVerlet(state: ParticleState, acceleration: AccelerationFunction, dt: number): void {
  checkStep(dt, 'positionVerlet');
  const p = state.p;
  const v = state.v;
  acceleration(p, v, a);
  let previous = state.previous;
  if (previous === undefined) {
    const h2 = 0.5 * dt * dt;
    previous = state.previous = [p[0] - v[0] * dt + a[0] * h2, p[1] - v[1] * dt + a[1] * h2, p[2] - v[2] * dt + a[2] * h2];
  }
  for (let k = 0; k < 3; k++) {
    const x = p[k]!;
    p[k] = 2 * x - previous[k]! + a[k]! * dt * dt;
    previous[k] = x;
    v[k] = (p[k]! - x) / dt;
  }
}
