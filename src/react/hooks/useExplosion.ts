import { useCallback } from 'react';
import type { Vec3Like } from '../../core/math.js';
import { explode, type ExplosionOptions } from '../../core/motion/explosion.js';
import { useSinew } from '../context.js';
import { buildOn } from '../../worker/builders.js';

/**
 * A stable function that sets off a bomb in the nearest `<World>` (paper
 * section 7): every movable particle within `radius` of `center` is pushed
 * away by strength / d². Returns how many particles moved.
 *
 * @example
 * ```tsx
 * function Bomb() {
 *   const explode = useExplosion();
 *   return <mesh onClick={(e) => explode(e.point, { strength: 0.02, radius: 2 })}><sphereGeometry args={[0.1]} /></mesh>;
 * }
 * ```
 */
export function useExplosion(): (center: Vec3Like, options: ExplosionOptions) => number {
  const { world } = useSinew('useExplosion()');
  return useCallback((center: Vec3Like, options: ExplosionOptions) => buildOn(world, explode, world, center, options), [world]);
}
