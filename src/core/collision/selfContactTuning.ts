/**
 * Every tuning constant of self-collision, each with its reason. The design
 * they tune is in docs/self-collision.md.
 */

/**
 * The skin of the pair list, in thicknesses: a listing takes the pairs within
 * the thickness plus this much, and holds for a particle until it has moved
 * (relative to the body) half this far. A thicker skin lists more pairs and
 * lists less often.
 */
export const SKIN = 1;

/**
 * The skin of a body listed without triangles (particle pairs alone), in
 * thicknesses: thinner, since its strays are listed again alone, cheaply, and
 * a pile of it holds fewer pairs each pass looks over.
 */
export const PAIRS_SKIN = 0.5;

/**
 * A listing takes only the particles that strayed (moved half the skin since
 * they were listed) while they are at most this share of the body's; more, and
 * a whole listing is cheaper than their own queries. A whole listing also fits
 * the grid's box to the body again, which the listings of strays keep.
 */
export const STRAYS_ALONE = 0.15;

/**
 * Barycentric slack: a particle this far (in weight) past a triangle's edge
 * still counts as over it, so none slips between two triangles that share an
 * edge.
 */
export const OVER_EDGE = 1e-3;

/**
 * Triangles are listed only where the thickness is below this many times the
 * surface's largest circumradius (at rest, when self-collision is enabled).
 * Every point of a triangle lies within its circumradius of a corner, so a
 * particle kept a thickness at least that from every other cannot pass
 * through a triangle without first meeting a corner: particle pairs hold it
 * alone, at a fraction of the cost (the Ten Minute Physics cloth, thickness
 * = spacing = 1.41 circumradii). The margin covers triangles stretched
 * beyond their rest shape.
 */
export const PAIRS_SUFFICE = 1.25;

/**
 * Relaxation passes in a row a particle may be found through its triangle and
 * brought back before it takes the side it is on (five frames at sinew's
 * defaults). A layer thrown through another is brought back in a pass or two;
 * one found through pass after pass is held there by the sticks (over two
 * neighbouring triangles with opposite sides, in a crumple pressed thinner than
 * the thickness), and bringing it back for ever shook thin cloths lying on the
 * floor at up to 2.7 m/s. Ten let thrown 1 mm layers through; 20 to 50 calmed
 * the cloths alike (docs/self-collision.md).
 */
export const STUCK_PASSES = 50;
