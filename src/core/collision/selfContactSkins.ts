/**
 * How near (in thicknesses, plus both reaches) a pair must be when picked to be
 * projected until the next pick. More than 1: the reaches are estimates from
 * the latest substep, and a particle that a collision or a stick turns mid-step
 * can move further. (Measured, picking before every step: at 1 the layers of
 * the folded sheet in particleCollisions.test.ts close to 0.75 of the thickness
 * while landing.) A kept pick leaves ACTIVE_SKIN - PICK_SLACK of it: a pair left
 * out is a quarter of a thickness beyond touching, plus the reaches. (Measured
 * against 2: the fold of selfCollision.test.ts thrown down at 0, 1 and 4 m/s
 * comes as near, 0.97, 0.96 and 0.23 of the thickness at its lowest, and the
 * draped 64² cloth projects about a fifth fewer pairs.)
 */
export const ACTIVE_SKIN = 1.75;

/**
 * How far (in thicknesses) each particle may move relative to the body, beyond
 * the reach it was picked with, before its body's pairs are picked again: a
 * pick is kept while no particle has moved more than half of it (a pair left
 * out was then at least ACTIVE_SKIN - PICK_SLACK thicknesses plus both
 * reaches apart), so a sheet at rest is picked once.
 */
export const PICK_SLACK = 0.5;
