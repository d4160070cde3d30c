import { Vector3, type SkinnedMesh } from 'three';
import { dualQuaternionVertex } from '../../src/three/dualQuaternionSkinning.js';

/**
 * Issue 12's skin measure: each vertex's distance from its main (heaviest)
 * bone's joint, against the range of those distances over all that bone's
 * vertices in the bind pose. A twisted or collapsed shoulder or elbow pulls
 * vertices in toward the joint or flings them out past the range.
 */
export class SkinCheck {
  private readonly main: Int32Array;
  private readonly low: Float64Array;
  private readonly high: Float64Array;
  private readonly vertex = new Vector3();
  private readonly joint = new Vector3();

  /** Records the bind pose's distances; the mesh must be in its bind pose (or call before animating). */
  constructor(
    private readonly mesh: SkinnedMesh,
    private readonly skinning: 'linear' | 'dualQuaternion' = 'dualQuaternion',
  ) {
    const count = mesh.geometry.getAttribute('position').count;
    const bones = mesh.skeleton.bones.length;
    this.main = new Int32Array(count);
    this.low = new Float64Array(bones).fill(Infinity);
    this.high = new Float64Array(bones).fill(0);
    const skinIndex = mesh.geometry.getAttribute('skinIndex');
    const skinWeight = mesh.geometry.getAttribute('skinWeight');
    // The main bone: the heaviest; between equal weights (a vertex on a joint, half to the bone on
    // each side), the child, whose joint it is on.
    const bonesOf = mesh.skeleton.bones;
    const isChild = (a: number, b: number) => bonesOf[a]!.parent === bonesOf[b];
    for (let i = 0; i < count; i++) {
      let heaviest = 0;
      for (let k = 1; k < 4; k++) {
        const w = skinWeight.getComponent(i, k);
        const best = skinWeight.getComponent(i, heaviest);
        if (w > best + 1e-6 || (Math.abs(w - best) <= 1e-6 && w > 0 && isChild(skinIndex.getComponent(i, k), skinIndex.getComponent(i, heaviest)))) heaviest = k;
      }
      this.main[i] = skinIndex.getComponent(i, heaviest);
    }
    const distances = this.distances();
    for (let i = 0; i < count; i++) {
      const b = this.main[i]!;
      this.low[b] = Math.min(this.low[b]!, distances[i]!);
      this.high[b] = Math.max(this.high[b]!, distances[i]!);
    }
  }

  /** Each vertex's distance from its main bone's joint in the current pose (world space). */
  distances(): Float64Array {
    const mesh = this.mesh;
    mesh.updateMatrixWorld(true);
    const count = this.main.length;
    const out = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      if (this.skinning === 'linear') mesh.getVertexPosition(i, this.vertex).applyMatrix4(mesh.matrixWorld);
      else dualQuaternionVertex(mesh, i, this.vertex);
      this.joint.setFromMatrixPosition(mesh.skeleton.bones[this.main[i]!]!.matrixWorld);
      out[i] = this.vertex.distanceTo(this.joint);
    }
    return out;
  }

  /** Worst excursion outside the bind-pose range per bone (share of the range's end; ≤ 0 inside), by bone name. */
  perBone(): Map<string, number> {
    const distances = this.distances();
    const worst = new Map<string, number>();
    for (let i = 0; i < distances.length; i++) {
      const b = this.main[i]!;
      const d = distances[i]!;
      const out = Math.max((this.low[b]! - d) / this.low[b]!, (d - this.high[b]!) / this.high[b]!);
      const name = this.mesh.skeleton.bones[b]!.name;
      worst.set(name, Math.max(worst.get(name) ?? -Infinity, out));
    }
    return worst;
  }
}
