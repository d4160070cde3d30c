import type { Placement } from '../../core/placement.js';
import { useImperativeHandle, useMemo, useRef, type ReactNode, type Ref } from 'react';
import type { Group } from 'three';
import { BoxCollider as CoreBoxCollider } from '../../core/colliders/box.js';
import { KinematicCollider } from '../../core/colliders/kinematic.js';
import { ObbCollider } from '../../core/colliders/obb.js';
import { COLLIDER_DEFAULTS } from '../../core/defaults.js';
import { checkNumber, type Vec3Like } from '../../core/math.js';
import { toRotation, type RotationLike } from '../../core/quaternion.js';
import { buildCollider } from '../hooks/buildCollider.js';
import { useColliderAs, type ColliderHandle } from '../hooks/useCollider.js';
import { useFollow } from '../hooks/useFollow.js';
import { useStableVec3 } from '../hooks/useStableVec3.js';
import { guarded } from '../guarded.js';

/** Props of {@link BoxCollider}. */
export interface BoxColliderProps extends Placement {
  /** Edge lengths (m); a number makes a cube. Default 1. */
  size?: Vec3Like | number;
  /** Orientation about the centre: Euler angles `[x, y, z]` in radians (three.js's 'XYZ' order), a quaternion `[x, y, z, w]`, or a three.js `Euler` or `Quaternion`. */
  rotation?: RotationLike;
  /** Keep particles inside the box (a container; the paper's cube world). Only for an unrotated box. */
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
  /** Drawn at the box's centre and orientation, e.g. `<mesh><boxGeometry args={size} /></mesh>`. */
  children?: ReactNode;
  /** Receives the collider handle: the core collider id and the collider (null while it does not exist). */
  ref?: Ref<ColliderHandle>;
}

/**
 * A static box obstacle: axis-aligned when unrotated (and then optionally a
 * container with `inside`), an oriented box otherwise. Changing a prop replaces
 * the collider; nothing else is reset. With `follow`, it moves with the object
 * it is placed in (a platform, a paddle).
 *
 * @example
 * ```tsx
 * <BoxCollider position={[0, 0.5, 0]} size={[2, 0.1, 1]} rotation={[0, 0, 0.3]}>
 *   <mesh><boxGeometry args={[2, 0.1, 1]} /><meshStandardMaterial /></mesh>
 * </BoxCollider>
 * ```
 */
export const BoxCollider = guarded(
  '<BoxCollider>',
  function BoxCollider({
    position,
    size = 1,
    rotation,
    inside = false,
    friction = COLLIDER_DEFAULTS.friction,
    restitution = COLLIDER_DEFAULTS.restitution,
    follow = false,
    children,
    ref,
  }: BoxColliderProps) {
    const center = useStableVec3(position ?? ORIGIN, '<BoxCollider>: position')!;
    const edges = useStableVec3(typeof size === 'number' ? [size, size, size] : size, '<BoxCollider>: size')!;
    if (edges.some((e) => e < 0)) throw new RangeError(`<BoxCollider>: size must be >= 0, got [${edges.join(', ')}]`);
    checkNumber(friction, '<BoxCollider>: friction', 0);
    checkNumber(restitution, '<BoxCollider>: restitution', 0, 1);
    const turn = rotation === undefined ? undefined : toRotation(rotation, '<BoxCollider>: rotation');
    const turnKey = turn?.join(',');
    if (turn && inside) throw new RangeError('<BoxCollider>: inside works only for an unrotated box; remove rotation or inside');

    const [collider, spec] = useMemo(() => {
      const q = turnKey?.split(',').map(Number) as [number, number, number, number] | undefined;
      const half: [number, number, number] = [edges[0] / 2, edges[1] / 2, edges[2] / 2];
      const min: [number, number, number] = [center[0] - half[0], center[1] - half[1], center[2] - half[2]];
      const max: [number, number, number] = [center[0] + half[0], center[1] + half[1], center[2] + half[2]];
      const obb = q ? ({ type: 'obb', position: center, halfExtents: half, rotation: q, friction, restitution } as const) : undefined;
      const aabb = { type: 'box', min, max, inside, friction, restitution } as const;
      const box = () => (obb ? new ObbCollider(obb) : new CoreBoxCollider(aabb));
      const built = buildCollider('<BoxCollider>', () => (follow ? new KinematicCollider(box()) : box()));
      return [built, { ...(obb ?? aabb), kinematic: follow }] as const;
    }, [center, edges, turnKey, inside, friction, restitution, follow]);
    const handle = useColliderAs('<BoxCollider>', collider, spec);
    useImperativeHandle(ref, () => handle, [handle]);
    const anchor = useRef<Group>(null);
    useFollow('<BoxCollider>', handle, anchor, follow, collider);
    const drawn =
      children === undefined ? null : (
        <group position={center} quaternion={turn ?? IDENTITY}>
          {children}
        </group>
      );
    return follow ? <group ref={anchor}>{drawn}</group> : drawn;
  },
);

const ORIGIN = [0, 0, 0] as const;
const IDENTITY = [0, 0, 0, 1] as [number, number, number, number];
