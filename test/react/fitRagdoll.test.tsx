import { AnimationMixer, Vector3, type Bone } from 'three';
import { describe, expect, it } from 'vitest';
import { createRagdoll } from '../../src/core/bodies/ragdoll.js';
import { limbSpecs } from '../../src/core/bodies/ragdollSkeleton.js';
import { World } from '../../src/core/world.js';
import { fitRagdoll } from '../../src/three/fitRagdoll.js';
import { createTestHumanoid, createWalkClip } from 'sinew-physics/testing';

// Issue 12, item 1: a ragdoll fitted to any skinned character from its bones.

/** Distance between two Mixamo bones' joints in the skeleton's current pose. */
function boneDistance(bones: readonly Bone[], a: string, b: string): number {
  const find = (n: string) => bones.find((x) => x.name === `mixamorig${n}`)!;
  return new Vector3().setFromMatrixPosition(find(a).matrixWorld).distanceTo(new Vector3().setFromMatrixPosition(find(b).matrixWorld));
}

// Limb → the two bones whose joints it spans. (The spine is left out: the chest
// particle sits 3% of the height in front of its bone, so the upper torso is a
// tetrahedron and not flat.)
const spans = {
  leftClavicle: ['Neck', 'LeftArm'],
  rightClavicle: ['Neck', 'RightArm'],
  leftUpperArm: ['LeftArm', 'LeftForeArm'],
  rightUpperArm: ['RightArm', 'RightForeArm'],
  leftForearm: ['LeftForeArm', 'LeftHand'],
  rightForearm: ['RightForeArm', 'RightHand'],
  leftThigh: ['LeftUpLeg', 'LeftLeg'],
  rightThigh: ['RightUpLeg', 'RightLeg'],
  leftShin: ['LeftLeg', 'LeftFoot'],
  rightShin: ['RightLeg', 'RightFoot'],
} as const;

describe('fitRagdoll', () => {
  it('gives limb lengths equal to the bone distances within 1%, from the T pose and from mid-walk', () => {
    const humanoid = createTestHumanoid();
    const bind = Object.fromEntries(Object.entries(spans).map(([limb, [a, b]]) => [limb, boneDistance(humanoid.skeleton.bones, a, b)]));
    const mixer = new AnimationMixer(humanoid.mesh);
    for (const time of [0, 0.1]) {
      if (time > 0) {
        mixer.clipAction(createWalkClip()).play();
        mixer.update(time);
        humanoid.root.updateMatrixWorld(true);
        // The pose really is another one: the left knee bends.
        expect(boneDistance(humanoid.skeleton.bones, 'LeftUpLeg', 'LeftFoot')).toBeLessThan(bind.leftThigh! + bind.leftShin! - 0.01);
      }
      const fit = fitRagdoll(humanoid.root);
      const world = new World();
      const ragdoll = createRagdoll(world, { joints: fit.joints, height: fit.height, limbRadii: fit.limbRadii });
      for (const [limb, length] of Object.entries(bind)) {
        expect(Math.abs(fit.limbLengths[limb as keyof typeof fit.limbLengths] - length) / length, `${limb} at ${time} s`).toBeLessThan(0.01);
        const stick = ragdoll.limbs.find((l) => l.name === limb)!;
        const row = world.stickRow(stick.stick);
        expect(Math.abs(world.sticks.rest[row]! - length) / length, `${limb} stick at ${time} s`).toBeLessThan(0.01);
      }
    }
  });

  it('measures the capsule radii from the skin and estimates the height', () => {
    const fit = fitRagdoll(createTestHumanoid().root);
    expect(fit.radiiFromSkin).toBe(true);
    // The test humanoid's thigh tube narrows from 8 to 5.5 cm, its upper arm from 5 to 4 cm.
    expect(fit.limbRadii.leftThigh).toBeGreaterThan(0.055);
    expect(fit.limbRadii.leftThigh).toBeLessThan(0.08);
    expect(fit.limbRadii.leftUpperArm).toBeGreaterThan(0.04);
    expect(fit.limbRadii.leftUpperArm).toBeLessThan(0.05);
    // 1.8 m to the top of the head; the estimate reads neck, spine and legs.
    expect(fit.height).toBeGreaterThan(1.65);
    expect(fit.height).toBeLessThan(1.9);
    expect(fit.limbBones.length).toBeGreaterThanOrEqual(limbSpecs.length - 2);
  });

  it('measures the same radii wherever the character stands (the skin read in world space)', () => {
    const here = fitRagdoll(createTestHumanoid().root);
    const moved = createTestHumanoid();
    moved.root.position.set(3, 0.4, -2);
    moved.root.rotation.y = 1;
    const there = fitRagdoll(moved.root);
    for (const limb of limbSpecs) expect(there.limbRadii[limb.name], limb.name).toBeCloseTo(here.limbRadii[limb.name], 6);
  });

  it('takes other rigs through a name map', () => {
    const humanoid = createTestHumanoid({ prefix: 'bip_' });
    expect(() => fitRagdoll(humanoid.root)).toThrow(/lacks head \(bone mixamorigHead\)/);
    const names = {
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
    const mapped = Object.fromEntries(Object.entries(names).map(([part, bone]) => [part, `bip_${bone}`]));
    const fit = fitRagdoll(humanoid.root, { names: mapped });
    expect(fit.limbLengths.leftThigh).toBeCloseTo(0.43, 3);
  });

  it('names what is wrong: a mapped name that matches no bone, a skeleton without legs, a bad height', () => {
    const humanoid = createTestHumanoid();
    expect(() => fitRagdoll(humanoid.root, { names: { leftHand: 'LeftPaw' } })).toThrow('fitRagdoll: names.leftHand names no bone "LeftPaw" in the skeleton');
    expect(() => fitRagdoll(humanoid.root, { names: { tail: 'Hips' } as never })).toThrow(/names.tail is not a ragdoll part/);
    expect(() => fitRagdoll(createTestHumanoid({ withoutLegs: true }).root)).toThrow(
      'fitRagdoll: the skeleton lacks leftHip (bone mixamorigLeftUpLeg), rightHip (bone mixamorigRightUpLeg), leftKnee (bone mixamorigLeftLeg), rightKnee (bone mixamorigRightLeg), leftFoot (bone mixamorigLeftFoot), rightFoot (bone mixamorigRightFoot)',
    );
    expect(() => fitRagdoll(humanoid.root, { height: -1 })).toThrow('fitRagdoll: height must be a finite number > 0, got -1');
    expect(() => createRagdoll(new World(), { joints: { head: [0, 1, 0] } as never })).toThrow('createRagdoll: joints has no position for neck');
    const fit = fitRagdoll(humanoid.root);
    expect(() => createRagdoll(new World(), { joints: fit.joints, limbRadii: { leftThigh: -1 } })).toThrow('createRagdoll: limbRadii.leftThigh must be a finite number > 0, got -1');
    expect(() => createRagdoll(new World(), { joints: { ...fit.joints, head: [0, Number.NaN, 0] } })).toThrow(/createRagdoll: joints\.head/);
  });
});
