import { useFrame } from '@react-three/fiber';
import { useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import type { Group } from 'three';
import { readPosition } from '../../three/positions.js';
import { useSinew } from '../context.js';
import { useParticleAs, type ParticleHandle, type UseParticleOptions } from '../hooks/useParticle.js';
import { guarded } from '../guarded.js';

/** Props of {@link Particle}. */
export interface ParticleProps extends UseParticleOptions {
  /** Drawn at the particle's position every frame (e.g. a small sphere). */
  children?: ReactNode;
  /** Receives the particle's handle. */
  ref?: Ref<ParticleHandle>;
}

/**
 * One simulated point mass. Give it a `name` to connect it with `<Stick>` and
 * `<Pin>`; its children follow it (positions are read back in `useFrame`, no
 * re-render).
 *
 * @example
 * ```tsx
 * <World>
 *   <Particle name="anchor" position={[0, 2, 0]} mass={0} />
 *   <Particle name="bob" position={[1, 2, 0]} radius={0.05}>
 *     <mesh><sphereGeometry args={[0.05]} /><meshStandardMaterial /></mesh>
 *   </Particle>
 *   <Stick a="anchor" b="bob" />
 * </World>
 * ```
 */
export const Particle = guarded('<Particle>', function Particle({ children, ref, ...options }: ParticleProps) {
  const handle = useParticleAs('<Particle>', options);
  const { world, frame } = useSinew('<Particle>');
  useImperativeHandle(ref, () => handle, [handle]);
  const group = useRef<Group>(null);
  useFrame(() => {
    if (group.current && handle.id >= 0) readPosition(world, handle.id, frame, group.current.position);
  });
  return children === undefined ? null : <group ref={group}>{children}</group>;
});
