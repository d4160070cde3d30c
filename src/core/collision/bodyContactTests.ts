import type { ParticleStore } from '../particles.js';
import { closestPointTriangle, closestSegmentSegment } from './closestPoints.js';
import { writeHullPlanes, type HullShape } from './hull.js';

/*
 * The narrow phase between bodies: each test looks at two features of two
 * bodies (a particle, a capsule edge, a convex hull, a solid triangle) and,
 * when they overlap, writes one contact into a {@link BodyContact} buffer:
 *   [0..2]  the unit normal, the way side A must move (side B moves against it)
 *   [3]     the depth to remove along it (m)
 *   [4]     how many particles take part (up to 6)
 *   [5..10] each one's coefficient: where the contact point sits on its feature
 *           (1 - t and t on a segment, barycentric weights on a triangle),
 *           positive on side A, negative on side B
 * and the particle ids into an Int32Array beside it. The contact constraint is
 * Σ cᵢ (xᵢ · n) ≥ its value plus the depth: the paper's section 5 for a point
 * inside a stick or a face, generalised to two moving features.
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

/** A fresh contact buffer with its id list. */
export function makeBodyContact(): { c: Float64Array; ids: Int32Array } {
  return { c: new Float64Array(BodyContact.Size), ids: new Int32Array(6) };
}

// closestPoints.ts's SegSeg and PointTri layouts as plain numbers (a const enum
// imported from another module is a property load per use under vitest's module runner).
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
 * Per particle, the hull face it was last pushed out through: `key` names the hull (its
 * body's serial), `face` the plane, `seen` the substep (`now` counts them). Kept by the caller.
 */
export interface FaceMemory {
  key: Int32Array;
  face: Int32Array;
  seen: Int32Array;
  now: number;
}

/** How close to a hull's face plane (m) a point counts as on it, not inside. */
const GRAZE = 1e-9;
/** Numbers per hull plane: unit normal xyz, offset now, offset when the substep began. */
const PLANE = 5;
/** Per hull plane: unit normal xyz and offsets (grown to the largest hull seen). */
let planes = new Float64Array(PLANE * 16);
/** Per hull plane: signed distances of a segment's ends. */
let ends = new Float64Array(2 * 16);

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

/**
 * Particle `p` against a convex hull grown by `c[Reach]` (the particle's radius
 * plus the hull's): inside every face plane it is pushed out through the face
 * it is least deep behind (the separating axis of a point and a convex solid).
 * The hull takes the push at the point below the particle on that face, with
 * the barycentric weights of the face's triangle there. Side A is the particle.
 */
export function pointHull(particles: ParticleStore, p: number, hull: HullShape, memory: FaceMemory, key: number, c: Float64Array, ids: Int32Array): boolean {
  const margin = c[BodyContact.Reach]!;
  if (!loadPlanes(particles, hull)) return false;
  const pos = particles.position;
  const x = pos[p * 3]!;
  const y = pos[p * 3 + 1]!;
  const z = pos[p * 3 + 2]!;
  const prev = particles.previous;
  const px = prev[p * 3]!;
  const py = prev[p * 3 + 1]!;
  const pz = prev[p * 3 + 2]!;
  const count = hull.planeTriangle.length;
  // Which face it goes out through, in this order:
  // 1. the face it went out through in the latest substep, while it is still inside that one:
  //    a corner resting on a box's top stays on the top, though a sideways drift of a
  //    millimetre makes a side nearer (a contact's normal persists, as engines keep manifolds);
  // 2. else the face it came in through this substep: of those it was outside of when the
  //    substep began, the one it crossed last (a cloth particle under a box near its edge came
  //    up through the bottom, though the side may be nearer);
  // 3. else (made inside) the least deep face: the separating axis of a point and a convex solid.
  // A point within GRAZE of a face plane (or beyond it) is on the surface, not inside.
  const remembered = memory.seen[p] !== undefined && memory.seen[p]! >= memory.now - 1 && memory.key[p] === key ? memory.face[p]! : -1;
  let depth = Infinity;
  let best = -1;
  let entry = 0;
  let latest = -Infinity;
  let through = -1;
  let kept = -1;
  let keptDepth = 0;
  for (let f = 0; f < count; f++) {
    const o = f * PLANE;
    const now = planes[o]! * x + planes[o + 1]! * y + planes[o + 2]! * z - planes[o + 3]!;
    const d = margin - now;
    if (d <= GRAZE) return false;
    if (f === remembered) {
      kept = f;
      keptDepth = d;
    }
    if (d < depth) {
      depth = d;
      best = f;
    }
    const before = planes[o]! * px + planes[o + 1]! * py + planes[o + 2]! * pz - planes[o + 4]!;
    const approach = before - now;
    if (before >= margin - GRAZE && approach > GRAZE && (before - margin) / approach > latest) {
      latest = (before - margin) / approach;
      entry = d;
      through = f;
    }
  }
  if (kept >= 0) {
    best = kept;
    depth = keptDepth;
  } else if (through >= 0) {
    best = through;
    depth = entry;
  }
  memory.seen[p] = memory.now;
  memory.key[p] = key;
  memory.face[p] = best;
  const o = best * PLANE;
  const s = margin - depth;
  c[BodyContact.Normal] = planes[o]!;
  c[BodyContact.Normal + 1] = planes[o + 1]!;
  c[BodyContact.Normal + 2] = planes[o + 2]!;
  c[BodyContact.Depth] = depth;
  ids[0] = p;
  c[BodyContact.Coef] = 1;
  return onFace(particles, hull, best, x - planes[o]! * s, y - planes[o + 1]! * s, z - planes[o + 2]! * s, 1, c, ids);
}

/**
 * Segment ab against a convex hull grown by `c[Reach]` (`margin`), where the segment dips in
 * between its ends: an edge of one box across an edge of another, or a limb
 * lying across a narrow box with both ends beyond it. Depth along the segment,
 * D(t) = min over faces of (margin − distance to the face), is concave and
 * piecewise linear: its peak is found by walking from t = 0 along the face that
 * limits it. Contacts at the ends themselves are the caller's (a point test at
 * each end), so a peak at an end, or no higher than the ends, is left to them.
 * `c[Prefer]` picks the point when the peak is a level stretch. Side A is the segment.
 */
export function segmentHull(particles: ParticleStore, a: number, b: number, hull: HullShape, c: Float64Array, ids: Int32Array): boolean {
  const margin = c[BodyContact.Reach]!;
  const prefer = c[BodyContact.Prefer]!;
  if (!loadPlanes(particles, hull)) return false;
  const pos = particles.position;
  const count = hull.planeTriangle.length;
  const ax = pos[a * 3]!;
  const ay = pos[a * 3 + 1]!;
  const az = pos[a * 3 + 2]!;
  const bx = pos[b * 3]!;
  const by = pos[b * 3 + 1]!;
  const bz = pos[b * 3 + 2]!;
  // Line f is margin − s_f(t) = ends[2f] + ends[2f + 1]·t.
  let act = -1;
  for (let f = 0; f < count; f++) {
    const o = f * PLANE;
    const sa = planes[o]! * ax + planes[o + 1]! * ay + planes[o + 2]! * az - planes[o + 3]!;
    const sb = planes[o]! * bx + planes[o + 1]! * by + planes[o + 2]! * bz - planes[o + 3]!;
    if (sa >= margin && sb >= margin) return false;
    ends[f * 2] = margin - sa;
    ends[f * 2 + 1] = sa - sb;
    if (act < 0 || ends[f * 2]! < ends[act * 2]! || (ends[f * 2] === ends[act * 2] && ends[f * 2 + 1]! < ends[act * 2 + 1]!)) act = f;
  }
  let depth0 = Infinity;
  let depth1 = Infinity;
  for (let f = 0; f < count; f++) {
    if (ends[f * 2]! < depth0) depth0 = ends[f * 2]!;
    if (ends[f * 2]! + ends[f * 2 + 1]! < depth1) depth1 = ends[f * 2]! + ends[f * 2 + 1]!;
  }
  const flat = 1e-12 * (1 + margin);
  let t = 0;
  let rising = -1;
  for (let step = 0; step < count && ends[act * 2 + 1]! > flat; step++) {
    const next = nextBreak(count, act, t);
    if (next < 0) {
      t = 1;
      break;
    }
    t = crossing(act, next);
    rising = act;
    act = next;
  }
  if (t >= 1) return false;
  if (ends[act * 2 + 1]! >= -flat) {
    // A level stretch: from t to where a falling line takes over.
    const next = nextBreak(count, act, t);
    const end = next < 0 ? 1 : crossing(act, next);
    t = prefer < t ? t : prefer > end ? end : prefer;
  } else if (rising >= 0 && Math.abs(ends[rising * 2 + 1]!) < -ends[act * 2 + 1]!) {
    // A kink, as deep by either face: push along the face the segment lies flatter against
    // (a box's edge resting on another box's top, its end flush with a side, is lifted, not shoved sideways).
    act = rising;
  }
  const depth = ends[act * 2]! + ends[act * 2 + 1]! * t;
  if (t <= 0 || depth <= 0 || depth <= (depth0 > depth1 ? depth0 : depth1) + flat) return false;
  const o = act * PLANE;
  const s = margin - depth;
  c[BodyContact.Normal] = planes[o]!;
  c[BodyContact.Normal + 1] = planes[o + 1]!;
  c[BodyContact.Normal + 2] = planes[o + 2]!;
  c[BodyContact.Depth] = depth;
  ids[0] = a;
  ids[1] = b;
  c[BodyContact.Coef] = 1 - t;
  c[BodyContact.Coef + 1] = t;
  const px = ax + (bx - ax) * t;
  const py = ay + (by - ay) * t;
  const pz = az + (bz - az) * t;
  return onFace(particles, hull, act, px - planes[o]! * s, py - planes[o + 1]! * s, pz - planes[o + 2]! * s, 2, c, ids);
}

/** The line that crosses below line `act` first after `t` (the one falling fastest on a tie), or -1. */
function nextBreak(count: number, act: number, t: number): number {
  const k = ends[act * 2 + 1]!;
  let best = -1;
  let bestT = Infinity;
  for (let g = 0; g < count; g++) {
    const kg = ends[g * 2 + 1]!;
    if (g === act || kg >= k) continue;
    let tg = (ends[g * 2]! - ends[act * 2]!) / (k - kg);
    if (tg < t) tg = t;
    if (tg > 1) continue;
    if (tg < bestT || (tg === bestT && kg < ends[best * 2 + 1]!)) {
      bestT = tg;
      best = g;
    }
  }
  return best;
}

/** Where lines `f` and `g` meet (t ≥ 0). */
function crossing(f: number, g: number): number {
  const t = (ends[g * 2]! - ends[f * 2]!) / (ends[f * 2 + 1]! - ends[g * 2 + 1]!);
  return t > 0 ? t : 0;
}

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

/** Squared distance from (x, y, z) to the triangle point with the weights in `q`. */
function distanceToWeights(q: Float64Array, x: number, y: number, z: number): number {
  const u = q[PT_U]!;
  const v = q[PT_V]!;
  const w = q[PT_W]!;
  const dx = u * q[3]! + v * q[6]! + w * q[9]! - x;
  const dy = u * q[4]! + v * q[7]! + w * q[10]! - y;
  const dz = u * q[5]! + v * q[8]! + w * q[11]! - z;
  return dx * dx + dy * dy + dz * dz;
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

/**
 * The hull's side of a contact: the point (x, y, z) on plane `plane` is shared
 * among the corners of that plane's triangle nearest to it, with barycentric
 * weights, written after the `k` entries side A already holds.
 */
function onFace(particles: ParticleStore, hull: HullShape, plane: number, x: number, y: number, z: number, k: number, c: Float64Array, ids: Int32Array): boolean {
  const pos = particles.position;
  const q = tri;
  const triangles = hull.triangles;
  let best = Infinity;
  let bt = -1;
  let bu = 0;
  let bv = 0;
  let bw = 0;
  q[0] = x;
  q[1] = y;
  q[2] = z;
  for (let t = 0; t < hull.trianglePlane.length; t++) {
    if (hull.trianglePlane[t] !== plane) continue;
    for (let j = 0; j < 3; j++) {
      const v = triangles[t * 3 + j]! * 3;
      for (let m = 0; m < 3; m++) q[3 + j * 3 + m] = pos[v + m]!;
    }
    closestPointTriangle(q);
    const d2 = distanceToWeights(q, x, y, z);
    if (d2 < best) {
      best = d2;
      bt = t;
      bu = q[PT_U]!;
      bv = q[PT_V]!;
      bw = q[PT_W]!;
    }
  }
  if (bt < 0) return false;
  ids[k] = triangles[bt * 3]!;
  ids[k + 1] = triangles[bt * 3 + 1]!;
  ids[k + 2] = triangles[bt * 3 + 2]!;
  c[BodyContact.Coef + k] = -bu;
  c[BodyContact.Coef + k + 1] = -bv;
  c[BodyContact.Coef + k + 2] = -bw;
  c[BodyContact.Count] = k + 3;
  return true;
}

/** Loads every plane of `hull` into `planes` (now and at the substep's start, `PLANE` numbers each); false if one is degenerate. */
function loadPlanes(particles: ParticleStore, hull: HullShape): boolean {
  const count = hull.planeTriangle.length;
  if (planes.length < count * PLANE) {
    planes = new Float64Array(count * PLANE);
    ends = new Float64Array(count * 2);
  }
  return writeHullPlanes(particles, hull, planes, PLANE);
}
