import { BoxCollider } from './box.js';
import { CapsuleCollider } from './capsule.js';
import type { Collider } from './collider.js';
import { ObbCollider } from './obb.js';
import { PlaneCollider } from './plane.js';
import { SphereCollider } from './sphere.js';
import { TriangleMeshCollider } from './triangleMesh.js';

/**
 * @internal Radius (m) of a ball about the origin of `shape`'s own frame that
 * holds the shape (Infinity for a plane): how far a kinematic collider reaches
 * from its frame's origin, for its sweep's box. Throws for a shape of your own,
 * whose extent it cannot know.
 */
export function boundRadius(shape: Collider): number {
  if (shape instanceof PlaneCollider) return Infinity;
  if (shape instanceof SphereCollider) return Math.hypot(shape.center[0], shape.center[1], shape.center[2]) + shape.radius;
  if (shape instanceof ObbCollider) return Math.hypot(shape.center[0], shape.center[1], shape.center[2]) + Math.hypot(shape.halfExtents[0], shape.halfExtents[1], shape.halfExtents[2]);
  if (shape instanceof CapsuleCollider) return Math.max(Math.hypot(shape.a[0], shape.a[1], shape.a[2]), Math.hypot(shape.b[0], shape.b[1], shape.b[2])) + shape.radius;
  if (shape instanceof BoxCollider) {
    let s = 0;
    for (let k = 0; k < 3; k++) {
      const m = Math.max(Math.abs(shape.min[k]!), Math.abs(shape.max[k]!));
      s += m * m;
    }
    return Math.sqrt(s);
  }
  if (shape instanceof TriangleMeshCollider) {
    let most = 0;
    const v = shape.vertices;
    for (let i = 0; i < v.length; i += 3) most = Math.max(most, Math.hypot(v[i]!, v[i + 1]!, v[i + 2]!));
    return most;
  }
  throw new TypeError(`addCollider: kinematic works with the built-in shapes ('plane', 'sphere', 'box', 'capsule', 'obb', 'mesh'), got a collider of type ${JSON.stringify(shape.type)}`);
}
