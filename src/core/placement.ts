import type { Vec3Like } from './math.js';

/**
 * Where a body or a collider is put: one word, naming one point, on every
 * builder, shape and component that takes it.
 *
 * `position` is the centre of what is placed, and the point its `rotation`
 * turns it about: the centre of a box, a ball, a soft body, a tetrahedron (its
 * centre of mass), a box or sphere collider. A shape given as points
 * (`createConvex`, a soft-body mesh) is placed by the [0, 0, 0] of its points,
 * as a three.js mesh places its geometry's origin: give points around their
 * centre to place them by it.
 *
 * A body placed by another point names that point instead: a cloth its
 * `corner` (particle (0, 0)), a plant its `root` (the foot it grows from), a
 * ragdoll its `feet` (the ground point between them); a rope is placed by its
 * two ends, `from` and `to`, and a capsule by `a` and `b`.
 *
 * @example
 * ```ts
 * createBox(world, { size: 0.5, position: [0, 1, 0] });     // centred 1 m up
 * createCloth(world, { width: 20, height: 20, corner: [-1, 2, 0] });
 * createRagdoll(world, { feet: [0, 0, 0] });                 // standing on the floor
 * ```
 */
export interface Placement {
  /** The centre of what is placed (see {@link Placement}). Default `[0, 0, 0]`. */
  position?: Vec3Like;
}
