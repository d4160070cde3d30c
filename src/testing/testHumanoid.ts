import { AnimationClip, Bone, Group, MeshStandardMaterial, Quaternion, QuaternionKeyframeTrack, Skeleton, SkinnedMesh, Vector3, VectorKeyframeTrack } from 'three';
import { limbTubes } from './limbTubes.js';

/**
 * The Mixamo skeleton in its bind pose, a T pose 1.8 m tall standing on y = 0,
 * facing +z with its left hand at +x (Mixamo's convention): bone name (without
 * the `mixamorig` prefix), parent, world position of the joint, and the radius of
 * the flesh around the bone that starts there.
 */
const BIND: readonly { name: string; parent: string | null; at: readonly [number, number, number]; radius: number }[] = [
  { name: 'Hips', parent: null, at: [0, 0.98, 0], radius: 0.14 },
  { name: 'Spine', parent: 'Hips', at: [0, 1.08, 0], radius: 0.13 },
  { name: 'Spine1', parent: 'Spine', at: [0, 1.2, 0], radius: 0.14 },
  { name: 'Spine2', parent: 'Spine1', at: [0, 1.33, 0], radius: 0.15 },
  { name: 'Neck', parent: 'Spine2', at: [0, 1.5, 0], radius: 0.05 },
  { name: 'Head', parent: 'Neck', at: [0, 1.58, 0.01], radius: 0.1 },
  { name: 'HeadTop_End', parent: 'Head', at: [0, 1.8, 0.01], radius: 0 },
  ...side('Left', 1),
  ...side('Right', -1),
];

function side(name: 'Left' | 'Right', x: 1 | -1) {
  return [
    { name: `${name}Shoulder`, parent: 'Spine2', at: [0.05 * x, 1.44, 0] as const, radius: 0.05 },
    { name: `${name}Arm`, parent: `${name}Shoulder`, at: [0.18 * x, 1.44, 0] as const, radius: 0.05 },
    { name: `${name}ForeArm`, parent: `${name}Arm`, at: [0.46 * x, 1.44, 0] as const, radius: 0.04 },
    { name: `${name}Hand`, parent: `${name}ForeArm`, at: [0.72 * x, 1.44, 0] as const, radius: 0.035 },
    { name: `${name}HandIndex4`, parent: `${name}Hand`, at: [0.9 * x, 1.44, 0] as const, radius: 0 },
    { name: `${name}UpLeg`, parent: 'Hips', at: [0.09 * x, 0.93, 0] as const, radius: 0.08 },
    { name: `${name}Leg`, parent: `${name}UpLeg`, at: [0.09 * x, 0.5, 0] as const, radius: 0.055 },
    { name: `${name}Foot`, parent: `${name}Leg`, at: [0.09 * x, 0.08, 0] as const, radius: 0.045 },
    { name: `${name}ToeBase`, parent: `${name}Foot`, at: [0.09 * x, 0.02, 0.12] as const, radius: 0.03 },
    { name: `${name}Toe_End`, parent: `${name}ToeBase`, at: [0.09 * x, 0.02, 0.2] as const, radius: 0 },
  ];
}

/** What {@link createTestHumanoid} returns. */
export interface TestHumanoid {
  /** Holds the root bone and the mesh: add it to the scene, move it to move the character. */
  readonly root: Group;
  /** The skinned body, bound to {@link TestHumanoid.skeleton} in the T pose. */
  readonly mesh: SkinnedMesh;
  /** Its 31 bones, named `mixamorigHips`, `mixamorigLeftArm`, … */
  readonly skeleton: Skeleton;
}

/** Options of {@link createTestHumanoid}. */
export interface TestHumanoidOptions {
  /** Bone name prefix. Default `'mixamorig'`, as in a Mixamo export loaded by three.js. */
  prefix?: string;
  /** Leave out the legs (to see how a fit reports a skeleton without them). Default false. */
  withoutLegs?: boolean;
  /** Colour of the skin. Default `'#d9b38c'`. */
  color?: string;
}

/**
 * A humanoid made in code, for tests and stories that need a skinned character
 * without downloading one: Mixamo's bone names and proportions (1.8 m, bind pose
 * a T pose facing +z), a body of tubes around the bones whose vertices blend
 * between neighbouring bones near each joint, as an artist's weights do.
 *
 * @example
 * ```ts
 * const { root, mesh } = createTestHumanoid();
 * scene.add(root);
 * new AnimationMixer(mesh).clipAction(createWalkClip()).play();
 * ```
 */
export function createTestHumanoid(options: TestHumanoidOptions = {}): TestHumanoid {
  const prefix = options.prefix ?? 'mixamorig';
  if (typeof prefix !== 'string') throw new TypeError(`createTestHumanoid: prefix must be a string, got ${String(prefix)}`);
  const joints = options.withoutLegs ? BIND.filter((b) => !/(UpLeg|Leg|Foot|Toe)/.test(b.name)) : BIND;
  const bones = new Map<string, Bone>();
  for (const joint of joints) {
    const bone = new Bone();
    bone.name = prefix + joint.name;
    const parent = joint.parent === null ? undefined : joints.find((j) => j.name === joint.parent);
    bone.position.set(joint.at[0] - (parent?.at[0] ?? 0), joint.at[1] - (parent?.at[1] ?? 0), joint.at[2] - (parent?.at[2] ?? 0));
    if (parent) bones.get(parent.name)!.add(bone);
    bones.set(joint.name, bone);
  }
  const list = [...bones.values()];
  // The torso's side chains (shoulders, legs) start inside it: only the spine chain is the torso's own tube.
  const geometry = limbTubes(joints, [...bones.keys()], (joint, child) => (joint.name === 'Spine2' && child.name !== 'Neck') || (joint.name === 'Hips' && child.name !== 'Spine'), 'Head');
  const mesh = new SkinnedMesh(geometry, new MeshStandardMaterial({ color: options.color ?? '#d9b38c', roughness: 0.8 }));
  mesh.name = 'TestHumanoid';
  mesh.castShadow = true;
  const root = new Group();
  root.name = 'TestHumanoidRoot';
  root.add(bones.get('Hips')!);
  root.add(mesh);
  root.updateMatrixWorld(true);
  const skeleton = new Skeleton(list);
  mesh.bind(skeleton);
  return { root, mesh, skeleton };
}

/** Options of {@link createWalkClip}. */
export interface WalkClipOptions {
  /** Bone name prefix. Default `'mixamorig'`. */
  prefix?: string;
  /** Length of one cycle (two steps) in s. Default 1.1. */
  period?: number;
  /** Keyframes per cycle. Default 24. */
  keys?: number;
}

/**
 * A walk cycle for {@link createTestHumanoid} (or any Mixamo rig whose bind
 * pose is a T pose), in place: thighs swing ±25°, knees bend up to 60° in the
 * swing, arms hang and swing against the legs, the hips bob 2 cm. Move the
 * character's root forward at `clip.userData.speed` m/s ({@link walkSpeed}) to make it walk.
 *
 * @example
 * ```ts
 * const mixer = new AnimationMixer(humanoid.mesh);
 * const clip = createWalkClip();
 * mixer.clipAction(clip).play();
 * // every frame: mixer.update(dt); humanoid.root.position.z += clip.userData.speed * dt;
 * ```
 */
export function createWalkClip(options: WalkClipOptions = {}): AnimationClip {
  const prefix = options.prefix ?? 'mixamorig';
  const period = options.period ?? 1.1;
  const keys = options.keys ?? 24;
  if (typeof period !== 'number' || !(period > 0)) throw new RangeError(`createWalkClip: period must be a number > 0, got ${String(period)}`);
  if (!Number.isInteger(keys) || keys < 4) throw new RangeError(`createWalkClip: keys must be an integer >= 4, got ${String(keys)}`);
  const times: number[] = [];
  for (let k = 0; k <= keys; k++) times.push((k / keys) * period);
  const degrees = Math.PI / 180;
  const X = new Vector3(1, 0, 0);
  const Y = new Vector3(0, 1, 0);
  const Z = new Vector3(0, 0, 1);
  const turn = (axis: Vector3, angle: number) => new Quaternion().setFromAxisAngle(axis, angle);
  const tracks = [];
  const rotation = (bone: string, at: (phase: number) => Quaternion) => {
    const values: number[] = [];
    for (const t of times) values.push(...at(((t / period) * Math.PI * 2) % (Math.PI * 2)).toArray());
    tracks.push(new QuaternionKeyframeTrack(`${prefix}${bone}.quaternion`, times, values));
  };
  for (const [name, x, phase] of [
    ['Left', 1, 0],
    ['Right', -1, Math.PI],
  ] as const) {
    // Forward swing is a negative turn about +x (it takes -y toward +z).
    rotation(`${name}UpLeg`, (p) => turn(X, -25 * degrees * Math.sin(p + phase)));
    // The knee bends in the swing (when the thigh moves forward) and a little at contact.
    rotation(`${name}Leg`, (p) => turn(X, (5 + 55 * Math.max(0, Math.cos(p + phase)) ** 2) * degrees));
    rotation(`${name}Foot`, (p) => turn(X, -10 * degrees * Math.sin(p + phase)));
    // Arms down from the T pose, swinging against the leg on their side.
    rotation(`${name}Arm`, (p) => turn(X, 20 * degrees * Math.sin(p + phase)).multiply(turn(Z, -x * 78 * degrees)));
    rotation(`${name}ForeArm`, (p) => turn(Y, -x * (20 + 15 * Math.max(0, -Math.sin(p + phase))) * degrees));
  }
  rotation('Spine1', (p) => turn(Y, 5 * degrees * Math.sin(p)));
  const bob: number[] = [];
  for (const t of times) bob.push(0, 0.98 - 0.02 * Math.cos(((2 * t) / period) * Math.PI * 2), 0);
  tracks.push(new VectorKeyframeTrack(`${prefix}Hips.position`, times, bob));
  const clip = new AnimationClip('walk', period, tracks);
  clip.userData.speed = walkSpeed(period);
  return clip;
}

/**
 * Speed (m/s) at which a character playing {@link createWalkClip} with `period`
 * covers ground without its planted foot sliding much: two steps of 0.75 m per cycle.
 */
export function walkSpeed(period = 1.1): number {
  return 1.5 / period;
}
