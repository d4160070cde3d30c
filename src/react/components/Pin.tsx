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
  /** Compliance in m/N: a zero-length spring of k = 1/compliance to the target instead of a rigid hold (see `world.addPin`). Default 0 (rigid); changes in place. */
  compliance?: number;
  /** Constraint damping in N·s/m beside the spring (acts with a compliance > 0). Default 0; changes in place. */
  damping?: number;
  /** Receives the pin's handle. */
  ref?: Ref<PinHandle>;
}

/**
 * Holds a particle at a point (the paper's inverse kinematics by pinning), or
 * with a `compliance`, hangs it on a spring from that point. Unmounting releases it.
 *
 * @example
 * ```tsx
 * <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={12} />
 * <Pin particle="rope.start" />
 * <Pin particle="rope.end" target={[1.5, 1, 0]} compliance={0.002} damping={1} />
 * ```
 */
export const Pin = guarded('<Pin>', function Pin<N extends string>({ particle, target, compliance, damping, ref }: PinProps<N>) {
  const handle = usePinAs('<Pin>', particle, target, { compliance, damping });
  useImperativeHandle(ref, () => handle, [handle]);
  return null;
});
