import type { ParticleStore } from '../particles.js';
import { BodyContact, distanceToWeights } from './bodyContactTests.js';
import { closestPointTriangle, closestSegmentSegment } from './closestPoints.js';

// A capsule edge against a solid cloth's triangle, one of the body contact tests
// (bodyContactTests.ts has the buffer layout and the others). closestPoints.ts's
// SegSeg and PointTri layouts as plain numbers: a const enum imported from
// another module is a property load per use under vitest's module runner.
const SS_PREFER = 15;
const SS_S = 12;
const SS_T = 13;
const SS_DIST2 = 14;
const PT_A = 3;
const PT_B = 6;
const PT_C = 9;
const PT_U = 12;
const PT_V = 13;
const PT_W = 14;
const PT_INTERIOR = 15;

const segSeg = new Float64Array(16);
const tri = new Float64Array(16);

/**
 * Segment ab of radius `c[Reach]` against the particle triangle (ta, tb, tc), for
 * a solid cloth: the closest points of the two (an end against the face, the
 * segment against an edge, or where it pierces the face) push them apart.
 * Like a static collider against a solid face, the segment is kept on the side
 * of the triangle it was on when the substep began (judged from the previous
 * positions), so a limb that crossed a thin cloth in one substep is brought
 * back, not pushed on through. Side A is the segment.
 */
export function segmentTriangle(particles: ParticleStore, a: number, b: number, ta: number, tb: number, tc: number, c: Float64Array, ids: Int32Array): boolean {
  const radius = c[BodyContact.Reach]!;
  const pos = particles.position;
  const q = tri;
  for (let k = 0; k < 3; k++) {
    q[PT_A + k] = pos[ta * 3 + k]!;
    q[PT_B + k] = pos[tb * 3 + k]!;
    q[PT_C + k] = pos[tc * 3 + k]!;
  }
  const e1x = q[6]! - q[3]!;
  const e1y = q[7]! - q[4]!;
  const e1z = q[8]! - q[5]!;
  const e2x = q[9]! - q[3]!;
  const e2y = q[10]! - q[4]!;
  const e2z = q[11]! - q[5]!;
  let nx = e1y * e2z - e1z * e2y;
  let ny = e1z * e2x - e1x * e2z;
  let nz = e1x * e2y - e1y * e2x;
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (nl === 0) return false;
  nx /= nl;
  ny /= nl;
  nz /= nl;
  const sa = nx * (pos[a * 3]! - q[3]!) + ny * (pos[a * 3 + 1]! - q[4]!) + nz * (pos[a * 3 + 2]! - q[5]!);
  const sb = nx * (pos[b * 3]! - q[3]!) + ny * (pos[b * 3 + 1]! - q[4]!) + nz * (pos[b * 3 + 2]! - q[5]!);
  // Both ends a radius or more to one side of the plane: too far from the triangle (most candidates end here).
  if ((sa >= radius && sb >= radius) || (sa <= -radius && sb <= -radius)) return false;
  // Candidates: each end against the face, the segment against each edge, the piercing point.
  let best = Infinity;
  let bs = 0;
  let bu = 0;
  let bv = 0;
  let bw = 0;
  for (let end = 0; end < 2; end++) {
    const p = (end === 0 ? a : b) * 3;
    for (let k = 0; k < 3; k++) q[k] = pos[p + k]!;
    closestPointTriangle(q);
    const d2 = distanceToWeights(q, q[0]!, q[1]!, q[2]!);
    if (d2 < best) {
      best = d2;
      bs = end;
      bu = q[PT_U]!;
      bv = q[PT_V]!;
      bw = q[PT_W]!;
    }
  }
  const s = segSeg;
  for (let e = 0; e < 3; e++) {
    const from = 3 + e * 3;
    const to = 3 + ((e + 1) % 3) * 3;
    for (let k = 0; k < 3; k++) {
      s[k] = pos[a * 3 + k]!;
      s[3 + k] = pos[b * 3 + k]!;
      s[6 + k] = q[from + k]!;
      s[9 + k] = q[to + k]!;
    }
    s[SS_PREFER] = 0.5;
    closestSegmentSegment(s);
    if (s[SS_DIST2]! < best) {
      best = s[SS_DIST2]!;
      bs = s[SS_S]!;
      const w = s[SS_T]!;
      // Weights of the edge point on corners e and e + 1.
      bu = e === 0 ? 1 - w : e === 2 ? w : 0;
      bv = e === 0 ? w : e === 1 ? 1 - w : 0;
      bw = e === 1 ? w : e === 2 ? 1 - w : 0;
    }
  }
  if (best > 0 && ((sa > 0 && sb < 0) || (sa < 0 && sb > 0))) {
    const f = sa / (sa - sb);
    for (let k = 0; k < 3; k++) q[k] = pos[a * 3 + k]! + (pos[b * 3 + k]! - pos[a * 3 + k]!) * f;
    closestPointTriangle(q);
    if (q[PT_INTERIOR] === 1) {
      best = 0;
      bs = f;
      bu = q[PT_U]!;
      bv = q[PT_V]!;
      bw = q[PT_W]!;
    }
  }
  if (best >= radius * radius) return false;
  // The segment point and the triangle point, now and when the substep began.
  const px = pos[a * 3]! + (pos[b * 3]! - pos[a * 3]!) * bs;
  const py = pos[a * 3 + 1]! + (pos[b * 3 + 1]! - pos[a * 3 + 1]!) * bs;
  const pz = pos[a * 3 + 2]! + (pos[b * 3 + 2]! - pos[a * 3 + 2]!) * bs;
  const qx = bu * q[3]! + bv * q[6]! + bw * q[9]!;
  const qy = bu * q[4]! + bv * q[7]! + bw * q[10]!;
  const qz = bu * q[5]! + bv * q[8]! + bw * q[11]!;
  const side = startSide(particles, a, b, bs, ta, tb, tc);
  const now = nx * (px - qx) + ny * (py - qy) + nz * (pz - qz);
  const interior = bu > 0 && bv > 0 && bw > 0;
  let depth: number;
  if (interior || now * side < 0) {
    // Over the face, or crossed: out along the normal, to the side it started on.
    const h = now * side;
    c[BodyContact.Normal] = nx * side;
    c[BodyContact.Normal + 1] = ny * side;
    c[BodyContact.Normal + 2] = nz * side;
    depth = radius - h;
  } else {
    if (best === 0) return false;
    const d = Math.sqrt(best);
    c[BodyContact.Normal] = (px - qx) / d;
    c[BodyContact.Normal + 1] = (py - qy) / d;
    c[BodyContact.Normal + 2] = (pz - qz) / d;
    depth = radius - d;
  }
  c[BodyContact.Depth] = depth;
  c[BodyContact.Count] = 5;
  ids[0] = a;
  ids[1] = b;
  ids[2] = ta;
  ids[3] = tb;
  ids[4] = tc;
  c[BodyContact.Coef] = 1 - bs;
  c[BodyContact.Coef + 1] = bs;
  c[BodyContact.Coef + 2] = -bu;
  c[BodyContact.Coef + 3] = -bv;
  c[BodyContact.Coef + 4] = -bw;
  return true;
}

/** ±1: the side of triangle (ta, tb, tc) segment point `s` of ab was on at the start of the substep. */
function startSide(particles: ParticleStore, a: number, b: number, s: number, ta: number, tb: number, tc: number): number {
  const prev = particles.previous;
  const A = ta * 3;
  const B = tb * 3;
  const C = tc * 3;
  const ex = prev[B]! - prev[A]!;
  const ey = prev[B + 1]! - prev[A + 1]!;
  const ez = prev[B + 2]! - prev[A + 2]!;
  const fx = prev[C]! - prev[A]!;
  const fy = prev[C + 1]! - prev[A + 1]!;
  const fz = prev[C + 2]! - prev[A + 2]!;
  const px = prev[a * 3]! + (prev[b * 3]! - prev[a * 3]!) * s - prev[A]!;
  const py = prev[a * 3 + 1]! + (prev[b * 3 + 1]! - prev[a * 3 + 1]!) * s - prev[A + 1]!;
  const pz = prev[a * 3 + 2]! + (prev[b * 3 + 2]! - prev[a * 3 + 2]!) * s - prev[A + 2]!;
  return (ey * fz - ez * fy) * px + (ez * fx - ex * fz) * py + (ex * fy - ey * fx) * pz >= 0 ? 1 : -1;
}
