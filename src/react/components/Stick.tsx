import { useImperativeHandle, type Ref } from 'react';
import type { StickOptions } from '../../core/world.js';
import { useStickAs, type StickHandle } from '../hooks/useStick.js';
import type { TypedParticleRef } from '../particleRef.js';
import { guarded } from '../guarded.js';

/** Props of {@link Stick}. */
export interface StickProps<A extends string = string, B extends string = string> extends StickOptions {
  /** One end: a particle handle, id or name (`"hand"`, `"rope.end"`); a literal name's part is checked at compile time. */
  a: TypedParticleRef<A>;
  /** The other end. */
  b: TypedParticleRef<B>;
  /** Receives the stick's handle. */
  ref?: Ref<StickHandle>;
}

/**
 * A distance constraint between two particles. Draws nothing (`<Debug>` shows
 * it, coloured by strain). `length`, `compliance`, `damping`, `kind` and the
 * per-pass `stiffness` change in place.
 *
 * @example
 * ```tsx
 * <Particle name="shoulder" position={[0, 1.5, 0]} mass={0} />
 * <Particle name="elbow" position={[0.3, 1.5, 0]} />
 * <Stick a="shoulder" b="elbow" compliance={1e-4} damping={0.5} />
 * ```
 */
export const Stick = guarded('<Stick>', function Stick<A extends string, B extends string>({ a, b, ref, ...options }: StickProps<A, B>) {
  const handle = useStickAs('<Stick>', a, b, options);
  useImperativeHandle(ref, () => handle, [handle]);
  return null;
});
