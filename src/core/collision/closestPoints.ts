/**
 * Closest-point routines (after Ericson, "Real-Time Collision Detection"), in
 * the Contact style: inputs and outputs go through a caller's Float64Array at
 * fixed offsets, because doubles passed to or returned from a call V8 does not
 * inline are boxed, and these run inside the relaxation loop. For the same
 * reason clamps are written out rather than called (a helper taking doubles
 * allocates about 9 kB a step).
 */

/** Below this squared length a segment counts as a point. */
const TINY = 1e-24;

/** Layout of {@link closestSegmentSegment}'s buffer. */
export const enum SegSeg {
  /** p1 xyz, q1 xyz: the first segment. */
  P1 = 0,
  /** p2 xyz, q2 xyz: the second segment. */
  P2 = 6,
  /** Out: parameter s on the first segment, 0 at p1. */
  S = 12,
  /** Out: parameter t on the second segment, 0 at p2. */
  T = 13,
  /** Out: squared distance between the closest points. */
  Dist2 = 14,
  /** In: where on the first segment to touch when the closest points form a stretch (parallel overlap), as a parameter. */
  Prefer = 15,
  Size = 16,
}

/**
 * Closest points of segments p1q1 and p2q2. For (near) parallel segments that
 * overlap, the closest pair is not unique: s is the point of the overlap nearest
 * to the preferred parameter buf[Prefer] (callers put a stick's mass centre
 * there, so the paper's section 5 weights translate a stick resting flat instead
 * of tipping it).
 */
export function closestSegmentSegment(buf: Float64Array): void {
  const d1x = buf[3]! - buf[0]!;
  const d1y = buf[4]! - buf[1]!;
  const d1z = buf[5]! - buf[2]!;
  const d2x = buf[9]! - buf[6]!;
  const d2y = buf[10]! - buf[7]!;
  const d2z = buf[11]! - buf[8]!;
  const rx = buf[0]! - buf[6]!;
  const ry = buf[1]! - buf[7]!;
  const rz = buf[2]! - buf[8]!;
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  let s = 0;
  let t = 0;
  if (a <= TINY && e <= TINY) {
    s = 0;
    t = 0;
  } else if (a <= TINY) {
    t = f / e;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
  } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= TINY) {
      s = -c / a;
      s = s < 0 ? 0 : s > 1 ? 1 : s;
    } else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = a * e - b * b;
      if (denom > 1e-12 * a * e) {
        s = (b * f - c * e) / denom;
        s = s < 0 ? 0 : s > 1 ? 1 : s;
      } else {
        // Parallel: the preferred point, kept within the overlap of segment 2's shadow on segment 1.
        const s0 = -c / a;
        const s1 = (b - c) / a;
        const lo = Math.max(0, Math.min(s0, s1));
        const hi = Math.min(1, Math.max(s0, s1));
        const prefer = buf[15]!;
        // Disjoint shadows: the end of segment 1 nearer to segment 2 (the fix-up below settles it).
        s = lo > hi ? (lo > 1 ? 1 : 0) : prefer < lo ? lo : prefer > hi ? hi : prefer;
      }
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = -c / a;
        s = s < 0 ? 0 : s > 1 ? 1 : s;
      } else if (t > 1) {
        t = 1;
        s = (b - c) / a;
        s = s < 0 ? 0 : s > 1 ? 1 : s;
      }
    }
  }
  const dx = rx + d1x * s - d2x * t;
  const dy = ry + d1y * s - d2y * t;
  const dz = rz + d1z * s - d2z * t;
  buf[SegSeg.S] = s;
  buf[SegSeg.T] = t;
  buf[SegSeg.Dist2] = dx * dx + dy * dy + dz * dz;
}

/** Layout of {@link closestPointTriangle}'s buffer. */
export const enum PointTri {
  /** p xyz: the point. */
  P = 0,
  /** a, b, c xyz: the triangle. */
  A = 3,
  B = 6,
  C = 9,
  /** Out: barycentric weights of the closest point for a, b and c (they sum to 1). */
  U = 12,
  V = 13,
  W = 14,
  /** Out: 1 when the closest point is inside the face, 0 on an edge or a vertex. */
  Interior = 15,
  Size = 16,
}

/** Closest point of triangle abc to p, as barycentric weights (Ericson 5.1.5, by Voronoi regions). */
export function closestPointTriangle(buf: Float64Array): void {
  const ax = buf[3]!;
  const ay = buf[4]!;
  const az = buf[5]!;
  const abx = buf[6]! - ax;
  const aby = buf[7]! - ay;
  const abz = buf[8]! - az;
  const acx = buf[9]! - ax;
  const acy = buf[10]! - ay;
  const acz = buf[11]! - az;
  const apx = buf[0]! - ax;
  const apy = buf[1]! - ay;
  const apz = buf[2]! - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) {
    buf[12] = 1;
    buf[13] = 0;
    buf[14] = 0;
    buf[15] = 0;
    return;
  }
  const bpx = buf[0]! - buf[6]!;
  const bpy = buf[1]! - buf[7]!;
  const bpz = buf[2]! - buf[8]!;
  const d3 = abx * bpx + aby * bpy + abz * bpz;
  const d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) {
    buf[12] = 0;
    buf[13] = 1;
    buf[14] = 0;
    buf[15] = 0;
    return;
  }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    {
      buf[12] = 1 - v;
      buf[13] = v;
      buf[14] = 0;
      buf[15] = 0;
      return;
    }
  }
  const cpx = buf[0]! - buf[9]!;
  const cpy = buf[1]! - buf[10]!;
  const cpz = buf[2]! - buf[11]!;
  const d5 = abx * cpx + aby * cpy + abz * cpz;
  const d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) {
    buf[12] = 0;
    buf[13] = 0;
    buf[14] = 1;
    buf[15] = 0;
    return;
  }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    {
      buf[12] = 1 - w;
      buf[13] = 0;
      buf[14] = w;
      buf[15] = 0;
      return;
    }
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    {
      buf[12] = 0;
      buf[13] = 1 - w;
      buf[14] = w;
      buf[15] = 0;
      return;
    }
  }
  const denom = va + vb + vc;
  if (denom <= 0) {
    buf[12] = 1;
    buf[13] = 0;
    buf[14] = 0;
    buf[15] = 0;
    return;
  } // degenerate triangle
  const v = vb / denom;
  const w = vc / denom;
  buf[12] = 1 - v - w;
  buf[13] = v;
  buf[14] = w;
  buf[15] = 1;
}
