import { useImperativeHandle, useMemo, useRef, type ReactNode, type Ref } from 'react';
import { Quaternion, Vector3, type Group } from 'three';
import { CapsuleCollider as CoreCapsuleCollider } from '../../core/colliders/capsule.js';
import { KinematicCollider } from '../../core/colliders/kinematic.js';
import { COLLIDER_DEFAULTS } from '../../core/defaults.js';
import { checkNumber, type Vec3Like } from '../../core/math.js';
import { buildCollider } from '../hooks/buildCollider.js';
import { useColliderAs, type ColliderHandle } from '../hooks/useCollider.js';
import { useFollow } from '../hooks/useFollow.js';
import { useStableVec3 } from '../hooks/useStableVec3.js';
import { guarded } from '../guarded.js';

/** Props of {@link CapsuleCollider}. */
export interface CapsuleColliderProps {
  /** One end of the axis. */
  a: Vec3Like;
  /** The other end. */
  b: Vec3Like;
  /** Radius around the axis (m), >= 0. */
  radius: number;
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
  /**
   * Drawn at the axis's midpoint with local +y along a → b, so
   * `<mesh><capsuleGeometry args={[radius, length]} /></mesh>` lines up.
   */
  children?: ReactNode;
  /** Receives the collider handle: the core collider id and the collider (null while it does not exist). */
  ref?: Ref<ColliderHandle>;
}

/**
 * A static capsule (the paper's capped cylinder): a bar, a railing, a limb of
 * a statue; with `follow`, one that moves with the object it is placed in (a
 * bat in a hand, a bone of a skinned character).
 *
 * @example
 * ```tsx
 * <CapsuleCollider a={[-1, 1, 0]} b={[1, 1, 0]} radius={0.1}>
 *   <mesh><capsuleGeometry args={[0.1, 2]} /><meshStandardMaterial /></mesh>
 * </CapsuleCollider>
 * ```
 */
export const CapsuleCollider = guarded('<CapsuleCollider>', function CapsuleCollider({ a, b, radius, friction, restitution, follow = false, children, ref }: CapsuleColliderProps) {
  friction ??= COLLIDER_DEFAULTS.friction;
  restitution ??= COLLIDER_DEFAULTS.restitution;
  const from = useStableVec3(a, '<CapsuleCollider>: a');
  const to = useStableVec3(b, '<CapsuleCollider>: b');
  if (!from) throw new TypeError('<CapsuleCollider>: a is required, got undefined');
  if (!to) throw new TypeError('<CapsuleCollider>: b is required, got undefined');
  checkNumber(radius, '<CapsuleCollider>: radius', 0);
  checkNumber(friction, '<CapsuleCollider>: friction', 0);
  checkNumber(restitution, '<CapsuleCollider>: restitution', 0, 1);
  const [collider, spec] = useMemo(() => {
    const shape = { type: 'capsule', a: from, b: to, radius, friction, restitution } as const;
    const built = buildCollider('<CapsuleCollider>', () => {
      const capsule = new CoreCapsuleCollider(shape);
      return follow ? new KinematicCollider(capsule) : capsule;
    });
    return [built, { ...shape, kinematic: follow }] as const;
  }, [from, to, radius, friction, restitution, follow]);
  const handle = useColliderAs('<CapsuleCollider>', collider, spec);
  useImperativeHandle(ref, () => handle, [handle]);
  const anchor = useRef<Group>(null);
  useFollow('<CapsuleCollider>', handle, anchor, follow, collider);
  const placement = useMemo(() => {
    const axis = new Vector3(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
    const length = axis.length();
    const quaternion = length > 0 ? new Quaternion().setFromUnitVectors(new Vector3(0, 1, 0), axis.divideScalar(length)) : new Quaternion();
    const middle: [number, number, number] = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2, (from[2] + to[2]) / 2];
    return { middle, quaternion };
  }, [from, to]);
  const drawn =
    children === undefined ? null : (
      <group position={placement.middle} quaternion={placement.quaternion}>
        {children}
      </group>
    );
  return follow ? <group ref={anchor}>{drawn}</group> : drawn;
});
