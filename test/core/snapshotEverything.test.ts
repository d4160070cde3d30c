import { describe, expect, it } from 'vitest';
import * as core from '../../src/core/index.js';
import { Attachment, BodyAttachment, CoupledAttachment, CoupledBody, Springs, World, type KinematicCollider, type StickKernel } from '../../src/core/index.js';

// Snapshots of everything (issue 27, item 4): a run restored from a snapshot, or from a
// structured clone of one, repeats bit for bit, whatever the world holds.

const kernels: StickKernel[] = ['wasm', 'js'];

/** Every position of `world`, as raw bits. */
function bits(world: World): number[] {
  return Array.from(new Uint32Array(world.particles.position.slice(0, world.particles.end * 3).buffer));
}

/** Runs `steps` steps with `drive` before each; returns the positions after each step. */
function run(world: World, steps: number, drive: (w: World) => void): number[][] {
  const out: number[][] = [];
  for (let s = 0; s < steps; s++) {
    drive(world);
    world.step();
    out.push(bits(world));
  }
  return out;
}

/** Index of the first step whose positions differ, or -1. */
function firstDifference(a: number[][], b: number[][]): number {
  for (let s = 0; s < a.length; s++) if (a[s]!.length !== b[s]!.length || a[s]!.some((x, k) => x !== b[s]![k])) return s;
  return -1;
}

/**
 * Everything a world can hold at once: a spinning rigid box and a tetrahedron, a cloth with
 * solid triangles and self-collision, a rope, a ragdoll protected from tunnelling, a soft body,
 * particle collisions, angle and plane limits, springs, attachments to a moving object and to a
 * body, a kinematic collider moving along a path, a coupled body with a collider riding it and a
 * particle tied to it, sleep on. `drive` moves what the user moves before each step.
 */
function everything(kernel: StickKernel) {
  const world = new World({ kernel, sleep: true, seed: 7 });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  world.addCollider({ type: 'sphere', position: [1.5, 0.3, 0], radius: 0.3 });
  core.createBox(world, { position: [0, 0.6, 0], size: 0.3, angularVelocity: [1, 6, 2], velocity: [0.5, 2, 0] });
  core.createTetrahedron(world, { position: [0.3, 1.5, 0.1], size: 0.3, angularVelocity: [0, 3, 1] });
  const cloth = core.createCloth(world, { width: 6, height: 6, spacing: 0.1, corner: [-0.3, 1.4, -0.3], orientation: 'horizontal', radius: 0.02 });
  core.addSurfaceCollision(world, cloth.body);
  // A feature among the others here; its own state is put to the test in selfCollisionSnapshot.test.ts (a sheet whose
  // layers press on each other), where leaving any part of it out of the snapshot shows.
  core.enableSelfCollision(world, cloth.body, { thickness: 0.02, edges: true });
  const rope = core.createRope(world, { from: [1, 2, 0], to: [2, 2, 0], segments: 6, pinStart: true });
  const doll = core.createRagdoll(world, { feet: [-1, 0.5, 0] });
  core.protectFromTunnelling(world, doll.body);
  core.createSoftBody(world, { position: [-1.5, 1, 1], size: 0.3 });
  core.enableParticleCollisions(world);
  const loose = [0, 1, 2].map((k) => world.addParticle({ position: [2 + k * 0.2, 1 + k * 0.1, 1], radius: 0.05 }));
  core.addAngleConstraint(world, loose[0]!, loose[1]!, loose[2]!, { min: 2, max: Math.PI });
  core.addPlaneConstraint(world, loose, { normal: [0, 0, 1], offset: 1 });
  const springs = new Springs(world);
  world.addForce(springs);
  springs.add(loose[0]!, rope.body.first + 3, { stiffness: 20 });
  const held = new Attachment(world, [loose[2]!], { position: [2.5, 1.5, 1] });
  new BodyAttachment(world, [rope.body.first + 6], [cloth.body.first]);
  const platform = world.addCollider({ type: 'obb', position: [0, 0.1, 1.5], halfExtents: [0.4, 0.05, 0.4], kinematic: true });
  world.addParticle({ position: [0, 0.5, 1.5], radius: 0.05 });
  const coupled = new CoupledBody(world, { mass: 3, inverseInertia: 2 });
  const ball = world.getCollider(world.addCollider({ type: 'sphere', radius: 0.2, kinematic: true, body: coupled })) as KinematicCollider;
  new CoupledAttachment(world, world.addParticle({ position: [-2, 1.2, -1] }), coupled);
  const drive = (w: World) => {
    const t = w.stepCount / 60;
    w.setColliderPose(platform, [Math.sin(t), 0.1 + 0.05 * t, 1.5], [0, Math.sin(t / 2), 0, Math.cos(t / 2)]);
    held.setPose([2.5 + 0.3 * Math.sin(3 * t), 1.5, 1], [0, 0, 0, 1]);
    const from: [number, number, number] = [-2, 1.5 - 0.1 * t, -1];
    const to: [number, number, number] = [-2, 1.5 - 0.1 * (t + 1 / 60), -1];
    coupled.setStep(from, [0, 0, 0, 1], to, [0, 0, 0, 1]);
    ball.followPath(from, [0, 0, 0, 1], to, [0, 0, 0, 1]);
  };
  return { world, drive };
}

describe('a snapshot repeats any run bit for bit', () => {
  for (const kernel of kernels) {
    it(`a spinning rigid box, restored from a snapshot into its world or (structured-cloned) into a world built the same way, turns on as it did (${kernel})`, () => {
      const spinning = () => {
        const world = new World({ kernel, gravity: [0, 0, 0] });
        core.createBox(world, { position: [0, 1, 0], size: 0.4, angularVelocity: [1, 6, 2] });
        return world;
      };
      const world = spinning();
      run(world, 20, () => {});
      const snap = world.snapshot();
      const first = run(world, 30, () => {});
      world.restore(snap);
      expect(
        firstDifference(
          run(world, 30, () => {}),
          first,
        ),
      ).toBe(-1);
      // The rigid motion's last turn (the warm start of its next fit) is in the snapshot: a fresh world has none of its own.
      const copy = spinning();
      copy.restore(structuredClone(snap));
      expect(
        firstDifference(
          run(copy, 30, () => {}),
          first,
        ),
      ).toBe(-1);
    });

    it(`a world with every kind of body, constraint, attachment, kinematic and coupled collider, sleep, contacts and self-collision (${kernel})`, () => {
      const { world, drive } = everything(kernel);
      run(world, 40, drive);
      const snap = structuredClone(world.snapshot());
      const first = run(world, 60, drive);
      world.restore(snap);
      expect(firstDifference(run(world, 60, drive), first)).toBe(-1);
      const copy = everything(kernel);
      copy.world.restore(snap);
      expect(firstDifference(run(copy.world, 60, copy.drive), first)).toBe(-1);
    });
  }
});
