import type { World } from '../world.js';

/**
 * Something that adds forces at the start of every step, before integration:
 * write into `world.particles.force` (newtons, xyz interleaved) or call
 * `world.applyForce`. Must not allocate: it runs every step.
 */
export interface Force {
  apply(world: World): void;
}
