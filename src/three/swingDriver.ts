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
  /**
   * The particle the aim starts from (default the bone's joint): the bone then
   * turns as the ragdoll's limb does, wherever the bones above have put its joint.
   * With a `side` its turn comes from particles alone, so the bones of a `blend`
   * can use it before the bone itself is placed.
   */
  from?: number;
  /**
   * Turn by `share` of the way (a slerp) from bone `from`'s turn to bone `to`'s,
   * both bones of this driver with a `side` and a `root` or `from` particle (the
   * pelvis and the chest), instead of aiming at `to`: the spine bones between them
   * then share the trunk's bend and twist, where one joint taking it all (66° and
   * more) pulls the skin of a short, thick spine segment off its bind distances.
   */
  blend?: { from: Object3D; to: Object3D; share: number };
  /**
   * Without a `side`: the share of its swing the bone takes, in [0, 1] (default 1),
   * leaving the rest to a driven child aimed at the same particle (the neck half
   * the head's nod, the head the other half), so no one joint bends the whole way.
   */
  share?: number;
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
  /** World turn from bind, for bones whose turn comes from particles alone (a `side` with a `root` or `from`). */
  readonly delta: Quaternion;
  /** True when `delta` is found before any bone is placed. */
  readonly early: boolean;
  /** Its place in the driver's order (the index of its share in `shares`). */
  readonly index: number;
  /** `spec.from`, or -1 without one. */
  readonly from: number;
  /** True when it takes part of its swing only (a `share` below 1). */
  readonly partial: boolean;
  /** Indices (in the driver's order) of the blend's two bones, -1 without a blend. */
  readonly blendFrom: number;
  readonly blendTo: number;
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
  private readonly identity = new Quaternion();
  private readonly slerped = new Float64Array(4);
  /** Each bone's blend share, or the share of its swing it takes (1 without either). */
  private readonly shares: Float64Array;
  private readonly aim = new Vector3();
  private readonly side = new Vector3();
  private readonly origin = new Vector3();
  private readonly position = new Vector3();
  private readonly scale = new Vector3();
  private readonly unit = new Vector3(1, 1, 1);
  private readonly parentInverse = new Matrix4();
  private readonly basis = new Matrix4();
  private readonly bindBasis = new Matrix4();

  /** Throws a `RangeError` for a blend whose share is outside [0, 1] or whose bones are not early-turned bones of this driver. */
  constructor(bones: readonly SwungBone[]) {
    const early = (spec: SwungBone) => spec.side !== undefined && (spec.root !== undefined || spec.from !== undefined);
    const indexOf = (bone: Object3D, of: Object3D) => {
      const i = bones.findIndex((b) => b.bone === bone);
      if (i < 0 || !early(bones[i]!))
        throw new RangeError(`SwingDriver: ${of.name || 'a bone'} blends with ${bone.name || 'a bone'}, which is not a bone of the driver with a side and a root or from particle`);
      return i;
    };
    // Shares in a typed array, read as raw doubles in the per-frame slerp.
    this.shares = Float64Array.from(bones, (spec) => spec.blend?.share ?? spec.share ?? 1);
    this.bound = bones.map((spec, index) => {
      const blend = spec.blend;
      if (blend && !(blend.share >= 0 && blend.share <= 1)) throw new RangeError(`SwingDriver: ${spec.bone.name || 'a bone'}'s blend share must be in [0, 1], got ${String(blend.share)}`);
      if (spec.share !== undefined && !(spec.share >= 0 && spec.share <= 1)) throw new RangeError(`SwingDriver: ${spec.bone.name || 'a bone'}'s share must be in [0, 1], got ${String(spec.share)}`);
      return {
        spec,
        rotation: new Quaternion(),
        parentRotation: new Quaternion(),
        relative: new Quaternion(),
        aim: new Vector3(),
        side: new Vector3(),
        offset: new Vector3(),
        delta: new Quaternion(),
        early: early(spec),
        index,
        from: spec.from ?? -1,
        partial: spec.share !== undefined && spec.share < 1,
        blendFrom: blend ? indexOf(blend.from, spec.bone) : -1,
        blendTo: blend ? indexOf(blend.to, spec.bone) : -1,
      };
    });
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
      const start = root ? root.from : (b.spec.from ?? -1);
      const o = start * 3;
      const ox = start >= 0 ? pos[o]! : this.origin.x;
      const oy = start >= 0 ? pos[o + 1]! : this.origin.y;
      const oz = start >= 0 ? pos[o + 2]! : this.origin.z;
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
    // First the turns that the particles alone give (pelvis, chest), which the blended bones between them need.
    for (let i = 0; i < this.bound.length; i++) {
      const b = this.bound[i]!;
      if (!b.early) continue;
      const start = b.spec.root ? b.spec.root.from : b.from;
      setVector(this.origin, pos, start * 3, -1);
      if (this.sideTurn(b, pos)) b.delta.copy(this.swing);
    }
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
    if (b.early) {
      this.rotation.copy(b.delta).multiply(b.rotation);
      return true;
    }
    if (b.blendFrom >= 0) {
      this.slerpTurn(b, this.bound[b.blendFrom]!.delta, this.bound[b.blendTo]!.delta);
      this.rotation.copy(this.swing).multiply(b.rotation);
      return true;
    }
    if (side) {
      // Turned fully with its side particles, aiming from its joint (a side bone with a root or `from` is early).
      if (!this.sideTurn(b, pos)) return false;
      this.rotation.copy(this.swing).multiply(b.rotation);
      return true;
    }
    if (b.from < 0) {
      setVector(this.aim, pos, to * 3, -1);
      this.aim.sub(this.origin);
    } else {
      const t = to * 3;
      const f = b.from * 3;
      this.aim.x = pos[t]! - pos[f]!;
      this.aim.y = pos[t + 1]! - pos[f + 1]!;
      this.aim.z = pos[t + 2]! - pos[f + 2]!;
    }
    if (!normalizeInPlace(this.aim)) return false;
    if (parent) parent.matrixWorld.decompose(this.position, this.parentRotation, this.scale);
    else this.parentRotation.identity();
    this.aim.applyQuaternion(this.inverse.copy(this.parentRotation).invert());
    turnBetween(b.aim, this.aim, this.swing, this.slerped);
    if (b.partial) this.slerpTurn(b, this.identity, this.inverse.copy(this.swing));
    this.rotation.copy(this.parentRotation).multiply(this.swing).multiply(b.relative);
    return true;
  }

  /**
   * Into `swing`: the bone's share of the way from turn `a` to turn `c` (spherical), written out so that
   * the share is not passed as a double argument (see "How we work": V8 boxes those).
   */
  private slerpTurn(b: Bound, a: Quaternion, c: Quaternion): void {
    const t = this.shares[b.index]!;
    let cx = c.x;
    let cy = c.y;
    let cz = c.z;
    let cw = c.w;
    let cos = a.x * cx + a.y * cy + a.z * cz + a.w * cw;
    // The shorter way round.
    if (cos < 0) {
      cx = -cx;
      cy = -cy;
      cz = -cz;
      cw = -cw;
      cos = -cos;
    }
    let wa = 1 - t;
    let wc = t;
    if (cos < 0.9999) {
      const angle = Math.acos(cos);
      const sin = Math.sin(angle);
      wa = Math.sin((1 - t) * angle) / sin;
      wc = Math.sin(t * angle) / sin;
    }
    const x = wa * a.x + wc * cx;
    const y = wa * a.y + wc * cy;
    const z = wa * a.z + wc * cz;
    const w = wa * a.w + wc * cw;
    const length = Math.sqrt(x * x + y * y + z * z + w * w);
    const out = this.slerped;
    out[0] = x / length;
    out[1] = y / length;
    out[2] = z / length;
    out[3] = w / length;
    this.swing.fromArray(out);
  }

  /** Into `swing`: the turn taking the bind basis (aim, side) onto today's, aiming from `origin` at the bone's particle; false when the aim has no direction. */
  private sideTurn(b: Bound, pos: Float64Array): boolean {
    const side = b.spec.side!;
    setVector(this.aim, pos, b.spec.to * 3, -1);
    this.aim.sub(this.origin);
    if (!normalizeInPlace(this.aim)) return false;
    setVector(this.side, pos, side[0] * 3, side[1] * 3);
    frame(b.aim, b.side, this.bindBasis);
    frame(this.aim, this.side, this.basis);
    this.swing.setFromRotationMatrix(this.basis.multiply(this.bindBasis.transpose()));
    return true;
  }
}

/**
 * `out` = particle at `a` minus particle at `b` (b < 0: the particle at `a` alone), read from the positions.
 * Written field by field: the pelvis's `Vector3.set(x, y, z)` from the particles allocated 32 bytes a frame
 * (measured; V8 boxed the doubles).
 */
function setVector(out: Vector3, pos: Float64Array, a: number, b: number): void {
  if (b < 0) {
    out.x = pos[a]!;
    out.y = pos[a + 1]!;
    out.z = pos[a + 2]!;
  } else {
    out.x = pos[a]! - pos[b]!;
    out.y = pos[a + 1]! - pos[b + 1]!;
    out.z = pos[a + 2]! - pos[b + 2]!;
  }
}

/**
 * Scales `v` to length 1, or returns false and leaves it when it has no length.
 * Written out rather than `lengthSq()` and `normalize()`: once this file's
 * functions grew past V8's inlining budget, the lengths those return (a double
 * from a call not inlined) were boxed, 16 bytes each, every frame.
 */
function normalizeInPlace(v: Vector3): boolean {
  const x = v.x;
  const y = v.y;
  const z = v.z;
  const squared = x * x + y * y + z * z;
  if (squared === 0) return false;
  const scale = 1 / Math.sqrt(squared);
  v.x = x * scale;
  v.y = y * scale;
  v.z = z * scale;
  return true;
}

/**
 * `out` = the shortest turn taking unit vector `a` onto unit vector `b`, as
 * three.js's `setFromUnitVectors` but written out (its `dot` returned a boxed
 * double here, see {@link normalizeInPlace}); `scratch` holds four numbers.
 */
function turnBetween(a: Vector3, b: Vector3, out: Quaternion, scratch: Float64Array): void {
  let w = a.x * b.x + a.y * b.y + a.z * b.z + 1;
  let x: number;
  let y: number;
  let z: number;
  if (w < Number.EPSILON) {
    // Opposite: half a turn about any axis square to a.
    w = 0;
    if (Math.abs(a.x) > Math.abs(a.z)) {
      x = -a.y;
      y = a.x;
      z = 0;
    } else {
      x = 0;
      y = -a.z;
      z = a.y;
    }
  } else {
    x = a.y * b.z - a.z * b.y;
    y = a.z * b.x - a.x * b.z;
    z = a.x * b.y - a.y * b.x;
  }
  const length = Math.sqrt(x * x + y * y + z * z + w * w);
  scratch[0] = x / length;
  scratch[1] = y / length;
  scratch[2] = z / length;
  scratch[3] = w / length;
  out.fromArray(scratch);
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
