import { Matrix4, Quaternion, Vector3, type Object3D } from 'three';
import { PoseBlend } from '../core/motion/poseBlend.js';

export { smoothstep } from '../core/motion/poseBlend.js';

/**
 * The pose blend of a get-up (`AnimatedRagdoll.getUp`): each particle's
 * target goes from where the particle lay when the get-up began, L, to where
 * the animation puts it now, A(t), as L + (A(t) − L)·w(t/T), w the
 * {@link smoothstep}. Held by rigid pins, a particle then moves at
 *
 *   |A′(t)·w + (A(t) − L)·w′/T| ≤ |A′(t)| + 1.5·|A(t) − L| / T,
 *
 * the animation's own speed plus 1.5 times the distance to cover over the
 * blend's time, with no jump at either end (w′ is 0 at both, and w is exactly
 * 1 at the end, where the animation takes over). That is within the
 * animation's fastest part plus g·T (what gravity gives a part falling for the
 * blend's T seconds) whenever every part lies within g·T²/1.5 of its animated
 * place: 1.6 m for a 0.5 s get-up, 6.5 m for a 1 s one. Allocates nothing once
 * built.
 */
export class GetUpBlend extends PoseBlend {
  /** The bones it turns (parents before children), and each one's axis in its own space (xyz; 0 where it has none). */
  private readonly bones: readonly Object3D[];
  private readonly axes: Float64Array;
  private readonly isPosed: Set<Object3D>;
  private readonly position = new Vector3();
  private readonly scale = new Vector3();
  private readonly driven = new Quaternion();
  private readonly twist = new Quaternion();
  private readonly inverse = new Matrix4();

  /**
   * A blend of `count` particles, not running, that also turns the bones the
   * ragdoll poses (parents first) about their own axes toward the animation's
   * twist (see {@link GetUpBlend.twistBones}). Each bone's axis is the way to
   * its child bone that points closest to the particle it aims at, `aim` (an
   * index into the particles, placed by `pose`, xyz per particle, against the
   * bones' current world matrices), or to that particle when it has no child
   * bone: an axis the animation keeps in the bone, unlike the way to a particle
   * a further bone carries (the pelvis aims at the chest particle, which the
   * spine's bend moves), so the twist about it is all the two turns differ by.
   * `state` is the blend's state to share (a `CharacterDriver`'s `blendState`: the driver
   * advances the blend in the steps, this object turns the bones by its weight).
   */
  constructor(count: number, bones: readonly { bone: Object3D; aim: number }[] = [], pose: Float64Array = new Float64Array(count * 3), state?: Float64Array) {
    super(count, state);
    this.bones = bones.map((b) => b.bone);
    this.isPosed = new Set(this.bones);
    this.axes = new Float64Array(bones.length * 3);
    const toward = new Vector3();
    bones.forEach(({ bone, aim }, i) => {
      bone.worldToLocal(toward.fromArray(pose, aim * 3));
      if (toward.lengthSq() < 1e-12) return;
      toward.normalize();
      let axis = toward;
      let best = -Infinity;
      for (const child of bone.children) {
        if (!(child as Object3D & { isBone?: boolean }).isBone || child.position.lengthSq() < 1e-12) continue;
        const along = child.position.dot(toward) / child.position.length();
        if (along > best) [best, axis] = [along, child.position.clone().normalize()];
      }
      axis.toArray(this.axes, i * 3);
    });
  }

  /**
   * Turns each bone, as the ragdoll posed it, about its own axis by the
   * blend's weight of the twist between that pose and the animation's (call
   * after the ragdoll posed the bones, before their world matrices are brought
   * up to date). A bone's direction stays the ragdoll's, so the skin stays on
   * the particles; only the twist about it blends. A ragdoll poses a limb by
   * the least turn from the pose it was hit in, so its twist can differ from
   * the animation's by tens of degrees (60° on a forearm of a rig in an A
   * pose); blended, the hand-over turns no bone by more than the particles'
   * last step does. Reads the animation's local turn from `bone.quaternion`
   * (the ragdoll writes only the bones' matrices). Allocates nothing.
   */
  twistBones(): void {
    const bones = this.bones;
    const axes = this.axes;
    const weight = this.state[2]!;
    for (let i = 0; i < bones.length; i++) {
      const bone = bones[i]!;
      const holder = bone.parent;
      // A bone between this one and its posed parent follows the parent's new turn first.
      if (holder && !this.isPosed.has(holder)) holder.updateWorldMatrix(true, false);
      // Its local matrix against the parent as now posed, so that the children keep their own world turns.
      if (holder) bone.matrix.multiplyMatrices(this.inverse.copy(holder.matrixWorld).invert(), bone.matrixWorld);
      else bone.matrix.copy(bone.matrixWorld);
      const ax = axes[i * 3]!;
      const ay = axes[i * 3 + 1]!;
      const az = axes[i * 3 + 2]!;
      if (ax !== 0 || ay !== 0 || az !== 0) {
        // The twist part of the turn from the ragdoll's local pose (against its parent's blended turn) to the
        // animation's: its rotation about the axis.
        bone.matrix.decompose(this.position, this.driven, this.scale);
        const r = this.twist.copy(this.driven).invert().multiply(bone.quaternion);
        const along = r.x * ax + r.y * ay + r.z * az;
        if (along * along + r.w * r.w > 1e-12) {
          // The twist turns by 2·half about the axis (the shorter way: q and −q are the same turn); the
          // blend's share of it turns by 2·half·weight.
          const half = (r.w < 0 ? Math.atan2(-along, -r.w) : Math.atan2(along, r.w)) * weight;
          const sin = Math.sin(half);
          this.twist.set(ax * sin, ay * sin, az * sin, Math.cos(half));
          // The world turn: the ragdoll's, then the share of the twist about the bone's own axis.
          bone.matrixWorld.decompose(this.position, this.driven, this.scale);
          this.driven.multiply(this.twist);
          bone.matrixWorld.compose(this.position, this.driven, this.scale);
          if (holder) bone.matrix.multiplyMatrices(this.inverse.copy(holder.matrixWorld).invert(), bone.matrixWorld);
          else bone.matrix.copy(bone.matrixWorld);
        }
      }
    }
  }
}
