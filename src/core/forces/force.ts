import type { World } from '../world.js';

/**
 * A force generator, added with `world.addForce`. The solver calls
 * {@link Force.apply} at the start of every substep, before integration, so a
 * force that depends on positions or velocities (a spring, drag) sees the
 * current substep's state (while any body sleeps it is also called once at the
 * start of each step, to see whether its force wakes one). Must not allocate: it
 * runs every substep.
 */
export interface Force {
  /**
   * Adds this substep's forces: add newtons to `world.particles.force` (xyz
   * interleaved) or call `world.applyForce`; inside `apply` both act on the
   * current substep only (the next substep calls `apply` again).
   */
  apply(world: World): void;
}
