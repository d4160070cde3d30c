import type { ParticleStore } from '../particles.js';
import { BodyContact } from './bodyContactTests.js';
import { closestSegmentSegment } from './closestPoints.js';

// A segment (a capsule's axis, a hull edge, a rope segment) or a point (a hull
// corner) against a particle triangle of a cloth, one of the body contact tests
// (bodyContactTests.ts has the buffer layout and the others). closestPoints.ts's
// SegSeg layout as plain numbers: a const enum imported from another module is a
// property load per use under vitest's module runner.
const SS_PREFER = 15;
const SS_S = 12;
const SS_T = 13;
const SS_DIST2 = 14;

/**
 * The least reach (m) of a contact against a triangle. A cloth of radius-0
 * particles is a surface of no thickness, and a point held exactly on a plane
 * has no side: kept this far off it, a rope or a box corner at rest on a cloth
 * always has one (2 mm, under what a scene shows).
 */
export const SURFACE_SKIN = 0.002;

/*
 * Scratch, in a typed array (doubles crossing a call V8 does not inline are boxed).
 * For the triangle now (NOW) and when the substep began (PREV), eight numbers that
 * are linear in the segment parameter t, each given at t = 0 and t = 1:
 *   h      the signed distance (m) of the segment point from the triangle's plane,
 *   g0..g2 with the triangle's normal n (unnormalised), n · ((B - A) × (P - A)) and
 *          its turns: g0 / |n|² is the weight of corner C of the point's projection
 *          onto the plane, g1 / |n|² that of A, g2 / |n|² that of B; all three are
 *          >= 0 over the triangle (its "footprint").
 */
const NOW = 0;
const PREV = 8;
/** |n|² now and when the substep began. */
const NN = 16;
const NN_PREV = 17;
/** The unit normal now. */
const NX = 18;
/** Each frame's normal, not normalised (NOW, PREV). */
const N_NOW = 32;
const N_PREV = 35;
/** The sample under test, and the interval a clip found. */
const T = 21;
const LO = 22;
const HI = 23;
/** The deepest contact found: depth (reach included), parameter, side; then the contact's reach. */
const DEPTH = 24;
const AT = 25;
const SIDE = 26;
const REACH = 27;
const PREFER = 31;
/** The triangle point's weights on corners A, B and C. */
const WA = 28;
const lin = new Float64Array(40);
const segSeg = new Float64Array(16);

/**
 * Segment ab (a = b: a point) of radius `c[Reach]` (the sum of both sides'
 * radii, at least {@link SURFACE_SKIN}) against the particle triangle (ta, tb,
 * tc). Side A is the segment. The triangle is a sheet with two sides, and which
 * side the segment belongs on is decided so that a thin segment cannot slip
 * through it within a substep:
 *
 * 1. **Crossed.** A point of the segment that was on one side of the triangle's
 *    plane when the substep began and is on the other now, and whose path (read
 *    in the triangle's own frame, which moves too) went through the triangle,
 *    goes back to the side it came from, however deep it now is. Points are
 *    sampled at the ends and the middle of the part of the segment over the
 *    triangle, now and at the substep's start.
 * 2. **Over the triangle.** Otherwise the part of the segment over the triangle
 *    stays on the side it is on (the side most of it is on, if it pierces), kept
 *    `reach` from the plane: its point nearest the plane takes the contact.
 * 3. **Beside it.** A segment over no part of the triangle touches it only at an
 *    edge (the cloth's rim): the closest points of the segment and the edges
 *    push apart.
 *
 * Only crossings through the triangle itself count: a rope sliding over a crease
 * of the cloth passes below the plane of the next triangle without crossing it.
 * `c[Prefer]` picks the contact point on a segment lying level with the plane.
 */
export function segmentTriangle(particles: ParticleStore, a: number, b: number, ta: number, tb: number, tc: number, c: Float64Array, ids: Int32Array): boolean {
  const reach = c[BodyContact.Reach]! > SURFACE_SKIN ? c[BodyContact.Reach]! : SURFACE_SKIN;
  const pos = particles.position;
  const prev = particles.previous;
  if (!heights(pos, a, b, ta, tb, tc, NOW)) return false;
  const h0 = lin[NOW]!;
  const h1 = lin[NOW + 1]!;
  const above = h0 >= reach && h1 >= reach;
  const below = h0 <= -reach && h1 <= -reach;
  // A triangle that turned over in the substep swapped its sides: there is no side to keep, so no crossing.
  const kept = heights(prev, a, b, ta, tb, tc, PREV);
  // Both ends a reach or more to one side, now and (on that side) at the start: nothing to do (most candidates end here).
  if (above && (!kept || (lin[PREV]! >= 0 && lin[PREV + 1]! >= 0))) return false;
  if (below && (!kept || (lin[PREV]! <= 0 && lin[PREV + 1]! <= 0))) return false;
  // A segment wholly on one side of the plane, now and at the start, and the same side: nothing of it crossed (most contacts at rest).
  const p0 = lin[PREV]!;
  const p1 = lin[PREV + 1]!;
  const crossing = kept && !((h0 > 0 && h1 > 0 && p0 > 0 && p1 > 0) || (h0 < 0 && h1 < 0 && p0 < 0 && p1 < 0));
  planar(pos, a, b, ta, tb, tc, NOW);
  if (crossing) planar(prev, a, b, ta, tb, tc, PREV);
  lin[REACH] = reach;
  lin[PREFER] = c[BodyContact.Prefer]!;
  lin[DEPTH] = 0;
  lin[SIDE] = 0;
  // 1. Crossings.
  if (crossing) {
    crossings(NOW);
    crossings(PREV);
  }
  if (lin[SIDE] === 0 && clip(NOW)) {
    // 2. Over the triangle, on the side most of it is on.
    const lo = lin[LO]!;
    const hi = lin[HI]!;
    const hl = h0 + (h1 - h0) * lo;
    const hh = h0 + (h1 - h0) * hi;
    const side = hl + hh >= 0 ? 1 : -1;
    const dl = reach - side * hl;
    const dh = reach - side * hh;
    if (dl > 0 || dh > 0) {
      lin[SIDE] = side;
      if (dl === dh) {
        // Level with the plane: touch nearest the preferred point (a limb lying flat is lifted level).
        const prefer = lin[PREFER]!;
        lin[AT] = prefer < lo ? lo : prefer > hi ? hi : prefer;
        lin[DEPTH] = dl;
      } else {
        lin[AT] = dl > dh ? lo : hi;
        lin[DEPTH] = dl > dh ? dl : dh;
      }
    }
  }
  if (lin[SIDE] !== 0) return onFace(a, b, ta, tb, tc, c, ids);
  // 3. Beside the triangle: its edges (a cloth's rim is round to a segment of radius `reach`).
  if (above || below) return false;
  return nearEdge(particles, a, b, ta, tb, tc, c, ids);
}

/**
 * Loads the heights h of frame `o` (NOW or PREV) from positions `pos`, and the
 * triangle's normal; false when the triangle has no area, or (PREV) its normal
 * then points against its normal now: it turned over.
 */
function heights(pos: Float64Array, a: number, b: number, ta: number, tb: number, tc: number, o: number): boolean {
  const A = ta * 3;
  const B = tb * 3;
  const C = tc * 3;
  const abx = pos[B]! - pos[A]!;
  const aby = pos[B + 1]! - pos[A + 1]!;
  const abz = pos[B + 2]! - pos[A + 2]!;
  const acx = pos[C]! - pos[A]!;
  const acy = pos[C + 1]! - pos[A + 1]!;
  const acz = pos[C + 2]! - pos[A + 2]!;
  const nx = aby * acz - abz * acy;
  const ny = abz * acx - abx * acz;
  const nz = abx * acy - aby * acx;
  const nn = nx * nx + ny * ny + nz * nz;
  if (nn === 0) return false;
  const n = o === NOW ? N_NOW : N_PREV;
  if (o === PREV && nx * lin[N_NOW]! + ny * lin[N_NOW + 1]! + nz * lin[N_NOW + 2]! <= 0) return false;
  lin[n] = nx;
  lin[n + 1] = ny;
  lin[n + 2] = nz;
  lin[o === NOW ? NN : NN_PREV] = nn;
  const il = 1 / Math.sqrt(nn);
  if (o === NOW) {
    lin[NX] = nx * il;
    lin[NX + 1] = ny * il;
    lin[NX + 2] = nz * il;
  }
  lin[o] = (nx * (pos[a * 3]! - pos[A]!) + ny * (pos[a * 3 + 1]! - pos[A + 1]!) + nz * (pos[a * 3 + 2]! - pos[A + 2]!)) * il;
  lin[o + 1] = (nx * (pos[b * 3]! - pos[A]!) + ny * (pos[b * 3 + 1]! - pos[A + 1]!) + nz * (pos[b * 3 + 2]! - pos[A + 2]!)) * il;
  return true;
}

/** Loads the in-plane functions g0..g2 of frame `o` (see the scratch's layout), after {@link heights}. */
function planar(pos: Float64Array, a: number, b: number, ta: number, tb: number, tc: number, o: number): void {
  const A = ta * 3;
  const B = tb * 3;
  const C = tc * 3;
  const n = o === NOW ? N_NOW : N_PREV;
  const nx = lin[n]!;
  const ny = lin[n + 1]!;
  const nz = lin[n + 2]!;
  const abx = pos[B]! - pos[A]!;
  const aby = pos[B + 1]! - pos[A + 1]!;
  const abz = pos[B + 2]! - pos[A + 2]!;
  const bcx = pos[C]! - pos[B]!;
  const bcy = pos[C + 1]! - pos[B + 1]!;
  const bcz = pos[C + 2]! - pos[B + 2]!;
  const cax = pos[A]! - pos[C]!;
  const cay = pos[A + 1]! - pos[C + 1]!;
  const caz = pos[A + 2]! - pos[C + 2]!;
  // In-plane inward normals of the edges AB, BC and CA: n × edge.
  const m0x = ny * abz - nz * aby;
  const m0y = nz * abx - nx * abz;
  const m0z = nx * aby - ny * abx;
  const m1x = ny * bcz - nz * bcy;
  const m1y = nz * bcx - nx * bcz;
  const m1z = nx * bcy - ny * bcx;
  const m2x = ny * caz - nz * cay;
  const m2y = nz * cax - nx * caz;
  const m2z = nx * cay - ny * cax;
  for (let e = 0; e < 2; e++) {
    const p = (e === 0 ? a : b) * 3;
    lin[o + 2 + e] = m0x * (pos[p]! - pos[A]!) + m0y * (pos[p + 1]! - pos[A + 1]!) + m0z * (pos[p + 2]! - pos[A + 2]!);
    lin[o + 4 + e] = m1x * (pos[p]! - pos[B]!) + m1y * (pos[p + 1]! - pos[B + 1]!) + m1z * (pos[p + 2]! - pos[B + 2]!);
    lin[o + 6 + e] = m2x * (pos[p]! - pos[C]!) + m2y * (pos[p + 1]! - pos[C + 1]!) + m2z * (pos[p + 2]! - pos[C + 2]!);
  }
}

/** The parameters t in [0, 1] whose points lie over the triangle in frame `o`, into LO and HI; false if none. */
function clip(o: number): boolean {
  let lo = 0;
  let hi = 1;
  for (let k = 2; k < 8; k += 2) {
    const g0 = lin[o + k]!;
    const dg = lin[o + k + 1]! - g0;
    if (dg === 0) {
      if (g0 < 0) return false;
    } else if (dg > 0) {
      const t = -g0 / dg;
      if (t > lo) lo = t;
    } else {
      const t = -g0 / dg;
      if (t < hi) hi = t;
    }
  }
  if (lo > hi) return false;
  lin[LO] = lo;
  lin[HI] = hi;
  return true;
}

/** Tests the ends and the middle of the part over the triangle in frame `o` for a crossing, keeping the deepest. */
function crossings(o: number): void {
  if (!clip(o)) return;
  const lo = lin[LO]!;
  const hi = lin[HI]!;
  lin[T] = lo;
  crossed();
  if (hi === lo) return;
  lin[T] = hi;
  crossed();
  lin[T] = (lo + hi) * 0.5;
  crossed();
}

/**
 * Whether segment point `lin[T]` went through the triangle in the substep: it
 * changed sides of the plane, and where it met the plane (the two frames
 * interpolated, so that the triangle's own motion counts) lies on the triangle.
 * If so, and it is the deepest crossing so far, it becomes the contact.
 */
function crossed(): void {
  const t = lin[T]!;
  const was = lin[PREV]! + (lin[PREV + 1]! - lin[PREV]!) * t;
  const now = lin[NOW]! + (lin[NOW + 1]! - lin[NOW]!) * t;
  if (!((was > 0 && now < 0) || (was < 0 && now > 0))) return;
  const f = was / (was - now);
  for (let k = 2; k < 8; k += 2) {
    const before = (lin[PREV + k]! + (lin[PREV + k + 1]! - lin[PREV + k]!) * t) / lin[NN_PREV]!;
    const after = (lin[NOW + k]! + (lin[NOW + k + 1]! - lin[NOW + k]!) * t) / lin[NN]!;
    if (before + (after - before) * f < 0) return;
  }
  const side = was > 0 ? 1 : -1;
  const depth = lin[REACH]! - side * now;
  // Of equally deep points (a segment crossing level), the one nearest the preferred point.
  const prefer = lin[PREFER]!;
  if (depth > lin[DEPTH]! || (depth === lin[DEPTH]! && Math.abs(t - prefer) < Math.abs(lin[AT]! - prefer))) {
    lin[DEPTH] = depth;
    lin[AT] = t;
    lin[SIDE] = side;
  }
}

/** Writes the contact found over the triangle: along the side's normal, at segment point `lin[AT]` and the triangle point under it. */
function onFace(a: number, b: number, ta: number, tb: number, tc: number, c: Float64Array, ids: Int32Array): boolean {
  const t = lin[AT]!;
  const side = lin[SIDE]!;
  // Weights of the triangle point under the segment point, clamped onto the triangle (a crossing may have left it).
  const wc = lin[NOW + 2]! + (lin[NOW + 3]! - lin[NOW + 2]!) * t;
  const wa = lin[NOW + 4]! + (lin[NOW + 5]! - lin[NOW + 4]!) * t;
  const wb = lin[NOW + 6]! + (lin[NOW + 7]! - lin[NOW + 6]!) * t;
  lin[WA] = wa > 0 ? wa : 0;
  lin[WA + 1] = wb > 0 ? wb : 0;
  lin[WA + 2] = wc > 0 ? wc : 0;
  const sum = lin[WA]! + lin[WA + 1]! + lin[WA + 2]!;
  if (sum === 0) return false;
  for (let k = 0; k < 3; k++) lin[WA + k] = lin[WA + k]! / sum;
  c[BodyContact.Normal] = lin[NX]! * side;
  c[BodyContact.Normal + 1] = lin[NX + 1]! * side;
  c[BodyContact.Normal + 2] = lin[NX + 2]! * side;
  c[BodyContact.Depth] = lin[DEPTH]!;
  return write(a, b, ta, tb, tc, c, ids);
}

/** Segment ab against the triangle's three edges: the closest pair within `reach` pushes apart. */
function nearEdge(particles: ParticleStore, a: number, b: number, ta: number, tb: number, tc: number, c: Float64Array, ids: Int32Array): boolean {
  const pos = particles.position;
  const s = segSeg;
  const reach = lin[REACH]!;
  let best = reach * reach;
  let edge = -1;
  let bs = 0;
  let bt = 0;
  for (let e = 0; e < 3; e++) {
    // Only an edge the segment passes outside of can be its nearest (g of edge e is lin[NOW + 2 + 2e] at t = 0, 1).
    if (lin[NOW + 2 + 2 * e]! >= 0 && lin[NOW + 3 + 2 * e]! >= 0) continue;
    const from = (e === 0 ? ta : e === 1 ? tb : tc) * 3;
    const to = (e === 0 ? tb : e === 1 ? tc : ta) * 3;
    for (let k = 0; k < 3; k++) {
      s[k] = pos[a * 3 + k]!;
      s[3 + k] = pos[b * 3 + k]!;
      s[6 + k] = pos[from + k]!;
      s[9 + k] = pos[to + k]!;
    }
    s[SS_PREFER] = c[BodyContact.Prefer]!;
    closestSegmentSegment(s);
    if (s[SS_DIST2]! < best) {
      best = s[SS_DIST2]!;
      edge = e;
      bs = s[SS_S]!;
      bt = s[SS_T]!;
    }
  }
  if (edge < 0 || best === 0) return false;
  // Weights of the edge point on its corners (edge e runs from corner e to corner e + 1).
  lin[WA] = edge === 0 ? 1 - bt : edge === 2 ? bt : 0;
  lin[WA + 1] = edge === 0 ? bt : edge === 1 ? 1 - bt : 0;
  lin[WA + 2] = edge === 1 ? bt : edge === 2 ? 1 - bt : 0;
  lin[AT] = bs;
  const d = Math.sqrt(best);
  for (let k = 0; k < 3; k++) {
    const p = pos[a * 3 + k]! + (pos[b * 3 + k]! - pos[a * 3 + k]!) * bs;
    const q = lin[WA]! * pos[ta * 3 + k]! + lin[WA + 1]! * pos[tb * 3 + k]! + lin[WA + 2]! * pos[tc * 3 + k]!;
    c[BodyContact.Normal + k] = (p - q) / d;
  }
  c[BodyContact.Depth] = reach - d;
  return write(a, b, ta, tb, tc, c, ids);
}

/** The particles and coefficients of a contact at segment point `lin[AT]` (one particle when a = b) and the triangle point of weights `lin[WA..WA+2]`. */
function write(a: number, b: number, ta: number, tb: number, tc: number, c: Float64Array, ids: Int32Array): boolean {
  const t = lin[AT]!;
  let k = 0;
  if (a === b) {
    ids[k] = a;
    c[BodyContact.Coef + k++] = 1;
  } else {
    ids[k] = a;
    c[BodyContact.Coef + k++] = 1 - t;
    ids[k] = b;
    c[BodyContact.Coef + k++] = t;
  }
  ids[k] = ta;
  c[BodyContact.Coef + k++] = -lin[WA]!;
  ids[k] = tb;
  c[BodyContact.Coef + k++] = -lin[WA + 1]!;
  ids[k] = tc;
  c[BodyContact.Coef + k++] = -lin[WA + 2]!;
  c[BodyContact.Count] = k;
  return true;
}
