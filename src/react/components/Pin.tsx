import { useImperativeHandle, type Ref } from 'react';
import type { Vec3Like } from '../../core/math.js';
import { usePinAs, type PinHandle } from '../hooks/usePin.js';
import type { TypedParticleRef } from '../particleRef.js';
import { guarded } from '../guarded.js';

/** Props of {@link Pin}. */
export interface PinProps<N extends string = string> {
  /** The particle to hold: a handle, id or name; a literal name's part is checked at compile time. */
  particle: TypedParticleRef<N>;
  /** Where to hold it; default where it is at mount. Changes move the pin in place. */
  target?: Vec3Like;
  /** Receives the pin's handle. */
  ref?: Ref<PinHandle>;
}

/**
 * Holds a particle at a point (the paper's inverse kinematics by pinning).
 * Unmounting releases it.
 *
 * @example
 * ```tsx
 * <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={12} />
 * <Pin particle="rope.start" />
 * <Pin particle="rope.end" target={[1.5, 1, 0]} />
 * ```
 */
export const Pin = guarded('<Pin>', function Pin<N extends string>({ particle, target, ref }: PinProps<N>) {
  const handle = usePinAs('<Pin>', particle, target);
  useImperativeHandle(ref, () => handle, [handle]);
  return null;
});
