import { checkNumber, component, toVec3, type Vec3, type Vec3Like } from '../../core/math.js';

/**
 * The slides' closed-form projectile: p(t) = p₀ + v₀·t + ½·g·t², exact for any
 * `t` under constant acceleration `gravity`. Written into `out` when given.
 *
 * @example
 * ```ts
 * // The slides' example: from (10, 0, 2) m at (7.68, 0, 29) m/s, z up: 7.6038 m high after 0.2 s.
 * projectilePosition([10, 0, 2], [7.68, 0, 29], [0, 0, -9.81], 0.2); // [11.536, 0, 7.6038]
 * ```
 */
export function projectilePosition(p0: Vec3Like, v0: Vec3Like, gravity: Vec3Like, t: number, out: Vec3 = [0, 0, 0]): Vec3 {
  checkNumber(t, 'projectilePosition: t');
  // Read in place (no copies), so a renderer can trace the arc every frame; validate only on a bad result.
  for (let k = 0 as 0 | 1 | 2; k < 3; k++) out[k] = component(p0, k) + component(v0, k) * t + 0.5 * component(gravity, k) * t * t;
  if (!Number.isFinite(out[0] + out[1] + out[2])) {
    toVec3(p0, 'projectilePosition: p0');
    toVec3(v0, 'projectilePosition: v0');
    toVec3(gravity, 'projectilePosition: gravity');
  }
  return out;
}

/** The slides' closed-form velocity: v(t) = v₀ + g·t. Written into `out` when given. */
export function projectileVelocity(v0: Vec3Like, gravity: Vec3Like, t: number, out: Vec3 = [0, 0, 0]): Vec3 {
  checkNumber(t, 'projectileVelocity: t');
  for (let k = 0 as 0 | 1 | 2; k < 3; k++) out[k] = component(v0, k) + component(gravity, k) * t;
  if (!Number.isFinite(out[0] + out[1] + out[2])) {
    toVec3(v0, 'projectileVelocity: v0');
    toVec3(gravity, 'projectileVelocity: gravity');
  }
  return out;
}
