import { AnimationMixer } from 'three';
import { World } from '../../src/core/world.js';
import { AnimatedRagdoll, type AnimatedRagdollOptions } from '../../src/three/animatedRagdoll.js';
import { createTestHumanoid, createWalkClip, walkSpeed, type TestHumanoid } from 'sinew-physics/testing';

/** The test humanoid walking along +z on a floor, its ragdoll following the walk. */
export interface Walker {
  world: World;
  humanoid: TestHumanoid;
  mixer: AnimationMixer;
  character: AnimatedRagdoll;
  /** Seconds walked (and simulated). */
  time: number;
  /** One frame: the mixer, the root's walk, the ragdoll's follow, the step, the bones. */
  frame(dt?: number): void;
}

/**
 * A walker on the floor y = 0, started `start` seconds into its walk; with
 * `reusedSlots`, in the slots of a character built and removed first (its
 * particle ids carry a generation).
 */
export function walker(options: AnimatedRagdollOptions = {}, start = 0.3, reusedSlots = false): Walker {
  const world = new World({ sleep: false });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const humanoid = createTestHumanoid();
  const mixer = new AnimationMixer(humanoid.mesh);
  mixer.clipAction(createWalkClip()).play();
  mixer.update(start);
  if (reusedSlots) new AnimatedRagdoll(world, humanoid.root, options).remove();
  const character = new AnimatedRagdoll(world, humanoid.root, options);
  const w: Walker = {
    world,
    humanoid,
    mixer,
    character,
    time: 0,
    frame(dt = 1 / 60) {
      mixer.update(dt);
      // The root walks while the animation drives the body, and stops once the ragdoll has it.
      if (!character.active) humanoid.root.position.z += walkSpeed() * dt;
      character.follow(dt);
      world.advance(dt);
      character.pose();
      w.time += dt;
    },
  };
  return w;
}
