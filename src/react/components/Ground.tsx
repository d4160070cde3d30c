import { useImperativeHandle, useMemo, type ReactNode, type Ref } from 'react';
import { checkNumber } from '../../core/math.js';
import { useColliderAs, type ColliderHandle } from '../hooks/useCollider.js';

/** Props of {@link Ground}. */
export interface GroundProps {
  /** Height of the floor (m). Default 0. */
  height?: number;
  /** Surface friction μ (a contact's μ is particle friction × this). Default 1. */
  friction?: number;
  /** Bounciness in [0, 1]: a contact bounces with the larger of this and the particle's restitution. Default 0. */
  restitution?: number;
  /** Drawn at the floor's height, e.g. a plane mesh rotated flat. */
  children?: ReactNode;
  /** Receives the collider handle: the core collider id and the collider (null while it does not exist). */
  ref?: Ref<ColliderHandle>;
}

/**
 * An infinite horizontal floor: everything below `height` is solid.
 *
 * @example
 * ```tsx
 * <Ground friction={0.8}>
 *   <mesh rotation-x={-Math.PI / 2}><planeGeometry args={[10, 10]} /><meshStandardMaterial /></mesh>
 * </Ground>
 * ```
 */
export function Ground({ height = 0, friction = 1, restitution = 0, children, ref }: GroundProps) {
  checkNumber(height, '<Ground>: height');
  checkNumber(friction, '<Ground>: friction', 0);
  checkNumber(restitution, '<Ground>: restitution', 0, 1);
  const shape = useMemo(() => ({ type: 'plane', normal: [0, 1, 0], offset: height, friction, restitution }) as const, [height, friction, restitution]);
  const handle = useColliderAs('<Ground>', shape);
  useImperativeHandle(ref, () => handle, [handle]);
  return children === undefined ? null : <group position={[0, height, 0]}>{children}</group>;
}
