import { Matrix4, Quaternion, Vector3, type Object3D } from 'three';
import type { World } from '../core/world.js';

/**
 * A bone posed from a stick figure's particles by {@link SwingDriver}. It keeps
 * its place in the hierarchy (its joint stays where its parent puts it) unless it
 * is a `root`, and turns so that it points from its joint at particle `to`.
 */
export interface SwungBone {
  /** The bone to pose (its `matrixAutoUpdate` should be false while driven). */
  bone: Object3D;
  /** The driven ancestor whose turn the bone inherits when it has no `side` (posed before it). */
  parent: Object3D | null;
  /** Particle the bone points at from its joint. */
  to: number;
  /** For the root: the particle its joint is carried by (kept at its bind offset). */
  root?: { at: number; from: number };
  /**
   * Particles `[left, right]` giving the bone's side, so it turns fully with
   * them (the pelvis with the hips, the chest with the shoulders); without it
   * the bone only swings against its parent and never twists.
   */
  side?: readonly [number, number];
}

interface Bound {
  readonly spec: SwungBone;
  /** The bone's world rotation at bind. */
  readonly rotation: Quaternion;
  /** The parent's world rotation at bind. */
  readonly parentRotation: Quaternion;
  /** Bind rotation relative to the parent's. */
  readonly relative: Quaternion;
  /** The aim at bind, in the parent's space (no side) or in the world (with a side). */
  readonly aim: Vector3;
  /** The side at bind (world). */
  readonly side: Vector3;
  /** Root only: joint minus the carrying particle at bind, in the bone's space. */
  readonly offset: Vector3;
}

/**
 * Poses bones from a stick figure so that skinning stays right. Every joint
 * stays where its parent bone puts it, so the bones on either side of a joint
 * agree on its place (with dual quaternion skinning every vertex between them
 * keeps its distance from it). Each bone turns to point at its particle: by the
 * shortest turn against its parent (a swing: a stick figure does not know a
 * limb's twist, and a twist read from the bend of an elbow without a hinge can
 * turn an upper arm half round against the shoulder and collapse the skin there),
 * or, given a `side`, fully with the particles (the pelvis and chest, whose
 * turn the hips and shoulders do give). Parents must come before their
 * children. Allocates nothing per update.
 */
export class SwingDriver {
  private readonly bound: Bound[];
  private readonly rotation = new Quaternion();
  private readonly parentRotation = new Quaternion();
  private readonly swing = new Quaternion();
  private readonly inverse = new Quaternion();
  private readonly aim = new Vector3();
  private readonly side = new Vector3();
  private readonly origin = new Vector3();
  private readonly position = new Vector3();
  private readonly scale = new Vector3();
  private readonly unit = new Vector3(1, 1, 1);
  private readonly parentInverse = new Matrix4();
  private readonly basis = new Matrix4();
  private readonly bindBasis = new Matrix4();

  constructor(bones: readonly SwungBone[]) {
    this.bound = bones.map((spec) => ({
      spec,
      rotation: new Quaternion(),
      parentRotation: new Quaternion(),
      relative: new Quaternion(),
      aim: new Vector3(),
      side: new Vector3(),
      offset: new Vector3(),
    }));
  }

  /** Records each bone against its parent and its particles; the bones and the particles must be in the same pose now. */
  bind(world: World): void {
    const pos = world.particles.position;
    for (const b of this.bound) {
      const { bone, parent, to, root, side } = b.spec;
      bone.updateWorldMatrix(true, false);
      bone.matrixWorld.decompose(this.origin, b.rotation, this.scale);
      if (parent) parent.matrixWorld.decompose(this.position, b.parentRotation, this.scale);
      else b.parentRotation.identity();
      b.relative.copy(b.parentRotation).invert().multiply(b.rotation);
      const o = root ? root.from * 3 : -1;
      const ox = root ? pos[o]! : this.origin.x;
      const oy = root ? pos[o + 1]! : this.origin.y;
      const oz = root ? pos[o + 2]! : this.origin.z;
      b.aim.set(pos[to * 3]! - ox, pos[to * 3 + 1]! - oy, pos[to * 3 + 2]! - oz).normalize();
      if (side) b.side.set(pos[side[0] * 3]! - pos[side[1] * 3]!, pos[side[0] * 3 + 1]! - pos[side[1] * 3 + 1]!, pos[side[0] * 3 + 2]! - pos[side[1] * 3 + 2]!);
      else b.aim.applyQuaternion(this.inverse.copy(b.parentRotation).invert());
      if (root) {
        const p = root.at * 3;
        b.offset.set(this.origin.x - pos[p]!, this.origin.y - pos[p + 1]!, this.origin.z - pos[p + 2]!).applyQuaternion(this.inverse.copy(b.rotation).invert());
      }
    }
  }

  /** Poses every bone from the particles: writes `matrix` and `matrixWorld` only. */
  update(world: World): void {
    const pos = world.particles.position;
    for (let i = 0; i < this.bound.length; i++) {
      const b = this.bound[i]!;
      const { bone, root } = b.spec;
      const holder = bone.parent;
      if (!this.turn(b, pos)) continue;
      if (root) {
        const p = root.at * 3;
        this.origin.copy(b.offset).applyQuaternion(this.rotation);
        this.origin.x += pos[p]!;
        this.origin.y += pos[p + 1]!;
        this.origin.z += pos[p + 2]!;
      }
      bone.matrixWorld.compose(this.origin, this.rotation, this.unit);
      if (holder) bone.matrix.multiplyMatrices(this.parentInverse.copy(holder.matrixWorld).invert(), bone.matrixWorld);
      else bone.matrix.copy(bone.matrixWorld);
    }
  }

  /** The bone's joint (into `origin`) and turn (into `rotation`) from the particles; false when it has no direction. */
  private turn(b: Bound, pos: Float64Array): boolean {
    const { bone, parent, to, root, side } = b.spec;
    const holder = bone.parent;
    // The joint: where the parent puts it (a bone between it and the driven parent brought up to date first).
    if (holder && holder !== parent) holder.updateWorldMatrix(true, false);
    if (holder) this.origin.copy(bone.position).applyMatrix4(holder.matrixWorld);
    else this.origin.copy(bone.position);
    if (root) {
      // The root's joint is carried by its particle; aim from that particle, as the bone's offset is not known yet.
      const p = root.from * 3;
      setVector(this.origin, pos, p, -1);
    }
    setVector(this.aim, pos, to * 3, -1);
    this.aim.sub(this.origin);
    if (this.aim.lengthSq() === 0) return false;
    this.aim.normalize();
    if (side) {
      setVector(this.side, pos, side[0] * 3, side[1] * 3);
      // The turn that takes the bind basis (aim, side) onto today's.
      frame(b.aim, b.side, this.bindBasis);
      frame(this.aim, this.side, this.basis);
      this.swing.setFromRotationMatrix(this.basis.multiply(this.bindBasis.transpose()));
      this.rotation.copy(this.swing).multiply(b.rotation);
    } else {
      if (parent) parent.matrixWorld.decompose(this.position, this.parentRotation, this.scale);
      else this.parentRotation.identity();
      this.aim.applyQuaternion(this.inverse.copy(this.parentRotation).invert());
      this.swing.setFromUnitVectors(b.aim, this.aim);
      this.rotation.copy(this.parentRotation).multiply(this.swing).multiply(b.relative);
    }
    return true;
  }
}

/**
 * `out` = particle at `a` minus particle at `b` (b < 0: the particle at `a` alone), read from the positions.
 * Written field by field: the pelvis's `Vector3.set(x, y, z)` from the particles allocated 32 bytes a frame
 * (measured; V8 boxed the doubles).
 */
function setVector(out: Vector3, pos: Float64Array, a: number, b: number): void {
  out.x = pos[a]! - (b < 0 ? 0 : pos[b]!);
  out.y = pos[a + 1]! - (b < 0 ? 0 : pos[b + 1]!);
  out.z = pos[a + 2]! - (b < 0 ? 0 : pos[b + 2]!);
}

/** Orthonormal basis (columns: side, aim made square to it, their cross product) into `out`. */
function frame(aim: Vector3, side: Vector3, out: Matrix4): void {
  const sx = side.x;
  const sy = side.y;
  const sz = side.z;
  const ls = Math.sqrt(sx * sx + sy * sy + sz * sz) || 1;
  const xx = sx / ls;
  const xy = sy / ls;
  const xz = sz / ls;
  const along = aim.x * xx + aim.y * xy + aim.z * xz;
  let yx = aim.x - along * xx;
  let yy = aim.y - along * xy;
  let yz = aim.z - along * xz;
  const ly = Math.sqrt(yx * yx + yy * yy + yz * yz) || 1;
  yx /= ly;
  yy /= ly;
  yz /= ly;
  // Written into the elements (column-major) rather than passed as Matrix4.set's sixteen arguments.
  const e = out.elements;
  e[0] = xx;
  e[1] = xy;
  e[2] = xz;
  e[3] = 0;
  e[4] = yx;
  e[5] = yy;
  e[6] = yz;
  e[7] = 0;
  e[8] = xy * yz - xz * yy;
  e[9] = xz * yx - xx * yz;
  e[10] = xx * yy - xy * yx;
  e[11] = 0;
  e[12] = 0;
  e[13] = 0;
  e[14] = 0;
  e[15] = 1;
}
