import { useImperativeHandle, useMemo, type ReactNode, type Ref } from 'react';
import { checkNumber, type Vec3Like } from '../../core/math.js';
import { useColliderAs, type ColliderHandle } from '../hooks/useCollider.js';
import { useStableVec3 } from '../hooks/useStableVec3.js';
import { guarded } from '../guarded.js';

/** Props of {@link SphereCollider}. */
export interface SphereColliderProps {
  /** Where the ball is: its centre. Default the origin. */
  position?: Vec3Like;
  /** Radius (m), >= 0. */
  radius: number;
  /** Keep particles inside the ball instead of outside. */
  inside?: boolean;
  /** Surface friction μ. Default 1. */
  friction?: number;
  /** Bounciness in [0, 1]: a contact bounces with the larger of this and the particle's restitution. Default 0. */
  restitution?: number;
  /** Drawn at the centre, e.g. `<mesh><sphereGeometry args={[radius]} /></mesh>`. */
  children?: ReactNode;
  /** Receives the collider handle: the core collider id and the collider (null while it does not exist). */
  ref?: Ref<ColliderHandle>;
}

/**
 * A static ball obstacle (or container, with `inside`).
 *
 * @example
 * ```tsx
 * <SphereCollider position={[0, 0.5, 0]} radius={0.5}>
 *   <mesh><sphereGeometry args={[0.5, 32, 16]} /><meshStandardMaterial /></mesh>
 * </SphereCollider>
 * ```
 */
export const SphereCollider = guarded('<SphereCollider>', function SphereCollider({ position, radius, inside = false, friction = 1, restitution = 0, children, ref }: SphereColliderProps) {
  const center = useStableVec3(position ?? ORIGIN, '<SphereCollider>: position')!;
  checkNumber(radius, '<SphereCollider>: radius', 0);
  checkNumber(friction, '<SphereCollider>: friction', 0);
  checkNumber(restitution, '<SphereCollider>: restitution', 0, 1);
  const shape = useMemo(() => ({ type: 'sphere', center, radius, inside, friction, restitution }) as const, [center, radius, inside, friction, restitution]);
  const handle = useColliderAs('<SphereCollider>', shape);
  useImperativeHandle(ref, () => handle, [handle]);
  return children === undefined ? null : <group position={center}>{children}</group>;
});

const ORIGIN = [0, 0, 0] as const;
