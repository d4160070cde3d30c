import { Bone, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { makeCollider, type ColliderShape } from '../../src/core/colliderFactory.js';
import { ExtremityRest, extremityPoints } from '../../src/three/restingExtremities.js';
import { leastAllocation } from '../support/heap.js';

// Issue 29, item 1, for hands and feet: `ExtremityRest` turns a hand or foot about its joint by the least turn that
// lifts its skin out of a collider, checked here against closed forms on one bone.

/** A shin whose foot joint lies `height` above y = 0, the foot `length` long pointing `tilt` below the horizontal along +z (a turn about +x). */
function foot(height: number, length: number, tilt: number) {
  const shin = new Bone();
  shin.position.set(0, height, 0);
  const bone = new Bone();
  bone.quaternion.setFromAxisAngle(new Vector3(1, 0, 0), tilt);
  // As AnimatedRagdoll keeps the bones it poses while active: their local matrices are its.
  bone.matrixAutoUpdate = false;
  bone.updateMatrix();
  shin.add(bone);
  const toe = new Bone();
  toe.position.set(0, 0, length);
  bone.add(toe);
  shin.updateMatrixWorld(true);
  return { shin, bone, toe };
}

const tip = (toe: Bone) => new Vector3().setFromMatrixPosition(toe.matrixWorld);
const turnOf = (bone: Bone) => new Quaternion().setFromRotationMatrix(bone.matrixWorld);

describe('resting hands and feet on colliders', () => {
  it('lifts a toe 60° into the floor by the least turn, about the ankle, to 2 mm above it; half a share turns half as far; out of the floor, nothing', () => {
    // Ankle 5 cm up, a 20 cm foot 60° down: the toe at 5 − 20·sin 60° = −12.3 cm. The least turn brings the
    // foot to asin((0.2 cm − 5 cm) / 20 cm) = −13.9° below the horizontal: 46.1° about the ankle's side axis.
    const floor = [makeCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 })];
    const { bone, toe } = foot(0.05, 0.2, Math.PI / 3);
    const rest = new ExtremityRest([{ bone, points: extremityPoints(bone, undefined) }]);
    const before = turnOf(bone);
    rest.update(floor, new Float64Array([1]));
    expect(tip(toe).y).toBeCloseTo(0.002, 9);
    expect(tip(toe).x).toBeCloseTo(0, 12);
    expect(new Vector3().setFromMatrixPosition(bone.matrixWorld).toArray()).toEqual([0, 0.05, 0]);
    const least = Math.PI / 3 + Math.asin((0.002 - 0.05) / 0.2);
    expect(turnOf(bone).angleTo(before)).toBeCloseTo(least, 9);
    // The local matrix agrees with the world one (three.js rebuilds the world matrices from it before rendering),
    // and the bone's quaternion stays the animation's.
    bone.updateMatrixWorld(true);
    expect(tip(toe).y).toBeCloseTo(0.002, 9);
    expect(bone.quaternion.angleTo(new Quaternion().setFromAxisAngle(new Vector3(1, 0, 0), Math.PI / 3))).toBe(0);

    rest.restore();
    bone.updateMatrixWorld(true);
    rest.update(floor, new Float64Array([0.5]));
    expect(turnOf(bone).angleTo(before)).toBeCloseTo(least / 2, 9);

    const above = foot(0.25, 0.2, Math.PI / 3);
    const untouched = new ExtremityRest([{ bone: above.bone, points: extremityPoints(above.bone, undefined) }]);
    const matrix = above.bone.matrixWorld.clone();
    untouched.update(floor, new Float64Array([1]));
    expect(above.bone.matrixWorld.equals(matrix)).toBe(true);
  });

  it('rests on a box, a sphere, a capsule and a slope as on a floor: the toe on the surface it entered', () => {
    // Each solid's top passes near the ankle at y = 0; the slope is a plane tilted 20° about x, rising along +z.
    const tilt = (20 * Math.PI) / 180;
    // The last number: how far above the surface the toe lands (m), measured.
    const shapes: [string, ColliderShape, (p: Vector3) => number, number][] = [
      ['box', { type: 'box', min: [-1, -1, -1], max: [1, 0, 1] }, (p) => p.y, 0.002],
      ['sphere', { type: 'sphere', position: [0, -5, 0.2], radius: 5 }, (p) => p.distanceTo(new Vector3(0, -5, 0.2)) - 5, 0.0047],
      ['capsule', { type: 'capsule', a: [-1, -3, 0.2], b: [1, -3, 0.2], radius: 3 }, (p) => Math.hypot(p.y + 3, p.z - 0.2) - 3, 0.0065],
      ['slope', { type: 'plane', normal: [0, Math.cos(tilt), -Math.sin(tilt)], offset: 0 }, (p) => p.y * Math.cos(tilt) - p.z * Math.sin(tilt), 0.002],
    ];
    for (const [name, shape, distance, measured] of shapes) {
      const { bone, toe } = foot(0.05, 0.2, Math.PI / 3);
      const rest = new ExtremityRest([{ bone, points: extremityPoints(bone, undefined) }]);
      rest.update([makeCollider(shape)], new Float64Array([1]));
      // The turn lifts the toe 2 mm above the plane tangent where the line from the ankle entered the solid; a
      // convex solid lies under its tangent planes, so the toe is at least that far out of it, and further above a
      // curved surface that falls away from the tangent (the 5 m sphere, the 3 m capsule).
      expect(distance(tip(toe)), name).toBeGreaterThanOrEqual(0.002 - 1e-12);
      expect(distance(tip(toe)), name).toBeCloseTo(measured, 4);
    }
  });

  it('allocates nothing per update', () => {
    const floor = [makeCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 })];
    const { bone } = foot(0.05, 0.2, Math.PI / 3);
    const rest = new ExtremityRest([{ bone, points: extremityPoints(bone, undefined) }]);
    const share = new Float64Array([0.7]);
    const frame = () => {
      rest.restore();
      bone.updateMatrixWorld(true);
      rest.update(floor, share);
    };
    for (let i = 0; i < 20_000; i++) frame();
    // Any object per update (a Vector3 is 56 bytes) would be over 500 kB.
    expect(
      leastAllocation(() => {
        for (let i = 0; i < 10_000; i++) frame();
      }),
    ).toBeLessThan(16 * 1024);
  });
});
