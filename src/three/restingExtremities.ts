import { Matrix4, Quaternion, Vector3, type Bone, type Object3D, type SkinnedMesh } from 'three';
import type { Collider } from '../core/colliders/collider.js';
import { Cast, castLineAll, makeLineCast } from '../core/collision/lineCast.js';

/** A hand or foot and the points that stand for its skin, xyz in the bone's own space. */
export interface Extremity {
  /** The hand or foot bone; the ragdoll has no particle to turn it by. */
  bone: Object3D;
  /** Points of its skin (and of the skin of the bones below it) in the bone's space, xyz each. */
  points: Float64Array;
}

/** How many directions {@link extremityPoints} takes the skin's farthest vertex along. */
const DIRECTION_COUNT = 96;

/**
 * Directions spread evenly over the sphere (a Fibonacci lattice), about 21° apart, any
 * direction within about 12° of one of them: the farthest vertex along that one lies
 * within about r·(1 − cos 12°), under 0.1 cm for a 3.5 cm round fingertip, of the
 * skin's lowest against a plane; 26 (the cube's faces, edges and corners, up to 35°
 * apart) left the tip of a hand 0.8 cm under the floor.
 */
function directions(): readonly (readonly [number, number, number])[] {
  // Made on first use: a module that computes on load would have to be listed in package.json's "sideEffects".
  directionCache ??= Array.from({ length: DIRECTION_COUNT }, (_, k) => {
    const y = 1 - (2 * k + 1) / DIRECTION_COUNT;
    const r = Math.sqrt(1 - y * y);
    const angle = k * Math.PI * (3 - Math.sqrt(5));
    return [r * Math.cos(angle), y, r * Math.sin(angle)] as const;
  });
  return directionCache;
}
let directionCache: readonly (readonly [number, number, number])[] | undefined;

/**
 * The points that stand for a hand's or foot's skin, in `bone`'s space, from the
 * skin in its current pose: of the vertices whose heaviest bone is `bone` or a
 * bone below it (fingers, toes), the farthest along each of 96 directions spread
 * over the sphere, and the joints of the bones below it. A plane touches the skin
 * first at one of these along its normal, or for a normal between them within a
 * millimetre of one (see `directions`). Without a mesh, only the joints below it
 * (the fingers' and toes' ends).
 *
 * @internal
 */
export function extremityPoints(bone: Bone, mesh: SkinnedMesh | undefined): Float64Array {
  bone.updateWorldMatrix(true, true);
  const inverse = new Matrix4().copy(bone.matrixWorld).invert();
  const below = new Set<Object3D>();
  bone.traverse((o) => below.add(o));
  const points: Vector3[] = [];
  for (const o of below) if (o !== bone && (o as Bone).isBone) points.push(new Vector3().setFromMatrixPosition(o.matrixWorld).applyMatrix4(inverse));
  if (mesh) {
    const index = mesh.geometry.getAttribute('skinIndex');
    const weight = mesh.geometry.getAttribute('skinWeight');
    const count = mesh.geometry.getAttribute('position').count;
    const mine = new Set<number>();
    mesh.skeleton.bones.forEach((b, i) => {
      if (below.has(b)) mine.add(i);
    });
    mesh.updateWorldMatrix(true, false);
    // getVertexPosition ends in bindMatrixInverse, which three.js refreshes (attached mode) only in updateMatrixWorld.
    const toWorld = mesh.bindMode === 'attached' ? new Matrix4().copy(mesh.bindMatrixInverse).invert() : mesh.matrixWorld;
    const skin: Vector3[] = [];
    for (let i = 0; i < count; i++) {
      let heaviest = 0;
      for (let k = 1; k < 4; k++) if (weight.getComponent(i, k) > weight.getComponent(i, heaviest)) heaviest = k;
      if (!mine.has(index.getComponent(i, heaviest))) continue;
      skin.push(mesh.getVertexPosition(i, new Vector3()).applyMatrix4(toWorld).applyMatrix4(inverse));
    }
    const chosen = new Set<Vector3>();
    for (const [x, y, z] of directions()) {
      let best: Vector3 | undefined;
      let far = -Infinity;
      for (const v of skin) {
        const along = v.x * x + v.y * y + v.z * z;
        if (along > far) [far, best] = [along, v];
      }
      if (best) chosen.add(best);
    }
    points.push(...chosen);
  }
  return Float64Array.from(points.flatMap((p) => [p.x, p.y, p.z]));
}

/** How many turns about the wrist or ankle `ExtremityRest` makes at most per frame, each lifting the deepest point. */
const PASSES = 4;
/** How far above the surface (m) a turn lifts the deepest point: the skin between the points may reach a little lower. */
const CLEARANCE = 0.002;

/**
 * Rests a ragdoll's hands and feet on what the ragdoll rests on. The ragdoll has
 * no particle beyond the wrist and ankle, so a hand or foot keeps the
 * animation's turn against its forearm or shin; lying on its front, a foot
 * square to its shin reaches 14 cm through the floor. After the bones are
 * posed, each hand and foot whose skin (its {@link Extremity.points}) lies
 * beyond a collider's surface turns about its joint, the wrist or ankle, by the
 * least turn that lifts the deepest point onto that surface (a foot on its
 * front plantarflexes; a hand flat under a forearm bends back), a few passes
 * for the next deepest. Surfaces are found by casting from the joint to each
 * point (`castLineAll`: planes, spheres, boxes, capsules and triangle meshes;
 * custom colliders are not seen), so the joint itself must lie outside them,
 * as the particle on it does. The turn is written into the bone's matrices
 * only (its `quaternion` stays the animation's), so the bones' `matrixAutoUpdate`
 * must be false while it poses them. Allocates nothing per update.
 *
 * @internal
 */
export class ExtremityRest {
  private readonly bones: readonly Object3D[];
  /** All points, xyz, and where each bone's begin (`starts[i]` to `starts[i + 1]`, in points). */
  private readonly points: Float64Array;
  private readonly starts: Int32Array;
  /** Each point of the bone at hand, from its joint, in the world (xyz). */
  private readonly offsets: Float64Array;
  private readonly cast = makeLineCast();
  /** The deepest point's depth, the surface's normal and the joint's height above it; then the share of the turn to apply. */
  private readonly deepest = new Float64Array(6);
  private readonly pivot = new Vector3();
  private readonly rotation = new Quaternion();
  private readonly scale = new Vector3();
  private readonly turn = new Quaternion();
  private readonly step = new Quaternion();
  private readonly parentInverse = new Matrix4();
  private readonly point = new Vector3();
  /** A turn's four numbers on their way into a `Quaternion`. */
  private readonly quaternion = new Float64Array(4);

  constructor(extremities: readonly Extremity[]) {
    this.bones = extremities.map((e) => e.bone);
    this.starts = new Int32Array(extremities.length + 1);
    extremities.forEach((e, i) => (this.starts[i + 1] = this.starts[i]! + e.points.length / 3));
    this.points = new Float64Array(this.starts[extremities.length]! * 3);
    extremities.forEach((e, i) => this.points.set(e.points, this.starts[i]! * 3));
    this.offsets = new Float64Array(Math.max(0, ...extremities.map((e) => e.points.length)));
  }

  /** Sets each bone's local matrix from its `quaternion` (the animation's turn): call before the world matrices are updated. */
  restore(): void {
    for (let i = 0; i < this.bones.length; i++) this.bones[i]!.updateMatrix();
  }

  /**
   * Turns each hand and foot whose skin lies beyond a collider's surface about its
   * joint, by `shares[i]` (in [0, 1], per bone in the order given) of the least turn
   * that lifts it out, and brings the bones below it up to date. The bones' world
   * matrices must be up to date.
   */
  update(colliders: readonly Collider[], shares: Float64Array): void {
    const deepest = this.deepest;
    for (let i = 0; i < this.bones.length; i++) {
      const bone = this.bones[i]!;
      const start = this.starts[i]!;
      const count = this.starts[i + 1]! - start;
      deepest[5] = shares[i]!;
      if (count === 0 || deepest[5] === 0) continue;
      bone.matrixWorld.decompose(this.pivot, this.rotation, this.scale);
      const offsets = this.offsets;
      for (let k = 0; k < count; k++) {
        const p = (start + k) * 3;
        this.point.fromArray(this.points, p).applyMatrix4(bone.matrixWorld);
        offsets[k * 3] = this.point.x - this.pivot.x;
        offsets[k * 3 + 1] = this.point.y - this.pivot.y;
        offsets[k * 3 + 2] = this.point.z - this.pivot.z;
      }
      this.turn.identity();
      for (let pass = 0; pass < PASSES; pass++) {
        const k = this.deepestPoint(colliders, count);
        if (k < 0) break;
        this.lift(k, count);
      }
      if (this.turn.w === 1) continue;
      this.shareOfTurn();
      this.rotation.premultiply(this.turn);
      bone.matrixWorld.compose(this.pivot, this.rotation, this.scale);
      const holder = bone.parent;
      if (holder) bone.matrix.multiplyMatrices(this.parentInverse.copy(holder.matrixWorld).invert(), bone.matrixWorld);
      else bone.matrix.copy(bone.matrixWorld);
      bone.updateMatrixWorld(true);
    }
  }

  /**
   * The index of the point (of `count` in `offsets`) deepest beyond a surface, casting
   * from the joint to each; -1 when none is deeper than a micrometre. Into `deepest`:
   * its depth, the surface's normal and the joint's height above the surface.
   */
  private deepestPoint(colliders: readonly Collider[], count: number): number {
    const q = this.cast;
    const deepest = this.deepest;
    const offsets = this.offsets;
    deepest[0] = 1e-6;
    let found = -1;
    for (let k = 0; k < count; k++) {
      const dx = offsets[k * 3]!;
      const dy = offsets[k * 3 + 1]!;
      const dz = offsets[k * 3 + 2]!;
      q[Cast.From] = this.pivot.x;
      q[Cast.From + 1] = this.pivot.y;
      q[Cast.From + 2] = this.pivot.z;
      q[Cast.To] = this.pivot.x + dx;
      q[Cast.To + 1] = this.pivot.y + dy;
      q[Cast.To + 2] = this.pivot.z + dz;
      if (!castLineAll(colliders, q)) continue;
      const t = q[Cast.T]!;
      // Along the normal, the point lies (1 − t) of its drop beyond the surface and the joint t of it above.
      const drop = -(dx * q[Cast.Normal]! + dy * q[Cast.Normal + 1]! + dz * q[Cast.Normal + 2]!);
      const depth = (1 - t) * drop;
      if (depth <= deepest[0]!) continue;
      found = k;
      deepest[0] = depth;
      deepest[1] = q[Cast.Normal]!;
      deepest[2] = q[Cast.Normal + 1]!;
      deepest[3] = q[Cast.Normal + 2]!;
      deepest[4] = t * drop;
    }
    return found;
  }

  /**
   * Turns point `k` about the joint toward the surface's normal (in `deepest`), the
   * least turn that takes it `CLEARANCE` above the surface, and every point with it;
   * adds the turn to `turn`.
   */
  private lift(k: number, count: number): void {
    const d = this.deepest;
    const nx = d[1]!;
    const ny = d[2]!;
    const nz = d[3]!;
    const offsets = this.offsets;
    const vx = offsets[k * 3]!;
    const vy = offsets[k * 3 + 1]!;
    const vz = offsets[k * 3 + 2]!;
    const length = Math.sqrt(vx * vx + vy * vy + vz * vz);
    if (length === 0) return;
    // Elevations (angles above the surface) now and wanted: sin = height / length.
    const now = Math.asin(Math.max(-1, Math.min(1, (vx * nx + vy * ny + vz * nz) / length)));
    const wanted = Math.asin(Math.max(-1, Math.min(1, (CLEARANCE - d[4]!) / length)));
    const angle = wanted - now;
    if (!(angle > 0)) return;
    // About v × n, which turns v toward n; straight into the surface, about any axis square to n.
    let ax = vy * nz - vz * ny;
    let ay = vz * nx - vx * nz;
    let az = vx * ny - vy * nx;
    let axis = Math.sqrt(ax * ax + ay * ay + az * az);
    if (axis < 1e-9 * length) {
      // n × x, or n × z when n lies near x.
      const nearX = Math.abs(nx) >= 0.9;
      ax = nearX ? ny : 0;
      ay = nearX ? -nx : nz;
      az = nearX ? 0 : -ny;
      axis = Math.sqrt(ax * ax + ay * ay + az * az);
    }
    const sin = Math.sin(angle / 2) / axis;
    // Through a typed array: Quaternion.set's four doubles would be boxed (see swingMath.ts).
    const q = this.quaternion;
    q[0] = ax * sin;
    q[1] = ay * sin;
    q[2] = az * sin;
    q[3] = Math.cos(angle / 2);
    this.step.fromArray(q);
    this.turn.premultiply(this.step);
    for (let j = 0; j < count; j++) {
      this.point.fromArray(offsets, j * 3).applyQuaternion(this.step);
      offsets[j * 3] = this.point.x;
      offsets[j * 3 + 1] = this.point.y;
      offsets[j * 3 + 2] = this.point.z;
    }
  }

  /** Scales `turn`'s angle by the share in `deepest[5]` (about the same axis). */
  private shareOfTurn(): void {
    const share = this.deepest[5]!;
    if (share === 1) return;
    const t = this.turn;
    const w = t.w < 0 ? -t.w : t.w;
    const sign = t.w < 0 ? -1 : 1;
    const s = Math.sqrt(t.x * t.x + t.y * t.y + t.z * t.z);
    if (s === 0) return;
    const half = Math.atan2(s, w) * share;
    const scale = (sign * Math.sin(half)) / s;
    const q = this.quaternion;
    q[0] = t.x * scale;
    q[1] = t.y * scale;
    q[2] = t.z * scale;
    q[3] = Math.cos(half);
    t.fromArray(q);
  }
}
