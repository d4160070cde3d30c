import { useImperativeHandle, useState, type Ref } from 'react';
import { useLayoutEffect } from '../hooks/effects.js';
import { useForce } from '../hooks/useForce.js';
import { Attractor as CoreAttractor } from '../../core/forces/attractor.js';
import { checkNumber, type Vec3Like } from '../../core/math.js';
import { useSinew } from '../context.js';
import { useStableVec3 } from '../hooks/useStableVec3.js';
import { guarded } from '../guarded.js';
import { makeOn } from '../../worker/builders.js';

/** Props of {@link Attractor}. */
export interface AttractorProps {
  /** The point particles are pulled towards. */
  position: Vec3Like;
  /** Acceleration (m/s²) at the point; negative repels. */
  strength: number;
  /** Reach (m): the pull fades linearly to zero there. Default Infinity. */
  radius?: number;
  /** Receives the core `Attractor`, to move it every frame without re-rendering. */
  ref?: Ref<CoreAttractor>;
}

/**
 * Pulls every movable particle towards a point (or pushes, with negative
 * strength) while mounted. Props change live.
 *
 * @example
 * ```tsx
 * <Attractor position={[0, 1.5, 0]} strength={12} radius={2} />
 * ```
 */
export const Attractor = guarded('<Attractor>', function Attractor({ position, strength, radius = Infinity, ref }: AttractorProps) {
  // First, so that outside a <World> the error names <Attractor>.
  const { world } = useSinew('<Attractor>');
  const point = useStableVec3(position, '<Attractor>: position');
  if (!point) throw new TypeError('<Attractor>: position is required, got undefined');
  checkNumber(strength, '<Attractor>: strength');
  if (!(radius > 0)) throw new RangeError(`<Attractor>: radius must be > 0, got ${String(radius)}`);
  const [force] = useState(() => makeOn(world, CoreAttractor, { position: point, strength, radius }));
  useImperativeHandle(ref, () => force, [force]);
  useLayoutEffect(() => {
    force.position = point;
    force.strength = strength;
    force.radius = radius;
  }, [force, point, strength, radius]);
  useForce(force);
  return null;
});
