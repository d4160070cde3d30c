import { useEffect } from '../hooks/effects.js';
import { enableParticleCollisions } from '../../core/collision/particleCollisions.js';
import { checkNumber } from '../../core/math.js';
import { useSinew } from '../context.js';
import { guarded } from '../guarded.js';
import { buildOn } from '../../worker/builders.js';

/** Props of {@link ParticleCollisions}. */
export interface ParticleCollisionsProps {
  /** Spatial hash cell size in m; default from the particles' radii. */
  cellSize?: number;
}

/**
 * Makes bodies collide with each other while mounted: particles with a radius in
 * different bodies keep the sum of their radii apart (mass-weighted, momentum
 * kept, with friction), so boxes stack and ragdolls pile up instead of passing
 * through one another. A spatial hash finds the pairs.
 *
 * @example
 * ```tsx
 * <World>
 *   <ParticleCollisions />
 *   <RigidBody shape="box" radius={0.05} position={[0, 2, 0]} />
 *   <RigidBody shape="box" radius={0.05} position={[0, 3, 0]} />
 * </World>
 * ```
 */
export const ParticleCollisions = guarded('<ParticleCollisions>', function ParticleCollisions({ cellSize }: ParticleCollisionsProps) {
  const { world } = useSinew('<ParticleCollisions>');
  if (cellSize !== undefined) checkNumber(cellSize, '<ParticleCollisions>: cellSize', Number.MIN_VALUE);
  useEffect(() => {
    const collisions = buildOn(world, enableParticleCollisions, world, cellSize === undefined ? {} : { cellSize });
    return () => collisions.remove();
  }, [world, cellSize]);
  return null;
});
