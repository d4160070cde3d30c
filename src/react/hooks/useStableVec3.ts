import { useMemo } from 'react';
import { toVec3, type Vec3, type Vec3Like } from '../../core/math.js';

/**
 * Validates a vector prop and returns a tuple that keeps its identity while the
 * values stay the same, so `position={[0, 1, 0]}` written inline does not look
 * like a change on every render. `what` names the prop in the error
 * (`<Particle>: position must be finite numbers, got [NaN, 0, 0]`).
 *
 * @example
 * ```ts
 * const position = useStableVec3(props.position, '<Particle>: position');
 * useEffect(() => teleport(position), [position]); // runs only when a value changes
 * ```
 */
export function useStableVec3(v: Vec3Like | undefined, what: string): Vec3 | undefined {
  const checked = v === undefined ? undefined : toVec3(v, what);
  const x = checked?.[0];
  const y = checked?.[1];
  const z = checked?.[2];
  return useMemo<Vec3 | undefined>(() => (x === undefined || y === undefined || z === undefined ? undefined : [x, y, z]), [x, y, z]);
}
