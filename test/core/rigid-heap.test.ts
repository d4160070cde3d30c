import { describe, expect, it } from 'vitest';
import { addAngleConstraint, addPlaneConstraint, createBox, createRagdoll, createTetrahedron, hinge, World } from '../../src/core/index.js';
import { leastAllocation } from '../support/heap.js';

describe('rigid bodies, joints and ragdolls in the step loop', () => {
  it('allocate nothing: 4,000 steps with transform and limb-frame read-back leave the heap flat', () => {
    // Sleep off: every body stays in the solver's work for the whole run.
    const world = new World({ sleep: false });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const ragdoll = createRagdoll(world, { feet: [0, 0.5, 0], pose: 'T' });
    // One with the opt-in elbow hinges and shoulder twist limits (finite-difference gradients over scratch arrays).
    createRagdoll(world, { feet: [0, 0.5, 2.5], pose: 'T', elbowHinges: true });
    const crate = createBox(world, { size: [0.6, 0.4, 0.5], position: [1.5, 1, 0], angularVelocity: [1, 2, 0] });
    const lid = createBox(world, { size: [0.6, 0.05, 0.5], position: [1.5, 1.225, 0.5], shared: hinge(crate, [6, 7], [0, 1]) });
    const tetra = createTetrahedron(world, { size: 0.4, position: [-1.5, 1, 0] });
    // A tetrahedron kept on the plane z = -1, and a pendulum held inside an angle range.
    const flat = createTetrahedron(world, { size: 0.3, position: [0, 1, -1] });
    addPlaneConstraint(world, flat.vertices, { normal: [0, 0, 1], offset: -1, mode: 'above' });
    const anchor = world.addParticle({ position: [3, 2, 0], mass: 0 });
    const elbow = world.addParticle({ position: [3.3, 2, 0] });
    const hand = world.addParticle({ position: [3.6, 2, 0] });
    world.addStick(anchor, elbow);
    world.addStick(elbow, hand);
    const top = world.addParticle({ position: [3, 3, 0], mass: 0 });
    addAngleConstraint(world, top, anchor, elbow, { min: 1, max: 2.5 });
    addAngleConstraint(world, anchor, elbow, hand, { min: 1.5, hinge: { axis: [anchor, top], tolerance: 0.05, sideways: 0.3 } });
    // Swing the ragdoll by its hand so it never comes to rest (a force written in
    // place: setPinTarget and hit take fresh tuples, the world's API, not this code's).
    const grip = ragdoll.part('rightHand');
    // The clock lives in a typed array: a double reassigned in a closure is boxed anew each time.
    const clock = new Float64Array(1);
    world.addForce({
      apply(w) {
        const t = (clock[0] = clock[0]! + w.timeStep);
        w.particles.force[grip * 3] = w.particles.force[grip * 3]! + 400 * Math.sin(t * 2);
        w.particles.force[grip * 3 + 1] = w.particles.force[grip * 3 + 1]! + 300;
        w.particles.force[grip * 3 + 2] = w.particles.force[grip * 3 + 2]! + 400 * Math.cos(t * 3);
      },
    });
    const bodies = [crate, lid, tetra, flat];
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) {
        world.step();
        for (let b = 0; b < bodies.length; b++) bodies[b]!.update();
        ragdoll.updateFrames();
      }
    };
    // Warm up the same call sites: the first calls allocate JIT feedback and code, not garbage.
    run(3000);
    // 4,000 steps at even 16 bytes each would allocate 64 kB.
    expect(leastAllocation(() => run(4000))).toBeLessThan(16 * 1024);
    // The scene is still moving at the end: the ragdoll swung by its hand.
    expect(Math.hypot(...world.getVelocity(grip))).toBeGreaterThan(0.1);
    expect(lid.vertices[0]).toBe(crate.vertices[6]);
  }, 120_000);

  it("allocate nothing while a ragdoll's own passes run: landing on its head at 5 m/s, again and again", () => {
    const world = new World({ sleep: false });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    // Upside down, the crown 2 cm above the ground.
    const ragdoll = createRagdoll(world, { feet: [0, 0.02 + 0.99 * 1.8, 0], rotation: [1, 0, 0, 0] });
    const first = ragdoll.first;
    const count = ragdoll.count;
    const start = world.particles.position.slice(first * 3, (first + count) * 3);
    const h = world.substep;
    /** Puts the ragdoll back above the ground moving down at 5 m/s, writing the arrays (the setters allocate). */
    const relaunch = () => {
      const p = world.particles.position;
      const q = world.particles.previous;
      for (let k = 0; k < count * 3; k++) {
        p[first * 3 + k] = start[k]!;
        q[first * 3 + k] = start[k]! + (k % 3 === 1 ? 5 * h : 0);
      }
    };
    let worstBone = 0;
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) {
        if (i % 30 === 0) relaunch();
        world.step();
      }
    };
    run(600);
    expect(leastAllocation(() => run(3000))).toBeLessThan(16 * 1024);
    // The passes did run: the head's bone stays within 2% (one pass per substep: 21% short).
    for (let i = 0; i < 30; i++) {
      if (i === 0) relaunch();
      world.step();
      const limb = ragdoll.limbs[0]!;
      const a = world.getPosition(limb.from);
      const b = world.getPosition(limb.to);
      worstBone = Math.max(worstBone, Math.abs(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / world.sticks.rest[world.stickRow(limb.stick)]! - 1));
    }
    expect(worstBone).toBeGreaterThan(0.001);
    expect(worstBone).toBeLessThan(0.02);
  }, 120_000);
});
