import { useLayoutEffect } from '../hooks/effects.js';
import type { Vec3Like } from '../../core/math.js';
import { useSinew } from '../context.js';
import { useStableVec3 } from '../hooks/useStableVec3.js';
import { guarded } from '../guarded.js';

/** Props of {@link Gravity}. */
export interface GravityProps {
  /** Acceleration of gravity in m/s² while this is mounted. */
  value: Vec3Like;
}

/**
 * Overrides the `<World>`'s gravity while mounted (the latest mounted
 * `<Gravity>` wins); unmounting restores it. Changes apply live.
 *
 * @example
 * ```tsx
 * {moonMode && <Gravity value={[0, -1.62, 0]} />}
 * ```
 */
export const Gravity = guarded('<Gravity>', function Gravity({ value }: GravityProps) {
  const { store } = useSinew('<Gravity>');
  const gravity = useStableVec3(value, '<Gravity>: value');
  if (!gravity) throw new TypeError('<Gravity>: value is required, got undefined');
  useLayoutEffect(() => store.getState().overrideGravity(gravity), [store, gravity]);
  return null;
});
