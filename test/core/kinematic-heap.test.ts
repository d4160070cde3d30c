import { describe, expect, it } from 'vitest';
import { CoupledAttachment, CoupledBody, createCloth, createRope, World, type KinematicCollider } from '../../src/core/index.js';
import { leastAllocation } from '../support/heap.js';

// The step loop with kinematic colliders allocates nothing: a platform carrying a
// cloth back and forth and a capsule turning through it, every step.

describe('kinematic colliders: heap', () => {
  it('a moving, turning collider in contact allocates nothing per step', () => {
    const world = new World();
    const platform = world.getCollider(world.addCollider({ type: 'obb', position: [0, -0.05, 0], halfExtents: [1, 0.05, 1], kinematic: true })) as KinematicCollider;
    const paddle = world.getCollider(world.addCollider({ type: 'capsule', a: [-0.3, 0, 0], b: [0.3, 0, 0], radius: 0.05, kinematic: true })) as KinematicCollider;
    createCloth(world, { width: 8, height: 8, spacing: 0.08, orientation: 'horizontal', corner: [-0.3, 0.02, -0.3], radius: 0.02 });
    let n = 0;
    // The poses are written into the targets directly: setPose checks its input and allocates.
    const run = (steps: number) => {
      for (let s = 0; s < steps; s++) {
        n++;
        const t = n / 60;
        platform.targetPose[0] = 0.3 * Math.sin(t);
        paddle.targetPose[1] = 0.1;
        paddle.targetPose[4] = Math.sin(t);
        paddle.targetPose[6] = Math.cos(t);
        world.step();
      }
    };
    run(3000);
    expect(leastAllocation(() => run(4000))).toBeLessThan(16 * 1024);
    for (let i = 0; i < world.particleCount; i++) expect(world.getPosition(i)[1]).toBeGreaterThan(-0.01);
  }, 300_000);
});

describe('coupled bodies: heap', () => {
  it('a ball yielding to a cloth it lies in, and a rope tied to it, allocate nothing per step', () => {
    const world = new World();
    createCloth(world, { width: 8, height: 8, spacing: 0.08, orientation: 'horizontal', corner: [-0.28, 1, -0.28], pin: 'corners', radius: 0.02 });
    const body = new CoupledBody(world, { mass: 1, inverseInertia: 1 / (0.4 * 0.1 ** 2) });
    body.gravity[1] = -9.81;
    const ball = world.getCollider(world.addCollider({ type: 'sphere', radius: 0.1, kinematic: true, body })) as KinematicCollider;
    const rope = createRope(world, { from: [0, 1.5, 0], to: [0, 1.2, 0], segments: 4 });
    new CoupledAttachment(world, rope.last, body, { anchor: [0, 0.1, 0] });
    const start = ball.startPose;
    const end = ball.targetPose;
    const bodyStart = body.startPose;
    const bodyEnd = body.endPose;
    // The other engine's step, written into the paths directly (setStep and followPath check their input and allocate):
    // the ball stands where sinew left it, so it rests in the cloth, hanging from the rope too.
    const run = (steps: number) => {
      for (let s = 0; s < steps; s++) {
        for (let k = 0; k < 3; k++) bodyStart[k] = bodyEnd[k] = start[k] = end[k] = body.offset[k]! + bodyEnd[k]!;
        world.step();
      }
    };
    run(3000);
    expect(leastAllocation(() => run(4000))).toBeLessThan(16 * 1024);
    expect(body.yielded).toBe(true);
  }, 300_000);
});
