import { AnimationClip, AnimationMixer, Bone, Group, Quaternion, QuaternionKeyframeTrack, Vector3 } from 'three';
import type { RagdollPart } from '../../src/core/bodies/ragdollSkeleton.js';

/**
 * A bare skeleton named as Unreal's mannequin (`pelvis`, `spine_03`, `upperarm_l`, …), 1.75 m tall,
 * in an A pose (arms 45° down), facing +z with its left hand at +x, every bone's local rotation the
 * identity: another naming convention and another bind pose than the test humanoid's.
 */
const JOINTS: readonly { name: string; parent: string | null; at: readonly [number, number, number] }[] = [
  { name: 'pelvis', parent: null, at: [0, 0.95, 0] },
  { name: 'spine_01', parent: 'pelvis', at: [0, 1.05, 0] },
  { name: 'spine_02', parent: 'spine_01', at: [0, 1.17, 0] },
  { name: 'spine_03', parent: 'spine_02', at: [0, 1.3, 0] },
  { name: 'neck_01', parent: 'spine_03', at: [0, 1.47, 0] },
  { name: 'head', parent: 'neck_01', at: [0, 1.56, 0.01] },
  ...side('l', 1),
  ...side('r', -1),
];

function side(s: 'l' | 'r', x: 1 | -1) {
  const down = Math.SQRT1_2;
  return [
    { name: `clavicle_${s}`, parent: 'spine_03', at: [0.04 * x, 1.41, 0] as const },
    { name: `upperarm_${s}`, parent: `clavicle_${s}`, at: [0.17 * x, 1.41, 0] as const },
    { name: `lowerarm_${s}`, parent: `upperarm_${s}`, at: [(0.17 + 0.28 * down) * x, 1.41 - 0.28 * down, 0] as const },
    { name: `hand_${s}`, parent: `lowerarm_${s}`, at: [(0.17 + 0.54 * down) * x, 1.41 - 0.54 * down, 0] as const },
    { name: `thigh_${s}`, parent: 'pelvis', at: [0.1 * x, 0.9, 0] as const },
    { name: `calf_${s}`, parent: `thigh_${s}`, at: [0.1 * x, 0.49, 0] as const },
    { name: `foot_${s}`, parent: `calf_${s}`, at: [0.1 * x, 0.08, 0] as const },
    { name: `ball_${s}`, parent: `foot_${s}`, at: [0.1 * x, 0.02, 0.13] as const },
  ];
}

/** Which bone carries each ragdoll part, for `fitRagdoll`'s `names`. */
export const unrealNames: Readonly<Record<RagdollPart, string>> = {
  pelvis: 'pelvis',
  chest: 'spine_03',
  neck: 'neck_01',
  head: 'head',
  leftShoulder: 'upperarm_l',
  leftElbow: 'lowerarm_l',
  leftHand: 'hand_l',
  leftHip: 'thigh_l',
  leftKnee: 'calf_l',
  leftFoot: 'foot_l',
  rightShoulder: 'upperarm_r',
  rightElbow: 'lowerarm_r',
  rightHand: 'hand_r',
  rightHip: 'thigh_r',
  rightKnee: 'calf_r',
  rightFoot: 'foot_r',
};

/** The rig: its root (move it to move the character) and a mixer playing a brisk keyframed walk in place. */
export function createUnrealRig(): { root: Group; mixer: AnimationMixer; speed: number } {
  const bones = new Map<string, Bone>();
  for (const joint of JOINTS) {
    const bone = new Bone();
    bone.name = joint.name;
    const parent = joint.parent === null ? undefined : JOINTS.find((j) => j.name === joint.parent)!;
    bone.position.set(joint.at[0] - (parent?.at[0] ?? 0), joint.at[1] - (parent?.at[1] ?? 0), joint.at[2] - (parent?.at[2] ?? 0));
    if (parent) bones.get(parent.name)!.add(bone);
    bones.set(joint.name, bone);
  }
  const root = new Group();
  root.add(bones.get('pelvis')!);
  root.updateMatrixWorld(true);
  // A brisker walk than the test humanoid's (0.9 s a cycle, thighs ±30°, arms ±35°): its hands and feet are faster.
  const period = 0.9;
  const keys = 18;
  const times = Array.from({ length: keys + 1 }, (_, k) => (k / keys) * period);
  const X = new Vector3(1, 0, 0);
  const tracks: QuaternionKeyframeTrack[] = [];
  const rotation = (bone: string, angle: (phase: number) => number) => {
    const values = times.flatMap((t) => new Quaternion().setFromAxisAngle(X, angle((t / period) * Math.PI * 2)).toArray());
    tracks.push(new QuaternionKeyframeTrack(`${bone}.quaternion`, times, values));
  };
  const degrees = Math.PI / 180;
  for (const [s, phase] of [
    ['l', 0],
    ['r', Math.PI],
  ] as const) {
    rotation(`thigh_${s}`, (p) => -30 * degrees * Math.sin(p + phase));
    rotation(`calf_${s}`, (p) => (5 + 60 * Math.max(0, Math.cos(p + phase)) ** 2) * degrees);
    rotation(`upperarm_${s}`, (p) => 35 * degrees * Math.sin(p + phase));
    rotation(`lowerarm_${s}`, (p) => -(15 + 30 * Math.max(0, -Math.sin(p + phase))) * degrees);
  }
  const mixer = new AnimationMixer(root);
  mixer.clipAction(new AnimationClip('walk', period, tracks)).play();
  return { root, mixer, speed: 1.6 / period };
}
