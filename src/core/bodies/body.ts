import type { HullShape } from '../collision/hull.js';
import type { BodyId, ConstraintId, ParticleId } from '../ids.js';

/**
 * A body: a named, contiguous range of particle ids that belongs together (a
 * cloth, a rope, a rigid box, a ragdoll). The world keeps a registry of bodies
 * so it can remove them whole, give them their own relaxation iteration count
 * (the paper: 1 to 10 depending on the object) and put them to sleep together.
 */
export interface BodyRecord {
  /**
   * The body's slot in the world's body list (`world.bodies[id]`). A removed
   * body's slot goes to the next body added, so that a world's cost never grows
   * with how many bodies it has seen: hold the record, not the number.
   */
  readonly id: BodyId;
  /** A number no other body of this world ever had (snapshots name bodies by it). */
  readonly serial: number;
  /** Kind of builder that made it, e.g. `'cloth'`. */
  readonly kind: string;
  /** First particle id of the range. */
  readonly first: ParticleId;
  /** Number of particles in the range. */
  readonly count: number;
  /**
   * Relaxation passes per substep for this body's constraints; `undefined` uses
   * the world's `iterations`.
   */
  iterations: number | undefined;
  /** Constraint ids created for this body (removed with it). */
  readonly constraints: ConstraintId[];
  /** False once removed. */
  alive: boolean;
  /**
   * Where the body's own particles lie in a flat rest layout (xyz per particle
   * of the range), for bodies whose straight rest distances are distances
   * along the body (a cloth made flat): long-range attachments measure their
   * lengths on it rather than along the sticks' zigzag (see `Tethers`).
   */
  restLayout?: Float64Array;
  /**
   * The strain beyond which the body's sticks break (a cloth's `tearStrain`);
   * undefined: they never do. A drag holds such a body rigidly, so that it can
   * be torn (see `dragSpring`).
   */
  tearStrain?: number;
  /** Triangles of the body's surface, for wind and rendering (cloth, plants, soft bodies). */
  surface?: Surface;
  /**
   * Which other bodies this one collides with: 16-bit memberships above a 16-bit
   * filter, as Rapier packs `collisionGroups` (see `collisionGroups()`); undefined
   * collides with every body. Set it with `setCollisionGroups`, which checks it.
   */
  collisionGroups?: number;
  /**
   * What other bodies collide with besides this body's particles (each a ball of
   * its radius): `'surface'`, the triangles of `surface` as well, so that a limb,
   * a box edge or a rope cannot pass between the particles (a cloth's default);
   * `'chain'`, the segments between consecutive particles, each a capsule of its
   * ends' radius, against other bodies' surfaces (a rope's default); undefined,
   * the particles alone. It may be changed at any time; the change holds from the
   * next step.
   */
  collideAs?: 'surface' | 'chain';
  /** The convex hull the body collides with other bodies as (`addBodyHull`; read it with `hullOf`): kept on the record, so that it goes with it. */
  hull?: HullShape;
  /** Builder-specific cleanup run by `world.remove(body)` before the particles go. */
  readonly onRemove: (() => void)[];
}

/**
 * A triangulated surface over particle slots: `triangles[3k..3k+2]` are the
 * slots of triangle k's particles (`world.particleId(slot)` gives an id), for k < `triangleCount`. Builders update it in place
 * (e.g. when cloth tears), so readers must use `triangleCount`, not the length.
 */
export interface Surface {
  /** Particle slots, three per triangle; only the first `triangleCount` triangles are in use. */
  triangles: Uint32Array;
  /** Triangles in use. */
  triangleCount: number;
}

/** What {@link World.addBody} takes. */
export interface BodyOptions {
  /** Kind of builder that made the body, e.g. `'cloth'`; default `'body'`. */
  kind?: string;
  /** Relaxation passes per substep for this body's constraints (default: the world's). */
  iterations?: number;
}
