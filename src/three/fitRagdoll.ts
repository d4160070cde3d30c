import { Matrix4, Vector3, type Bone, type Object3D, type Skeleton, type SkinnedMesh } from 'three';
import { limbSpecs, ragdollParts, type RagdollLimbName, type RagdollPart } from '../core/bodies/ragdollSkeleton.js';
import type { Vec3 } from '../core/math.js';

/** Bone (by name) whose joint each ragdoll particle sits on, in a Mixamo rig (`mixamorig` + name). */
export const mixamoNames: Readonly<Record<RagdollPart, string>> = {
  head: 'Head',
  neck: 'Neck',
  chest: 'Spine2',
  pelvis: 'Hips',
  leftShoulder: 'LeftArm',
  rightShoulder: 'RightArm',
  leftElbow: 'LeftForeArm',
  rightElbow: 'RightForeArm',
  leftHand: 'LeftHand',
  rightHand: 'RightHand',
  leftHip: 'LeftUpLeg',
  rightHip: 'RightUpLeg',
  leftKnee: 'LeftLeg',
  rightKnee: 'RightLeg',
  leftFoot: 'LeftFoot',
  rightFoot: 'RightFoot',
};

/** Options of {@link fitRagdoll}. */
export interface FitRagdollOptions {
  /**
   * Bone name per ragdoll particle, for rigs not named like Mixamo's, e.g.
   * `{ pelvis: 'pelvis', chest: 'spine_03', leftHip: 'thigh_l', … }`. Parts left
   * out use Mixamo's name (with or without the `mixamorig` / `mixamorig:` prefix).
   */
  names?: Readonly<Partial<Record<RagdollPart, string>>>;
  /** The character's height (m); default estimated from the neck, spine and legs. Scales masses, particle radii and self-collision. */
  height?: number;
  /**
   * The skinned mesh whose vertices give each limb's capsule radius (the median
   * distance of the vertices a limb's bone mainly carries from the bone).
   * Default: the first `SkinnedMesh` using the skeleton under `root`, if any;
   * without one the radii are the ragdoll's usual shares of the height.
   */
  mesh?: SkinnedMesh;
}

/** Where a ragdoll particle sits on the rig: a point fixed in a bone's space. */
export interface PartAnchor {
  /** The bone that carries it. */
  readonly bone: Bone;
  /** The point in the bone's local space. */
  readonly offset: Vector3;
}

/** A ragdoll fitted to a skeleton by {@link fitRagdoll}. */
export interface RagdollFit {
  /** Particle positions (world) in the skeleton's current pose: `createRagdoll`'s `joints`. */
  readonly joints: Record<RagdollPart, Vec3>;
  /** Estimated (or given) height in m. */
  readonly height: number;
  /** Limb lengths (m) in the order of `limbSpecs`, by name. */
  readonly limbLengths: Record<RagdollLimbName, number>;
  /** Capsule radii (m) by limb, measured from the skin when a mesh was found. */
  readonly limbRadii: Record<RagdollLimbName, number>;
  /** True when the radii come from the skin. */
  readonly radiiFromSkin: boolean;
  /** Each particle's place on the rig, to read an animated pose from the bones. */
  readonly anchors: Readonly<Record<RagdollPart, PartAnchor>>;
  /**
   * The rig's bones that belong to a limb, each with the index (in `limbSpecs`) of that limb: the skin
   * hanging on a bone measures its limb's capsule radius. (Which bones a ragdoll poses, and how, is the
   * `SwingDriver`'s business.)
   */
  readonly limbBones: readonly { bone: Bone; limb: number }[];
}

// Share of the height between the neck joint and the ankle along the body
// (standing ragdoll: neck 0.845 H, foot 0.035 H), for the height estimate.
const NECK_TO_ANKLE = 0.81;
// How far in front of the spine the chest particle sits (share of height): the
// upper torso must be a tetrahedron, not flat, to stay rigid.
const CHEST_FORWARD = 0.03;

/**
 * Fits a ragdoll to a skinned character's skeleton in whatever pose it is in
 * now (bind pose, T pose or mid-animation; no particular pose is needed): each
 * particle on its joint's bone, limb lengths the distances between them, capsule
 * radii from the skin, and the bones each limb will pose. Mixamo's names are
 * built in; `options.names` maps other rigs. Throws a `RangeError` naming every
 * part the skeleton lacks (e.g. a skeleton without legs) and any mapped name
 * that matches no bone.
 *
 * @example
 * ```ts
 * const fit = fitRagdoll(gltf.scene);
 * const ragdoll = createRagdoll(world, { joints: fit.joints, height: fit.height, limbRadii: fit.limbRadii });
 * ```
 */
export function fitRagdoll(root: Object3D | Skeleton, options: FitRagdollOptions = {}): RagdollFit {
  const what = 'fitRagdoll';
  if (root === null || typeof root !== 'object') throw new TypeError(`${what}: root must be an Object3D or a Skeleton, got ${String(root)}`);
  const bones = collectBones(root);
  if (bones.length === 0) throw new RangeError(`${what}: found no bones under ${(root as Object3D).name || 'the root'}`);
  const names = options.names ?? {};
  for (const [part, name] of Object.entries(names)) {
    if (!(ragdollParts as readonly string[]).includes(part)) throw new RangeError(`${what}: names.${part} is not a ragdoll part (parts: ${ragdollParts.join(', ')})`);
    if (typeof name !== 'string' || !bones.some((b) => b.name === name)) throw new RangeError(`${what}: names.${part} names no bone "${String(name)}" in the skeleton`);
  }
  const byPart = {} as Record<RagdollPart, Bone>;
  const missing: string[] = [];
  for (const part of ragdollParts) {
    const bone = names[part] !== undefined ? bones.find((b) => b.name === names[part]) : findMixamo(bones, mixamoNames[part]);
    if (bone) byPart[part] = bone;
    else missing.push(`${part} (bone ${names[part] ?? `mixamorig${mixamoNames[part]}`})`);
  }
  if (missing.length > 0) throw new RangeError(`${what}: the skeleton lacks ${missing.join(', ')}; map other bone names with options.names`);
  for (const bone of bones) bone.updateWorldMatrix(true, false);

  const at = (part: RagdollPart) => new Vector3().setFromMatrixPosition(byPart[part].matrixWorld);
  const points = Object.fromEntries(ragdollParts.map((p) => [p, at(p)])) as Record<RagdollPart, Vector3>;
  // The head particle sits mid-skull: halfway to the head's end bone when there is one.
  const headEnd = byPart.head.children.find((c) => (c as Bone).isBone) as Bone | undefined;
  if (headEnd) points.head.lerp(new Vector3().setFromMatrixPosition(headEnd.matrixWorld), 0.5);
  const legs =
    (points.leftHip.distanceTo(points.leftKnee) + points.leftKnee.distanceTo(points.leftFoot) + points.rightHip.distanceTo(points.rightKnee) + points.rightKnee.distanceTo(points.rightFoot)) / 2;
  const hipMiddle = new Vector3().addVectors(points.leftHip, points.rightHip).multiplyScalar(0.5);
  const estimated = (points.neck.distanceTo(points.chest) + points.chest.distanceTo(points.pelvis) + points.pelvis.distanceTo(hipMiddle) + legs) / NECK_TO_ANKLE;
  const height = options.height ?? estimated;
  if (typeof height !== 'number' || !Number.isFinite(height) || height <= 0) throw new RangeError(`${what}: height must be a finite number > 0, got ${String(height)}`);
  // Front = left × up, as the ragdoll's own reference fronts.
  const left = new Vector3().subVectors(points.leftShoulder, points.rightShoulder);
  const up = new Vector3().subVectors(points.neck, points.pelvis);
  const front = new Vector3().crossVectors(left, up).normalize();
  points.chest.addScaledVector(front, CHEST_FORWARD * height);

  const inverse = new Matrix4();
  const anchors = Object.fromEntries(
    ragdollParts.map((p) => {
      inverse.copy(byPart[p].matrixWorld).invert();
      return [p, { bone: byPart[p], offset: points[p].clone().applyMatrix4(inverse) }];
    }),
  ) as Record<RagdollPart, PartAnchor>;
  const joints = Object.fromEntries(ragdollParts.map((p) => [p, points[p].toArray() as Vec3])) as Record<RagdollPart, Vec3>;
  const limbLengths = Object.fromEntries(limbSpecs.map((s) => [s.name, points[s.from].distanceTo(points[s.to])])) as Record<RagdollLimbName, number>;
  const limbBones = bonesOfLimbs(byPart);
  const mesh = options.mesh ?? findSkinnedMesh(root, bones);
  const skinRadii = mesh ? radiiFromSkin(mesh, limbBones, points, front) : undefined;
  const limbRadii = Object.fromEntries(limbSpecs.map((s) => [s.name, skinRadii?.get(s.name) ?? s.radius * height])) as Record<RagdollLimbName, number>;
  return { joints, height, limbLengths, limbRadii, radiiFromSkin: skinRadii !== undefined, anchors, limbBones };
}

function collectBones(root: Object3D | Skeleton): Bone[] {
  if ('bones' in root && Array.isArray(root.bones)) return root.bones;
  const bones: Bone[] = [];
  (root as Object3D).traverse((o) => {
    if ((o as Bone).isBone) bones.push(o as Bone);
  });
  return bones;
}

/** Mixamo's bone `name`, as exported (`mixamorig:Hips`), as three.js loads it (`mixamorigHips`), or bare. */
function findMixamo(bones: readonly Bone[], name: string): Bone | undefined {
  return bones.find((b) => b.name === `mixamorig${name}`) ?? bones.find((b) => b.name === `mixamorig:${name}` || b.name === `mixamorig_${name}`) ?? bones.find((b) => b.name === name);
}

/**
 * Which limb each bone belongs to: each limb its start joint's bone (the thigh the
 * hip bone, the forearm the elbow bone), the first claim winning (the spine
 * before the clavicles and pelvis sides that share its start); the lower spine
 * the spine bones between the pelvis bone and the chest bone too; the limbs that
 * end at a hand, foot or head carry that bone too (it has no limb of its own);
 * a clavicle limb poses the bone between the chest and the shoulder, if the rig has one.
 */
function bonesOfLimbs(byPart: Record<RagdollPart, Bone>): { bone: Bone; limb: number }[] {
  const owned: { bone: Bone; limb: number }[] = [];
  const claim = (bone: Bone | undefined, limb: number) => {
    if (bone && !owned.some((d) => d.bone === bone)) owned.push({ bone, limb });
  };
  limbSpecs.forEach((s, i) => {
    if (s.name.endsWith('Clavicle') || s.name.endsWith('Pelvis')) return;
    claim(byPart[s.from], i);
  });
  const lowerSpine = limbSpecs.findIndex((s) => s.name === 'lowerSpine');
  for (let b = byPart.chest.parent as Bone | null; b?.isBone && b !== byPart.pelvis; b = b.parent as Bone | null) claim(b, lowerSpine);
  limbSpecs.forEach((s, i) => {
    if (s.to === 'head' || s.to.endsWith('Hand') || s.to.endsWith('Foot')) claim(byPart[s.to], i);
    if (s.name.endsWith('Clavicle')) {
      const clavicle = byPart[s.to].parent as Bone | null;
      if (clavicle?.isBone && clavicle !== byPart.chest && clavicle !== byPart.neck) claim(clavicle, i);
    }
  });
  return owned;
}

/**
 * The first `SkinnedMesh` under `root` whose skeleton uses one of `bones`.
 *
 * @internal
 */
export function findSkinnedMesh(root: Object3D | Skeleton, bones: readonly Bone[]): SkinnedMesh | undefined {
  if ('bones' in root && Array.isArray(root.bones)) return undefined;
  let found: SkinnedMesh | undefined;
  (root as Object3D).traverse((o) => {
    const mesh = o as SkinnedMesh;
    if (!found && mesh.isSkinnedMesh && mesh.skeleton.bones.some((b) => bones.includes(b))) found = mesh;
  });
  return found;
}

/**
 * Median distance from its limb's segment of the vertices whose heaviest bone
 * belongs to a limb, the skin taken in its current pose. Limbs that own no bone
 * (the pelvis sides) or carry too few vertices keep the proportional radius.
 * The spine's two limbs take at least the depth of their skin: how far it reaches
 * in front of or behind their segment (along `front`), over the segment's whole
 * length. The spine bones lie behind the segments, which run to the chest particle
 * in front of them, so the median alone leaves the back's skin outside the
 * capsules the ragdoll lies on (docs/characters.md). A round trunk then floats a
 * little lying on its front or side (its skin's depth behind the spine is its
 * depth in front plus twice the chest particle's lead).
 */
function radiiFromSkin(mesh: SkinnedMesh, limbBones: readonly { bone: Bone; limb: number }[], points: Record<RagdollPart, Vector3>, front: Vector3): Map<RagdollLimbName, number> {
  const limbOfBone = new Map<number, number>();
  mesh.skeleton.bones.forEach((bone, index) => {
    const owned = limbBones.find((x) => x.bone === bone);
    if (owned) limbOfBone.set(index, owned.limb);
  });
  const distances = limbSpecs.map(() => [] as number[]);
  /** The trunk's vertices' distances in front of or behind their limb's segment. */
  const depths = limbSpecs.map(() => [] as number[]);
  const trunk = (limb: number) => limbSpecs[limb]!.name === 'upperSpine' || limbSpecs[limb]!.name === 'lowerSpine';
  const skinIndex = mesh.geometry.getAttribute('skinIndex');
  const skinWeight = mesh.geometry.getAttribute('skinWeight');
  const count = mesh.geometry.getAttribute('position').count;
  // A few thousand vertices give the median; a dense mesh is sampled evenly.
  const stride = Math.max(1, Math.floor(count / 20_000));
  mesh.updateWorldMatrix(true, false);
  // getVertexPosition ends in bindMatrixInverse, which three.js refreshes (attached mode) only in
  // updateMatrixWorld: undo the one it holds, not assume it is up to date.
  const toWorld = mesh.bindMode === 'attached' ? new Matrix4().copy(mesh.bindMatrixInverse).invert() : mesh.matrixWorld;
  const vertex = new Vector3();
  const segment = new Vector3();
  const offset = new Vector3();
  for (let i = 0; i < count; i += stride) {
    let heaviest = 0;
    for (let k = 1; k < 4; k++) if (skinWeight.getComponent(i, k) > skinWeight.getComponent(i, heaviest)) heaviest = k;
    const limb = limbOfBone.get(skinIndex.getComponent(i, heaviest));
    if (limb === undefined) continue;
    mesh.getVertexPosition(i, vertex).applyMatrix4(toWorld);
    const spec = limbSpecs[limb]!;
    const a = points[spec.from];
    segment.subVectors(points[spec.to], a);
    const t = offset.subVectors(vertex, a).dot(segment) / segment.lengthSq();
    // The trunk's depth along all its length: its capsules end in its particles' spheres, not in a joint's rounding.
    if (trunk(limb) && t >= 0 && t <= 1) depths[limb]!.push(Math.abs((offset.x - segment.x * t) * front.x + (offset.y - segment.y * t) * front.y + (offset.z - segment.z * t) * front.z));
    // Only vertices alongside the bone: past its ends they belong to the joint's rounding.
    if (t < 0.2 || t > 0.8) continue;
    distances[limb]!.push(offset.addScaledVector(segment, -t).length());
  }
  const radii = new Map<RagdollLimbName, number>();
  distances.forEach((list, limb) => {
    if (list.length < 8) return;
    list.sort((x, y) => x - y);
    radii.set(
      limbSpecs[limb]!.name,
      depths[limb]!.reduce((deepest, d) => Math.max(deepest, d), list[list.length >> 1]!),
    );
  });
  return radii;
}
