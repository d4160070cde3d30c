import type { World } from '../world.js';

/**
 * A user fix-up run inside the relaxation loop, after the sticks and before the
 * colliders and pins, `iterations` times per substep (the paper: "one simply adds
 * the corresponding fix-up code to the relaxation loop"). Move particles by writing
 * `world.particles.position`; respect `world.particles.inverseMass` (0 = immovable).
 */
export interface Constraint {
  /** Moves the particles so the constraint holds (or closer to it); called every relaxation pass. Must not allocate. */
  project(world: World): void;
  /**
   * How many constraints this object holds, for `world.constraintCount`; a
   * table of many rows reports its row count (so an empty table counts 0).
   * Default 1.
   */
  readonly constraintCount?: number;
  /**
   * Reports the inextensible links this constraint holds (particle pairs that
   * can never be farther apart than `length`, such as a zero-length
   * attachment), so that long-range attachments reach through them (see
   * `Tethers`). Called only when the links are measured again.
   */
  tetherLinks?(link: (a: number, b: number, length: number) => void): void;
  /** Changes whenever the links {@link Constraint.tetherLinks} reports change (one broke, say). */
  readonly tetherVersion?: number;
}
