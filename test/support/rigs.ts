import { Bone, Group, MeshBasicMaterial, Quaternion, Skeleton, SkinnedMesh, Vector3 } from 'three';
import { limbTubes } from '../../src/testing/limbTubes.js';
import type { RagdollPart } from '../../src/core/bodies/ragdollSkeleton.js';

/**
 * Skinned rigs built in the tests, as other tools name and orient their bones, for the character code to
 * fit without knowing them: a 1.75 m figure in an A pose (arms 45° down), facing +z, its left at +x, a
 * body of tubes around the bones whose vertices blend half and half at each joint.
 */

/** A joint of the rig: a key, its parent's key, its world place in the bind pose, the flesh radius of the tube from it to its children. */
interface Joint {
  key: string;
  parent: string | null;
  at: [number, number, number];
  radius: number;
}

const arm = Math.SQRT1_2;
function joints(spine: 1 | 2 | 3, x: 1 | -1, s: 'l' | 'r'): Joint[] {
  const chest = spine === 1 ? 'spine1' : spine === 2 ? 'spine2' : 'spine3';
  return [
    { key: `clavicle_${s}`, parent: chest, at: [0.03 * x, 1.42, 0.01], radius: 0.05 },
    { key: `upperarm_${s}`, parent: `clavicle_${s}`, at: [0.17 * x, 1.42, 0], radius: 0.05 },
    { key: `lowerarm_${s}`, parent: `upperarm_${s}`, at: [(0.17 + 0.28 * arm) * x, 1.42 - 0.28 * arm, 0], radius: 0.04 },
    { key: `hand_${s}`, parent: `lowerarm_${s}`, at: [(0.17 + 0.54 * arm) * x, 1.42 - 0.54 * arm, 0], radius: 0.035 },
    { key: `finger_${s}`, parent: `hand_${s}`, at: [(0.17 + 0.7 * arm) * x, 1.42 - 0.7 * arm, 0], radius: 0 },
    { key: `thigh_${s}`, parent: 'pelvis', at: [0.09 * x, 0.9, 0], radius: 0.08 },
    { key: `calf_${s}`, parent: `thigh_${s}`, at: [0.09 * x, 0.48, 0.01], radius: 0.055 },
    { key: `foot_${s}`, parent: `calf_${s}`, at: [0.09 * x, 0.08, 0], radius: 0.045 },
    { key: `ball_${s}`, parent: `foot_${s}`, at: [0.09 * x, 0.02, 0.12], radius: 0.03 },
    { key: `toe_${s}`, parent: `ball_${s}`, at: [0.09 * x, 0.02, 0.2], radius: 0 },
  ];
}

function skeletonJoints(spine: 1 | 2 | 3, withRoot: boolean, pelvisHeight: number): Joint[] {
  const trunk: Joint[] = [
    { key: 'pelvis', parent: withRoot ? 'root' : null, at: [0, pelvisHeight, 0], radius: 0.14 },
    { key: 'spine1', parent: 'pelvis', at: [0, 1.05, -0.01], radius: 0.13 },
  ];
  if (spine >= 2) trunk.push({ key: 'spine2', parent: 'spine1', at: [0, 1.17, -0.01], radius: 0.14 });
  if (spine >= 3) trunk.push({ key: 'spine3', parent: 'spine2', at: [0, 1.3, 0], radius: 0.15 });
  const chest = trunk[trunk.length - 1]!.key;
  trunk.push({ key: 'neck', parent: chest, at: [0, 1.48, 0], radius: 0.05 });
  trunk.push({ key: 'head', parent: 'neck', at: [0, 1.57, 0.02], radius: 0.1 });
  trunk.push({ key: 'headEnd', parent: 'head', at: [0, 1.77, 0.02], radius: 0 });
  return [...(withRoot ? [{ key: 'root', parent: null, at: [0, 0, 0], radius: 0 } as Joint] : []), ...trunk, ...joints(spine, 1, 'l'), ...joints(spine, -1, 'r')];
}

/** How a rig names and orients its bones. */
export interface RigConvention {
  /** For test messages. */
  label: string;
  /** Bone name per joint key (keys: root, pelvis, spine1–3, neck, head, headEnd, clavicle_l, upperarm_l, …). */
  name: (key: string) => string;
  /** Spine bones from the pelvis to the chest bone, the chest bone included. */
  spine: 1 | 2 | 3;
  /** A root bone on the floor above the pelvis (Unreal's `root`). */
  root: boolean;
  /** The bone axis that points along the bone at its child ('none': every bone unrotated, as the test humanoid). */
  axis: 'x' | 'y' | 'none';
  /** The name map for `fitRagdoll` (none for Mixamo's own names). */
  names?: Partial<Record<RagdollPart, string>>;
}

const side = (key: string) => (key.endsWith('_l') ? 'l' : 'r');
const unrealNames: Record<string, string> = { spine1: 'spine_01', spine2: 'spine_02', spine3: 'spine_03', neck: 'neck_01', headEnd: 'head_end' };
const mixamo: Record<string, string> = {
  pelvis: 'Hips',
  spine1: 'Spine',
  spine2: 'Spine1',
  spine3: 'Spine2',
  neck: 'Neck',
  head: 'Head',
  headEnd: 'HeadTop_End',
  clavicle: 'Shoulder',
  upperarm: 'Arm',
  lowerarm: 'ForeArm',
  hand: 'Hand',
  finger: 'HandIndex4',
  thigh: 'UpLeg',
  calf: 'Leg',
  foot: 'Foot',
  ball: 'ToeBase',
  toe: 'Toe_End',
};
const blender: Record<string, string> = {
  pelvis: 'hips',
  spine1: 'spine',
  spine2: 'chest',
  neck: 'neck',
  head: 'head',
  headEnd: 'head_end',
  clavicle: 'shoulder',
  upperarm: 'upper_arm',
  lowerarm: 'forearm',
  hand: 'hand',
  finger: 'finger',
  thigh: 'thigh',
  calf: 'shin',
  foot: 'foot',
  ball: 'toe',
  toe: 'toe_end',
};
const base = (key: string) => key.replace(/_[lr]$/, '');

/** Unreal's mannequin: `pelvis`, `spine_01`…`spine_03`, `neck_01`, `clavicle_l`, `upperarm_l`, …; a `root` bone; X along each bone. */
export const unreal: RigConvention = {
  label: 'Unreal',
  name: (key) => unrealNames[key] ?? key,
  spine: 3,
  root: true,
  axis: 'x',
  names: {
    pelvis: 'pelvis',
    chest: 'spine_03',
    neck: 'neck_01',
    head: 'head',
    leftShoulder: 'upperarm_l',
    rightShoulder: 'upperarm_r',
    leftElbow: 'lowerarm_l',
    rightElbow: 'lowerarm_r',
    leftHand: 'hand_l',
    rightHand: 'hand_r',
    leftHip: 'thigh_l',
    rightHip: 'thigh_r',
    leftKnee: 'calf_l',
    rightKnee: 'calf_r',
    leftFoot: 'foot_l',
    rightFoot: 'foot_r',
  },
};

/** A Mixamo export as written (`mixamorig:Hips`, `mixamorig:LeftArm`, …), Y along each bone; found without a name map. */
export const mixamoExport: RigConvention = {
  label: 'Mixamo',
  name: (key) => (key.endsWith('_l') || key.endsWith('_r') ? `mixamorig:${side(key) === 'l' ? 'Left' : 'Right'}${mixamo[base(key)]!}` : `mixamorig:${mixamo[key]!}`),
  spine: 3,
  root: false,
  axis: 'y',
};

/** Blender's plain names (`hips`, `spine`, `chest`, `upper_arm.L`, …), two spine bones, every bone unrotated. */
export const plain: RigConvention = {
  label: 'plain',
  name: (key) => (key.endsWith('_l') || key.endsWith('_r') ? `${blender[base(key)]!}.${side(key).toUpperCase()}` : blender[key]!),
  spine: 2,
  root: false,
  axis: 'none',
  names: {
    pelvis: 'hips',
    chest: 'chest',
    neck: 'neck',
    head: 'head',
    leftShoulder: 'upper_arm.L',
    rightShoulder: 'upper_arm.R',
    leftElbow: 'forearm.L',
    rightElbow: 'forearm.R',
    leftHand: 'hand.L',
    rightHand: 'hand.R',
    leftHip: 'thigh.L',
    rightHip: 'thigh.R',
    leftKnee: 'shin.L',
    rightKnee: 'shin.R',
    leftFoot: 'foot.L',
    rightFoot: 'foot.R',
  },
};

/** A rig built in code. */
export interface BuiltRig {
  root: Group;
  mesh: SkinnedMesh;
  skeleton: Skeleton;
}

/**
 * Builds the A-posed figure with `convention`'s names and bone axes; its pelvis joint 5 cm above the hip
 * joints (at 0.95 m), or at `pelvisHeight`.
 */
export function buildRig(convention: RigConvention, pelvisHeight = 0.95): BuiltRig {
  const list = skeletonJoints(convention.spine, convention.root, pelvisHeight);
  // Each bone's world turn in the bind pose: its axis along the way to its first child.
  const axis = convention.axis === 'x' ? new Vector3(1, 0, 0) : new Vector3(0, 1, 0);
  const turns = new Map<string, Quaternion>();
  for (const joint of list) {
    const child = list.find((j) => j.parent === joint.key && !j.key.startsWith('thigh') && !j.key.startsWith('clavicle'));
    const turn = new Quaternion();
    if (convention.axis !== 'none' && child) turn.setFromUnitVectors(axis, new Vector3(...child.at).sub(new Vector3(...joint.at)).normalize());
    else if (convention.axis !== 'none' && joint.parent) turn.copy(turns.get(joint.parent)!);
    turns.set(joint.key, turn);
  }
  const bones = new Map<string, Bone>();
  for (const joint of list) {
    const bone = new Bone();
    bone.name = convention.name(joint.key);
    const parent = joint.parent === null ? undefined : list.find((j) => j.key === joint.parent)!;
    const parentTurn = parent ? turns.get(parent.key)!.clone().invert() : new Quaternion();
    bone.position.set(...joint.at);
    if (parent) bone.position.sub(new Vector3(...parent.at)).applyQuaternion(parentTurn);
    bone.quaternion.copy(parentTurn).multiply(turns.get(joint.key)!);
    if (parent) bones.get(parent.key)!.add(bone);
    bones.set(joint.key, bone);
  }
  const keys = [...bones.keys()];
  const mesh = new SkinnedMesh(skin(list, keys), new MeshBasicMaterial());
  const root = new Group();
  root.add(bones.get(list[0]!.key)!);
  root.add(mesh);
  root.updateMatrixWorld(true);
  const skeleton = new Skeleton([...bones.values()]);
  mesh.bind(skeleton);
  return { root, mesh, skeleton };
}

/** The test characters' tube skin on these joints; the trunk's side chains (clavicles, thighs) start inside it. */
function skin(list: readonly Joint[], keys: readonly string[]) {
  const joints = list.map((joint) => ({ name: joint.key, parent: joint.parent, at: joint.at, radius: joint.radius }));
  return limbTubes(joints, keys, (joint, child) => child.name.startsWith('clavicle') || (joint.name === 'pelvis' && child.name.startsWith('thigh')), 'head');
}
