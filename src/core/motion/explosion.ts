import { EXPLOSION_DEFAULTS } from '../defaults.js';
import { checkNumber, component, type Vec3Like } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';

/** What {@link explode} takes. */
export interface ExplosionOptions {
  /** A particle at distance d is pushed strength / d² metres (strength in m³), >= 0. */
  strength: number;
  /** Only particles nearer than this are pushed (m). Default Infinity. */
  radius?: number;
  /**
   * Longest push (m), the cap near the centre where strength / d² would grow
   * without bound. Default ∛strength, the distance at which strength / d² equals
   * d: particles nearer than that are pushed that far and no farther.
   */
  maxPush?: number;
}

/**
 * A bomb (Jakobsen, section 7): pushes every movable particle within `radius` of
 * `center` away from it by strength / d², capped at `maxPush`. Only positions move,
 * not previous positions, so the Verlet integrator turns each push into a velocity
 * of push / `world.substep` and the bodies fly apart with their constraints
 * dragging each other along. A particle exactly at the centre is pushed in a
 * direction drawn from the world's seeded generator. Wakes every particle moved.
 * Returns how many particles moved.
 *
 * @example
 * ```ts
 * const moved = explode(world, [0, 0.2, 0], { strength: 0.01, radius: 3 });
 * ```
 */
export function explode(world: World, center: Vec3Like, options: ExplosionOptions): number {
  if (!center || typeof center !== 'object') throw new TypeError(`explode: center must be [x, y, z] or {x, y, z}, got ${String(center)}`);
  const cx = checkNumber(component(center, 0), 'explode: center x');
  const cy = checkNumber(component(center, 1), 'explode: center y');
  const cz = checkNumber(component(center, 2), 'explode: center z');
  if (!options || typeof options !== 'object') throw new TypeError(`explode: options must be an object, got ${String(options)}`);
  const strength = checkNumber(options.strength, 'explode: strength', 0);
  const radius = options.radius ?? EXPLOSION_DEFAULTS.radius;
  if (typeof radius !== 'number' || Number.isNaN(radius) || radius <= 0) throw new RangeError(`explode: radius must be > 0, got ${String(radius)}`);
  const maxPush = checkNumber(options.maxPush ?? Math.cbrt(strength), 'explode: maxPush', 0);
  const particles = world.particles;
  const pos = particles.position;
  const w = particles.inverseMass;
  const flags = particles.flags;
  const r2 = radius * radius;
  let moved = 0;
  for (let i = 0, p = 0; i < particles.end; i++, p += 3) {
    if ((flags[i]! & ParticleFlag.Alive) === 0 || w[i]! === 0) continue;
    let dx = pos[p]! - cx;
    let dy = pos[p + 1]! - cy;
    let dz = pos[p + 2]! - cz;
    let d2 = dx * dx + dy * dy + dz * dz;
    if (d2 >= r2) continue;
    if (d2 === 0) {
      // Uniform direction on the sphere: z uniform in [-1, 1], azimuth uniform.
      dz = 2 * world.random.next() - 1;
      const azimuth = 2 * Math.PI * world.random.next();
      const s = Math.sqrt(1 - dz * dz);
      dx = s * Math.cos(azimuth);
      dy = s * Math.sin(azimuth);
      d2 = 0;
    }
    const d = d2 === 0 ? 1 : Math.sqrt(d2);
    const push = d2 === 0 ? maxPush : Math.min(strength / d2, maxPush);
    if (push === 0) continue;
    const scale = push / d;
    pos[p] = pos[p]! + dx * scale;
    pos[p + 1] = pos[p + 1]! + dy * scale;
    pos[p + 2] = pos[p + 2]! + dz * scale;
    world.wake(i);
    moved++;
  }
  return moved;
}
