import type { BoxCollider } from '../colliders/box.js';
import type { CapsuleCollider } from '../colliders/capsule.js';
import type { ObbCollider } from '../colliders/obb.js';
import { closestPointTriangle, closestSegmentSegment, PointTri, SegSeg } from './closestPoints.js';

/*
 * The features of static colliders that can poke through a particle triangle,
 * written into the face system's scratch buffer (no double crosses a call):
 *   [0..15]  a point–triangle query (closestPoints' PointTri): the point, then
 *            the triangle's corners a, b, c at [3..11]
 *   [16..18] the feature point, [19] its radius
 *   [20..25] the triangle's swept bounds (min xyz, max xyz)
 *   [26..28] the triangle's unit normal, [29] the side (±1) the feature started on
 */

/** Offset of the feature point (radius at +3). */
export const FEATURE = 16;
/** Offset of the triangle's bounds. */
export const BOUNDS = 20;
/** Offset of the triangle's unit normal. */
export const NORMAL = 26;
/** Offset of the side the feature was on at the start of the substep. */
export const SIDE = 29;

/** True when the capsule's bounds meet the triangle's bounds: a cheap test before the closest points. */
export function nearCapsule(buf: Float64Array, c: CapsuleCollider): boolean {
  for (let k = 0; k < 3; k++) {
    const low = (c.a[k]! < c.b[k]! ? c.a[k]! : c.b[k]!) - c.radius;
    const high = (c.a[k]! > c.b[k]! ? c.a[k]! : c.b[k]!) + c.radius;
    if (high < buf[BOUNDS + k]! || low > buf[BOUNDS + 3 + k]!) return false;
  }
  return true;
}

/** True when the box's bounds meet the triangle's bounds. */
export function nearBox(buf: Float64Array, c: ObbCollider | BoxCollider): boolean {
  for (let k = 0; k < 3; k++) {
    let low: number;
    let high: number;
    if (c.type === 'box') {
      low = c.min[k]!;
      high = c.max[k]!;
    } else {
      const h = c.halfExtents;
      const ax = c.axes;
      const reach = Math.abs(ax[k]!) * h[0]! + Math.abs(ax[3 + k]!) * h[1]! + Math.abs(ax[6 + k]!) * h[2]!;
      low = c.center[k]! - reach;
      high = c.center[k]! + reach;
    }
    if (high < buf[BOUNDS + k]! || low > buf[BOUNDS + 3 + k]!) return false;
  }
  return true;
}

/** Writes corner `corner` (bits: +x, +y, +z) of a box as a feature of radius 0. */
export function boxCorner(buf: Float64Array, c: ObbCollider | BoxCollider, corner: number): void {
  const sx = corner & 1 ? 1 : -1;
  const sy = corner & 2 ? 1 : -1;
  const sz = corner & 4 ? 1 : -1;
  buf[FEATURE + 3] = 0;
  if (c.type === 'box') {
    buf[FEATURE] = sx > 0 ? c.max[0]! : c.min[0]!;
    buf[FEATURE + 1] = sy > 0 ? c.max[1]! : c.min[1]!;
    buf[FEATURE + 2] = sz > 0 ? c.max[2]! : c.min[2]!;
    return;
  }
  const h = c.halfExtents;
  const ax = c.axes;
  for (let k = 0; k < 3; k++) buf[FEATURE + k] = c.center[k]! + sx * h[0]! * ax[k]! + sy * h[1]! * ax[3 + k]! + sz * h[2]! * ax[6 + k]!;
}

/**
 * The point of the capsule's axis nearest to the triangle loaded at [3..11],
 * written as a feature with the capsule's radius; false when it is farther
 * than that. Candidates: the axis against each edge, each end of the axis
 * against the face, and the point where the axis pierces the face (distance
 * zero). `seg` is a segment–segment scratch.
 */
export function nearestAxisPoint(buf: Float64Array, seg: Float64Array, c: CapsuleCollider): boolean {
  let best = Infinity;
  for (let e = 0; e < 3; e++) {
    const from = 3 + e * 3;
    const to = 3 + ((e + 1) % 3) * 3;
    for (let k = 0; k < 3; k++) {
      seg[k] = c.a[k]!;
      seg[3 + k] = c.b[k]!;
      seg[6 + k] = buf[from + k]!;
      seg[9 + k] = buf[to + k]!;
    }
    seg[SegSeg.Prefer] = 0.5;
    closestSegmentSegment(seg);
    if (seg[SegSeg.Dist2]! < best) {
      best = seg[SegSeg.Dist2]!;
      for (let k = 0; k < 3; k++) buf[FEATURE + k] = c.a[k]! + (c.b[k]! - c.a[k]!) * seg[SegSeg.S]!;
    }
  }
  for (let end = 0; end < 3; end++) {
    if (end < 2) {
      for (let k = 0; k < 3; k++) buf[PointTri.P + k] = end === 0 ? c.a[k]! : c.b[k]!;
    } else if (!piercing(buf, c)) {
      continue;
    }
    closestPointTriangle(buf);
    if (buf[PointTri.Interior] !== 1) continue;
    let d2 = 0;
    for (let k = 0; k < 3; k++) {
      const x = buf[PointTri.U]! * buf[3 + k]! + buf[PointTri.V]! * buf[6 + k]! + buf[PointTri.W]! * buf[9 + k]! - buf[k]!;
      d2 += x * x;
    }
    if (d2 < best) {
      best = d2;
      for (let k = 0; k < 3; k++) buf[FEATURE + k] = buf[k]!;
    }
  }
  buf[FEATURE + 3] = c.radius;
  return best < c.radius * c.radius;
}

/** Writes where the capsule's axis crosses the plane of the loaded triangle into the query point; false if it does not. */
function piercing(buf: Float64Array, c: CapsuleCollider): boolean {
  const nx = (buf[7]! - buf[4]!) * (buf[11]! - buf[5]!) - (buf[8]! - buf[5]!) * (buf[10]! - buf[4]!);
  const ny = (buf[8]! - buf[5]!) * (buf[9]! - buf[3]!) - (buf[6]! - buf[3]!) * (buf[11]! - buf[5]!);
  const nz = (buf[6]! - buf[3]!) * (buf[10]! - buf[4]!) - (buf[7]! - buf[4]!) * (buf[9]! - buf[3]!);
  const sa = nx * (c.a[0]! - buf[3]!) + ny * (c.a[1]! - buf[4]!) + nz * (c.a[2]! - buf[5]!);
  const sb = nx * (c.b[0]! - buf[3]!) + ny * (c.b[1]! - buf[4]!) + nz * (c.b[2]! - buf[5]!);
  if ((sa > 0 && sb > 0) || (sa < 0 && sb < 0) || sa === sb) return false;
  const f = sa / (sa - sb);
  for (let k = 0; k < 3; k++) buf[PointTri.P + k] = c.a[k]! + (c.b[k]! - c.a[k]!) * f;
  return true;
}
