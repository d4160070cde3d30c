import { Matrix4, Quaternion, Vector3, type Object3D } from 'three';
import type { FrameLike } from './frames.js';

/** One bone driven by one frame (a ragdoll limb): `frame` indexes the frames passed to `bind` and `update`. */
export interface DrivenBone {
  /** The bone (or any object) to pose. */
  bone: Object3D;
  /** Index of its frame in the frames passed to `bind` and `update`. */
  frame: number;
}

/**
 * Poses bones of a skinned mesh (or any objects) from simulated frames: the
 * paper's ragdoll drives a character's skeleton through its limb frames. At
 * {@link BoneDriver.bind} the model and the simulation must be in the same
 * pose; the driver remembers each bone's offset from its frame then, and from
 * then on places each bone at frame × offset, converted into its parent's
 * space. Parents are posed before children. Allocates nothing per update.
 *
 * @example
 * ```ts
 * const driver = new BoneDriver([{ bone: model.getObjectByName('LeftUpLeg')!, frame: 11 }]);
 * driver.bind(ragdoll.updateFrames());
 * // every frame:
 * driver.update(ragdoll.updateFrames());
 * ```
 */
export class BoneDriver {
  private readonly bones: DrivenBone[];
  private readonly offsets: Matrix4[];
  private bound = false;
  private readonly frameMatrix = new Matrix4();
  private readonly world = new Matrix4();
  private readonly local = new Matrix4();
  private readonly position = new Vector3();
  private readonly quaternion = new Quaternion();
  private readonly unit = new Vector3(1, 1, 1);

  constructor(bones: readonly DrivenBone[]) {
    // Parents first, so a child is converted into its parent's space after the parent moved.
    this.bones = [...bones].sort((a, b) => depth(a.bone) - depth(b.bone));
    this.offsets = this.bones.map(() => new Matrix4());
  }

  /** True once {@link BoneDriver.bind} ran. */
  get isBound(): boolean {
    return this.bound;
  }

  /** Records each bone's offset from its frame; the model must be in the simulation's pose now. */
  bind(frames: readonly FrameLike[]): void {
    for (let i = 0; i < this.bones.length; i++) {
      const { bone, frame } = this.bones[i]!;
      bone.updateWorldMatrix(true, false);
      this.compose(frames[frame]!);
      this.offsets[i]!.copy(this.frameMatrix).invert().multiply(bone.matrixWorld);
    }
    this.bound = true;
  }

  /** Places every bone at its frame × offset. */
  update(frames: readonly FrameLike[]): void {
    if (!this.bound) return;
    for (let i = 0; i < this.bones.length; i++) {
      const { bone, frame } = this.bones[i]!;
      this.compose(frames[frame]!);
      this.world.multiplyMatrices(this.frameMatrix, this.offsets[i]!);
      const parent = bone.parent;
      if (parent) {
        parent.updateWorldMatrix(true, false);
        this.local.copy(parent.matrixWorld).invert().multiply(this.world);
      } else this.local.copy(this.world);
      this.local.decompose(bone.position, bone.quaternion, bone.scale);
      bone.matrix.copy(this.local);
      bone.matrixWorld.copy(this.world);
    }
  }

  private compose(frame: FrameLike): void {
    const p = frame.position;
    const q = frame.quaternion;
    this.position.set(p[0]!, p[1]!, p[2]!);
    this.quaternion.set(q[0]!, q[1]!, q[2]!, q[3]!);
    this.frameMatrix.compose(this.position, this.quaternion, this.unit);
  }
}

function depth(object: Object3D): number {
  let d = 0;
  for (let o = object.parent; o; o = o.parent) d++;
  return d;
}
