import { BufferGeometry, Float32BufferAttribute, Uint16BufferAttribute, Vector3 } from 'three';

/** One joint of a skeleton in its bind pose, as {@link limbTubes} reads it. */
export interface TubeJoint {
  /** The joint's name, unique in the list. */
  readonly name: string;
  /** The parent joint's name; null (or a name not in the list) for the root. */
  readonly parent: string | null;
  /** World position of the joint in the bind pose. */
  readonly at: readonly [number, number, number];
  /** Radius of the flesh around the bone that starts here; 0 for a bone with none (an end joint). */
  readonly radius: number;
}

const RINGS = 10;
const SIDES = 10;
/** Share of a bone's length, at each end, over which its vertices blend with the neighbouring bone. */
const BLEND = 0.2;

/**
 * @internal A skin of tubes from each joint to its children, for the test
 * characters: `bones` are the joints' names in skin-index order,
 * `isTrunkBranch(joint, child)` says which children start inside the trunk (their
 * tube is left out: the trunk is one chain of wide tubes), `head` names the joint
 * whose tube is rounded at both ends. A tube's radius runs from its joint's to its
 * child's and shrinks to a cap at a free end. A vertex near a joint is weighted
 * half to each bone at the joint itself, fading to the own bone `BLEND` of the way
 * in: the smooth weights that make shoulders and elbows collapse under plain
 * linear blend skinning when the bones are posed badly.
 */
export function limbTubes(joints: readonly TubeJoint[], bones: readonly string[], isTrunkBranch: (joint: TubeJoint, child: TubeJoint) => boolean, head: string): BufferGeometry {
  const positions: number[] = [];
  const skinIndex: number[] = [];
  const skinWeight: number[] = [];
  const indices: number[] = [];
  const a = new Vector3();
  const b = new Vector3();
  const along = new Vector3();
  const u = new Vector3();
  const v = new Vector3();
  for (const joint of joints) {
    if (joint.radius === 0) continue;
    for (const child of joints.filter((j) => j.parent === joint.name)) {
      if (isTrunkBranch(joint, child)) continue;
      a.fromArray(joint.at);
      b.fromArray(child.at);
      along.subVectors(b, a);
      const length = along.length();
      along.divideScalar(length);
      u.set(1, 0, 0);
      if (Math.abs(along.dot(u)) > 0.9) u.set(0, 0, 1);
      u.sub(v.copy(along).multiplyScalar(u.dot(along))).normalize();
      v.crossVectors(along, u);
      const parentIndex = joint.parent === null ? -1 : bones.indexOf(joint.parent);
      const own = bones.indexOf(joint.name);
      const next = bones.indexOf(child.name);
      const childHasFlesh = child.radius > 0;
      const endFree = !childHasFlesh || child.name === head;
      const base = positions.length / 3;
      for (let r = 0; r <= RINGS; r++) {
        const t = r / RINGS;
        let radius = joint.radius + (childHasFlesh ? (child.radius - joint.radius) * t : 0);
        if (endFree) radius *= Math.sqrt(Math.max(0, 1 - ((Math.max(t, 0.6) - 0.6) / 0.4) ** 2)) || 0.2;
        if (joint.name === head) radius *= Math.sqrt(Math.max(0, 1 - ((0.3 - Math.min(t, 0.3)) / 0.3) ** 2)) || 0.2;
        let other = -1;
        let share = 0;
        if (t < BLEND && parentIndex >= 0) {
          other = parentIndex;
          share = 0.5 * (1 - t / BLEND);
        } else if (t > 1 - BLEND && childHasFlesh) {
          other = next;
          share = 0.5 * ((t - (1 - BLEND)) / BLEND);
        }
        for (let s = 0; s < SIDES; s++) {
          const angle = (s / SIDES) * Math.PI * 2;
          const cx = Math.cos(angle) * radius;
          const cy = Math.sin(angle) * radius;
          positions.push(a.x + along.x * t * length + u.x * cx + v.x * cy, a.y + along.y * t * length + u.y * cx + v.y * cy, a.z + along.z * t * length + u.z * cx + v.z * cy);
          skinIndex.push(own, Math.max(other, 0), 0, 0);
          skinWeight.push(1 - share, share, 0, 0);
        }
      }
      for (let r = 0; r < RINGS; r++) {
        for (let s = 0; s < SIDES; s++) {
          const i0 = base + r * SIDES + s;
          const i1 = base + r * SIDES + ((s + 1) % SIDES);
          indices.push(i0, i1, i0 + SIDES, i1, i1 + SIDES, i0 + SIDES);
        }
      }
    }
  }
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new Float32BufferAttribute(positions, 3));
  geometry.setAttribute('skinIndex', new Uint16BufferAttribute(skinIndex, 4));
  geometry.setAttribute('skinWeight', new Float32BufferAttribute(skinWeight, 4));
  geometry.setIndex(indices);
  geometry.computeVertexNormals();
  return geometry;
}
