import {
  BoxGeometry,
  BufferAttribute,
  BufferGeometry,
  CylinderGeometry,
  EdgesGeometry,
  Group,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  PlaneGeometry,
  SphereGeometry,
  Vector3,
  WireframeGeometry,
  type Object3D,
} from 'three';
import { BoxCollider } from '../core/colliders/box.js';
import { CapsuleCollider } from '../core/colliders/capsule.js';
import type { Collider } from '../core/colliders/collider.js';
import { ObbCollider } from '../core/colliders/obb.js';
import { PlaneCollider } from '../core/colliders/plane.js';
import { SphereCollider } from '../core/colliders/sphere.js';
import { TriangleMeshCollider } from '../core/colliders/triangleMesh.js';
import type { World } from '../core/world.js';

const UP = new Vector3(0, 1, 0);
const FRONT = new Vector3(0, 0, 1);

/**
 * Wireframes of a world's colliders: planes as a grid, spheres, boxes,
 * oriented boxes, capsules and triangle meshes. {@link ColliderWireframes.update}
 * rebuilds the set only when colliders are added or removed, and otherwise
 * re-places each wireframe from its collider's fields in place, so colliders
 * moved by mutation (a capsule's `set`, a sphere's `center`) are shown where
 * they are. A capsule's radius and a mesh's triangles are read when built.
 *
 * @example
 * ```ts
 * const wires = new ColliderWireframes();
 * scene.add(wires.object);
 * wires.update(world); // every frame
 * ```
 */
export class ColliderWireframes {
  /** The group holding one wireframe per collider; add it to the scene. */
  readonly object = new Group();
  private readonly material: LineBasicMaterial;
  private readonly known: Collider[] = [];
  private readonly sphere = new WireframeGeometry(new SphereGeometry(1, 16, 10));
  private readonly box = new EdgesGeometry(new BoxGeometry(1, 1, 1));
  private readonly grid = new WireframeGeometry(new PlaneGeometry(10, 10, 10, 10));
  private readonly tube = new WireframeGeometry(new CylinderGeometry(1, 1, 1, 12, 1, true));
  private readonly owned: BufferGeometry[] = [];
  private readonly v = new Vector3();
  private readonly m = new Matrix4();

  constructor(color = '#40c0ff') {
    this.material = new LineBasicMaterial({ color, transparent: true, opacity: 0.6 });
  }

  /** Follows `world.colliders`: rebuilds on a change of the list, re-places every wireframe always. */
  update(world: World): void {
    const list = world.colliders;
    let same = list.length === this.known.length;
    for (let i = 0; same && i < list.length; i++) same = list[i] === this.known[i];
    if (!same) this.rebuild(list);
    for (let i = 0; i < list.length; i++) this.place(list[i]!, this.object.children[i]!);
  }

  /** Frees the geometries and the material. */
  dispose(): void {
    for (const g of [this.sphere, this.box, this.grid, this.tube, ...this.owned]) g.dispose();
    this.material.dispose();
  }

  private rebuild(list: readonly Collider[]): void {
    this.object.clear();
    for (const g of this.owned) g.dispose();
    this.owned.length = 0;
    this.known.length = 0;
    for (const collider of list) {
      this.known.push(collider);
      this.object.add(this.build(collider));
    }
  }

  private build(collider: Collider): Object3D {
    const lines = (geometry: BufferGeometry) => new LineSegments(geometry, this.material);
    if (collider instanceof SphereCollider) return lines(this.sphere);
    if (collider instanceof BoxCollider || collider instanceof ObbCollider) return lines(this.box);
    if (collider instanceof PlaneCollider) return lines(this.grid);
    if (collider instanceof CapsuleCollider) {
      const group = new Group();
      group.add(lines(this.tube), lines(this.sphere), lines(this.sphere));
      return group;
    }
    if (collider instanceof TriangleMeshCollider) {
      const geometry = new BufferGeometry();
      geometry.setAttribute('position', new BufferAttribute(Float32Array.from(collider.vertices), 3));
      geometry.setIndex(new BufferAttribute(Uint32Array.from(collider.indices), 1));
      const wire = new WireframeGeometry(geometry);
      geometry.dispose();
      this.owned.push(wire);
      return lines(wire);
    }
    // A user-defined collider: nothing to draw, but keep the children aligned with the list.
    return new Group();
  }

  private place(collider: Collider, object: Object3D): void {
    if (collider instanceof SphereCollider) {
      object.position.fromArray(collider.center);
      object.scale.setScalar(collider.radius);
    } else if (collider instanceof BoxCollider) {
      object.position.set((collider.min[0] + collider.max[0]) / 2, (collider.min[1] + collider.max[1]) / 2, (collider.min[2] + collider.max[2]) / 2);
      object.scale.set(collider.max[0] - collider.min[0], collider.max[1] - collider.min[1], collider.max[2] - collider.min[2]);
    } else if (collider instanceof ObbCollider) {
      const a = collider.axes;
      this.m.set(a[0]!, a[3]!, a[6]!, 0, a[1]!, a[4]!, a[7]!, 0, a[2]!, a[5]!, a[8]!, 0, 0, 0, 0, 1);
      object.quaternion.setFromRotationMatrix(this.m);
      object.position.fromArray(collider.center);
      object.scale.set(collider.halfExtents[0] * 2, collider.halfExtents[1] * 2, collider.halfExtents[2] * 2);
    } else if (collider instanceof PlaneCollider) {
      this.v.fromArray(collider.normal);
      object.quaternion.setFromUnitVectors(FRONT, this.v);
      object.position.copy(this.v).multiplyScalar(collider.offset);
    } else if (collider instanceof CapsuleCollider) {
      const [tube, start, end] = object.children as [Object3D, Object3D, Object3D];
      const r = collider.radius;
      this.v.set(collider.b[0] - collider.a[0], collider.b[1] - collider.a[1], collider.b[2] - collider.a[2]);
      const length = this.v.length();
      if (length > 0) tube.quaternion.setFromUnitVectors(UP, this.v.divideScalar(length));
      tube.position.set((collider.a[0] + collider.b[0]) / 2, (collider.a[1] + collider.b[1]) / 2, (collider.a[2] + collider.b[2]) / 2);
      tube.scale.set(r, length, r);
      start.position.fromArray(collider.a);
      end.position.fromArray(collider.b);
      start.scale.setScalar(r);
      end.scale.setScalar(r);
    }
  }
}
