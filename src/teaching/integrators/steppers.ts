import { explicitEuler, symplecticEuler } from './euler.js';
import { leapfrog } from './leapfrog.js';
import { positionVerlet } from './positionVerlet.js';
import type { Stepper } from './stepper.js';
import { velocityVerlet } from './velocityVerlet.js';

/** Names of the teaching steppers. */
export type StepperName = 'explicitEuler' | 'symplecticEuler' | 'leapfrog' | 'velocityVerlet' | 'positionVerlet';

/**
 * Every teaching stepper by name, with its order of accuracy (how fast the error
 * over a fixed time shrinks with `dt`) and whether it gains energy on an undamped
 * oscillator, e.g. for a picker in a story that compares them.
 *
 * @example
 * ```ts
 * const spring: AccelerationFunction = (p, _v, out) => { out[0] = -p[0]; out[1] = -p[1]; out[2] = -p[2]; };
 * const picked: StepperName = 'leapfrog';
 * const state = particleState([1, 0, 0]);
 * steppers[picked].step(state, spring, 1 / 60);
 * ```
 */
export const steppers: Readonly<Record<StepperName, { readonly step: Stepper; readonly order: 1 | 2; readonly gainsEnergy: boolean }>> = {
  explicitEuler: { step: explicitEuler, order: 1, gainsEnergy: true },
  symplecticEuler: { step: symplecticEuler, order: 1, gainsEnergy: false },
  leapfrog: { step: leapfrog, order: 2, gainsEnergy: false },
  velocityVerlet: { step: velocityVerlet, order: 2, gainsEnergy: false },
  positionVerlet: { step: positionVerlet, order: 2, gainsEnergy: false },
};
