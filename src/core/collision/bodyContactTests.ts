import type { ParticleStore } from '../particles.js';
import { closestSegmentSegment } from './closestPoints.js';
import { solidPairs, type SolidPairs } from './solidPairs.js';

/*
 * The narrow phase between bodies: each test looks at two features of two
 * bodies (a particle, a capsule edge, a convex hull, a cloth's triangle) and,
 * when they overlap, writes one contact into a {@link BodyContact} buffer:
 *   [0..2]  the unit normal, the way side A must move (side B moves against it)
 *   [3]     the depth to remove along it (m)
 *   [4]     how many particles take part (up to 6)
 *   [5..10] each one's coefficient: where the contact point sits on its feature
 *           (1 - t and t on a segment, barycentric weights on a triangle),
 *           positive on side A, negative on side B
 * and the particle ids into an Int32Array beside it. The contact constraint is
 * Σ cᵢ (xᵢ · n) ≥ its value plus the depth: the paper's section 5 for a point
 * inside a stick or a face, generalised to two moving features. A segment or a
 * point against a cloth's triangle is in segmentTriangleContact.ts, the tests
 * against a convex hull in hullTests.ts.
 * Doubles stay in typed arrays, the inputs too (`Reach`, `Prefer`): a double crossing a
 * call V8 does not inline is boxed, an allocation per call.
 */

/** Layout of a body contact buffer (see the comment above). */
export const enum BodyContact {
  Normal = 0,
  Depth = 3,
  Count = 4,
  Coef = 5,
  /** Input: how far apart the two features' surfaces are from their cores (the sum of their radii), m. */
  Reach = 11,
  /** Input: where on a segment to take the contact when the closest points are not unique (0 to 1). */
  Prefer = 12,
  Size = 13,
}

/**
 * The capsule tests as the body-contact stage calls them, once a world has a capsule edge
 * (`edgeSystem` hands them over), so that an app of cloths and ropes alone carries none of them.
 */
export interface CapsuleTests {
  pointSegment: typeof pointSegment;
  segmentSegment: typeof segmentSegment;
  /** The broad phase's listing of the pairs these test. */
  pairs: SolidPairs;
}

/** The capsule tests `edgeSystem` gives the body-contact stage. */
export const capsuleTests: CapsuleTests = { pointSegment, segmentSegment, pairs: solidPairs };

/** A fresh contact buffer with its id list. */
export function makeBodyContact(): { c: Float64Array; ids: Int32Array } {
  return { c: new Float64Array(BodyContact.Size), ids: new Int32Array(6) };
}

// closestPoints.ts's SegSeg layout as plain numbers (a const enum
// imported from another module is a property load per use under vitest's module runner).
const SS_PREFER = 15;
const SS_S = 12;
const SS_T = 13;
const SS_DIST2 = 14;

const segSeg = new Float64Array(16);
/**
 * Particle `p` (a ball of radius `c[Reach]` − the segment's radius: the caller
 * writes the sum) against segment ab: the nearest segment point pushes it out.
 * Side A is the particle.
 */
export function pointSegment(particles: ParticleStore, p: number, a: number, b: number, c: Float64Array, ids: Int32Array): boolean {
  const reach = c[BodyContact.Reach]!;
  const pos = particles.position;
  const pp = p * 3;
  const pa = a * 3;
  const pb = b * 3;
  const dx = pos[pb]! - pos[pa]!;
  const dy = pos[pb + 1]! - pos[pa + 1]!;
  const dz = pos[pb + 2]! - pos[pa + 2]!;
  const len2 = dx * dx + dy * dy + dz * dz;
  let t = len2 > 0 ? ((pos[pp]! - pos[pa]!) * dx + (pos[pp + 1]! - pos[pa + 1]!) * dy + (pos[pp + 2]! - pos[pa + 2]!) * dz) / len2 : 0.5;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ox = pos[pp]! - pos[pa]! - dx * t;
  const oy = pos[pp + 1]! - pos[pa + 1]! - dy * t;
  const oz = pos[pp + 2]! - pos[pa + 2]! - dz * t;
  const d2 = ox * ox + oy * oy + oz * oz;
  if (d2 >= reach * reach) return false;
  if (!normalFrom(ox, oy, oz, d2, dx, dy, dz, c)) return false;
  c[BodyContact.Depth] = reach - Math.sqrt(d2);
  c[BodyContact.Count] = 3;
  ids[0] = p;
  ids[1] = a;
  ids[2] = b;
  c[BodyContact.Coef] = 1;
  c[BodyContact.Coef + 1] = -(1 - t);
  c[BodyContact.Coef + 2] = -t;
  return true;
}

/**
 * Segment a1b1 against segment a2b2, `c[Reach]` the sum of their radii: the
 * closest points push apart. Side A is the first segment; `c[Prefer]` is where on
 * it to touch when the two lie parallel (its mass centre, so a limb lying along
 * another is lifted level).
 */
export function segmentSegment(particles: ParticleStore, a1: number, b1: number, a2: number, b2: number, c: Float64Array, ids: Int32Array): boolean {
  const reach = c[BodyContact.Reach]!;
  const pos = particles.position;
  const s = segSeg;
  for (let k = 0; k < 3; k++) {
    s[k] = pos[a1 * 3 + k]!;
    s[3 + k] = pos[b1 * 3 + k]!;
    s[6 + k] = pos[a2 * 3 + k]!;
    s[9 + k] = pos[b2 * 3 + k]!;
  }
  s[SS_PREFER] = c[BodyContact.Prefer]!;
  closestSegmentSegment(s);
  const d2 = s[SS_DIST2]!;
  if (d2 >= reach * reach) return false;
  const u = s[SS_S]!;
  const v = s[SS_T]!;
  const ox = s[0]! + (s[3]! - s[0]!) * u - s[6]! - (s[9]! - s[6]!) * v;
  const oy = s[1]! + (s[4]! - s[1]!) * u - s[7]! - (s[10]! - s[7]!) * v;
  const oz = s[2]! + (s[5]! - s[2]!) * u - s[8]! - (s[11]! - s[8]!) * v;
  if (!normalFrom(ox, oy, oz, d2, s[3]! - s[0]!, s[4]! - s[1]!, s[5]! - s[2]!, c)) return false;
  c[BodyContact.Depth] = reach - Math.sqrt(d2);
  c[BodyContact.Count] = 4;
  ids[0] = a1;
  ids[1] = b1;
  ids[2] = a2;
  ids[3] = b2;
  c[BodyContact.Coef] = 1 - u;
  c[BodyContact.Coef + 1] = u;
  c[BodyContact.Coef + 2] = -(1 - v);
  c[BodyContact.Coef + 3] = -v;
  return true;
}

/** Unit normal along (ox, oy, oz) of squared length d2, or across the segment (dx, dy, dz) when that is zero. */
function normalFrom(ox: number, oy: number, oz: number, d2: number, dx: number, dy: number, dz: number, c: Float64Array): boolean {
  if (d2 > 0) {
    const d = Math.sqrt(d2);
    c[0] = ox / d;
    c[1] = oy / d;
    c[2] = oz / d;
    return true;
  }
  // Centred on the other's axis: any direction across it will do; straight up when the segment is a point.
  const useX = Math.abs(dx) <= Math.abs(dy) && Math.abs(dx) <= Math.abs(dz);
  const px = useX ? 0 : -dy;
  const py = useX ? -dz : dx;
  const pz = useX ? dy : 0;
  const l = Math.sqrt(px * px + py * py + pz * pz);
  c[0] = l > 0 ? px / l : 0;
  c[1] = l > 0 ? py / l : 1;
  c[2] = l > 0 ? pz / l : 0;
  return true;
}
