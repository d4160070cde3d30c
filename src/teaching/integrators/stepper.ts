import type { Vec3 } from '../../core/math.js';

/**
 * The state of one particle for the teaching steppers: position `p` and velocity
 * `v` at the same instant. Steppers update both in place.
 *
 * Two steppers keep extra memory here, created on their first step: position Verlet
 * keeps the `previous` position (its velocity is implicit) and leapfrog keeps the
 * half-step velocity `halfStepVelocity` (course notes). After changing `p` or `v` by
 * hand, set both to `undefined` so the next step starts again from `p` and `v`.
 */
export interface ParticleState {
  /** Position (m). */
  p: Vec3;
  /** Velocity (m/s) at the instant of `p`. */
  v: Vec3;
  /** Position Verlet's position one step earlier. */
  previous?: Vec3 | undefined;
  /** Leapfrog's velocity half a step after `p`. */
  halfStepVelocity?: Vec3 | undefined;
}

/**
 * Acceleration (m/s²) of a particle at position `p` moving at `v`: write it into
 * `out`. For a spring of stiffness k on mass m: `out[i] = -(k / m) * p[i]`.
 */
export type AccelerationFunction = (p: Readonly<Vec3>, v: Readonly<Vec3>, out: Vec3) => void;

/**
 * One integration step of `dt` seconds: advances `state` in place. Every stepper in
 * sinew has this shape, so a scene can swap them (see `steppers`).
 */
export type Stepper = (state: ParticleState, acceleration: AccelerationFunction, dt: number) => void;

/** A fresh {@link ParticleState} at `p` moving at `v` (copies both). */
export function particleState(p: Readonly<Vec3>, v: Readonly<Vec3> = [0, 0, 0]): ParticleState {
  return { p: [p[0], p[1], p[2]], v: [v[0], v[1], v[2]] };
}

/** Throws unless `dt` is a positive finite number; `what` names the stepper. */
export function checkStep(dt: number, what: string): void {
  if (typeof dt !== 'number' || !Number.isFinite(dt) || dt <= 0) throw new RangeError(`${what}: dt must be a positive finite number, got ${String(dt)}`);
}
