import { useImperativeHandle, type Ref } from 'react';
import type { StickOptions } from '../../core/world.js';
import { useStickAs, type StickHandle } from '../hooks/useStick.js';
import type { ParticleRef } from '../particleRef.js';

/** Props of {@link Stick}. */
export interface StickProps extends StickOptions {
  /** One end: a particle handle, id or name (`"hand"`, `"rope.end"`). */
  a: ParticleRef;
  /** The other end. */
  b: ParticleRef;
  /** Receives the stick's handle. */
  ref?: Ref<StickHandle>;
}

/**
 * A distance constraint between two particles. Draws nothing (`<Debug>` shows
 * it, coloured by strain). `length`, `stiffness` and `kind` change in place.
 *
 * @example
 * ```tsx
 * <Particle name="shoulder" position={[0, 1.5, 0]} mass={0} />
 * <Particle name="elbow" position={[0.3, 1.5, 0]} />
 * <Stick a="shoulder" b="elbow" stiffness={0.8} />
 * ```
 */
export function Stick({ a, b, ref, ...options }: StickProps) {
  const handle = useStickAs('<Stick>', a, b, options);
  useImperativeHandle(ref, () => handle, [handle]);
  return null;
}
