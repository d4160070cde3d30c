import type { Placement } from '../../core/placement.js';
import { useImperativeHandle, useMemo, useRef, type ReactNode, type Ref } from 'react';
import type { Group } from 'three';
import { COLLIDER_DEFAULTS } from '../../core/defaults.js';
import { checkNumber } from '../../core/math.js';
import { useColliderAs, type ColliderHandle } from '../hooks/useCollider.js';
import { useFollow } from '../hooks/useFollow.js';
import { useStableVec3 } from '../hooks/useStableVec3.js';
import { guarded } from '../guarded.js';

/** Props of {@link SphereCollider}. */
export interface SphereColliderProps extends Placement {
  /** Radius (m), >= 0. */
  radius: number;
  /** Keep particles inside the ball instead of outside. */
  inside?: boolean;
  /** Surface friction μ. Default 1. */
  friction?: number;
  /** Bounciness in [0, 1]: a contact bounces with the larger of this and the particle's restitution. Default 0. */
  restitution?: number;
  /**
   * Follow the Object3D this collider is placed in (anything that moves it: an
   * animation, a drag, a skinned bone, another engine): the shape's props are in
   * that object's frame, and every frame, just before the world steps, the
   * collider moves to its world pose as a kinematic collider: swept, and handing
   * its velocity to what it touches (see `KinematicCollider`). The parent's scale
   * is not followed: give the shape in world units. Default false: static.
   */
  follow?: boolean;
  /** Drawn at the centre, e.g. `<mesh><sphereGeometry args={[radius]} /></mesh>`. */
  children?: ReactNode;
  /** Receives the collider handle: the core collider id and the collider (null while it does not exist). */
  ref?: Ref<ColliderHandle>;
}

/**
 * A static ball obstacle (or container, with `inside`); with `follow`, one that
 * moves with the object it is placed in.
 *
 * @example
 * ```tsx
 * <SphereCollider position={[0, 0.5, 0]} radius={0.5}>
 *   <mesh><sphereGeometry args={[0.5, 32, 16]} /><meshStandardMaterial /></mesh>
 * </SphereCollider>
 * ```
 */
export const SphereCollider = guarded(
  '<SphereCollider>',
  function SphereCollider({
    position,
    radius,
    inside = false,
    friction = COLLIDER_DEFAULTS.friction,
    restitution = COLLIDER_DEFAULTS.restitution,
    follow = false,
    children,
    ref,
  }: SphereColliderProps) {
    const center = useStableVec3(position ?? ORIGIN, '<SphereCollider>: position')!;
    checkNumber(radius, '<SphereCollider>: radius', 0);
    checkNumber(friction, '<SphereCollider>: friction', 0);
    checkNumber(restitution, '<SphereCollider>: restitution', 0, 1);
    const shape = useMemo(() => ({ type: 'sphere', position: center, radius, inside, friction, restitution, kinematic: follow }) as const, [center, radius, inside, friction, restitution, follow]);
    const handle = useColliderAs('<SphereCollider>', shape);
    useImperativeHandle(ref, () => handle, [handle]);
    const anchor = useRef<Group>(null);
    useFollow('<SphereCollider>', handle, anchor, follow, shape);
    const drawn = children === undefined ? null : <group position={center}>{children}</group>;
    return follow ? <group ref={anchor}>{drawn}</group> : drawn;
  },
);

const ORIGIN = [0, 0, 0] as const;
