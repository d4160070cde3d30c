import { BoxCollider, type BoxShape } from './colliders/box.js';
import { CapsuleCollider, type CapsuleShape } from './colliders/capsule.js';
import type { Collider } from './colliders/collider.js';
import type { CoupledBody } from './colliders/coupledBody.js';
import { isCoupledBody } from './colliders/coupledBodies.js';
import { KinematicCollider } from './colliders/kinematic.js';
import { ObbCollider, type ObbShape } from './colliders/obb.js';
import { PlaneCollider, type PlaneShape } from './colliders/plane.js';
import { SphereCollider, type SphereShape } from './colliders/sphere.js';
import { TriangleMeshCollider, type MeshShape } from './colliders/triangleMesh.js';
import { checkNumber } from './math.js';

/**
 * Any built-in shape with `kinematic: true` is a {@link KinematicCollider}: the
 * shape as given, in a frame that `world.setColliderPose` moves (the identity at first).
 */
export interface KinematicOption {
  /** Make the collider movable with `world.setColliderPose` (see `KinematicCollider`). Default false: static. */
  kinematic?: boolean;
  /**
   * With `kinematic: true`: the body the collider rides on and yields with
   * (two-way, see {@link CoupledBody}); its contacts share each correction with
   * the body by their inverse masses. Default none: the collider moves as told.
   */
  body?: CoupledBody;
}

/** What {@link World.addCollider} takes. */
export type ColliderShape = ((PlaneShape | SphereShape | BoxShape | CapsuleShape | ObbShape | MeshShape) & KinematicOption) | Collider;

/** The collider a shape describes (a collider object of your own is taken as it is, its restitution checked). */
export function makeCollider(shape: ColliderShape): Collider {
  if (!shape || typeof shape !== 'object') throw new TypeError(`addCollider: shape must be an object, got ${String(shape)}`);
  if ('project' in shape && typeof shape.project === 'function') {
    if (shape.restitution !== undefined) checkNumber(shape.restitution, 'addCollider: restitution', 0, 1);
    return shape;
  }
  if ('kinematic' in shape && shape.kinematic !== undefined && shape.kinematic !== false) {
    if (shape.kinematic !== true) throw new TypeError(`addCollider: kinematic must be true or false, got ${String(shape.kinematic)}`);
    const { body, ...rest } = shape as KinematicOption & { type: string };
    const collider = new KinematicCollider(makeCollider({ ...rest, kinematic: false } as ColliderShape));
    if (body !== undefined) {
      if (!isCoupledBody(body)) throw new TypeError(`addCollider: body must be a CoupledBody, got ${String(body)}`);
      collider.body = body;
    }
    return collider;
  }
  if ('body' in shape && shape.body !== undefined) {
    throw new TypeError('addCollider: body (a CoupledBody) needs kinematic: true: a static collider cannot yield');
  }
  switch (shape.type) {
    case 'plane':
      return new PlaneCollider(shape as PlaneShape);
    case 'sphere':
      return new SphereCollider(shape as SphereShape);
    case 'box':
      return new BoxCollider(shape as BoxShape);
    case 'capsule':
      return new CapsuleCollider(shape as CapsuleShape);
    case 'obb':
      return new ObbCollider(shape as ObbShape);
    case 'mesh':
      return new TriangleMeshCollider(shape as MeshShape);
    default:
      throw new RangeError(`addCollider: unknown shape type ${JSON.stringify((shape as { type?: unknown }).type)} (expected 'plane', 'sphere', 'box', 'capsule', 'obb' or 'mesh')`);
  }
}
