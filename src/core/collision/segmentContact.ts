import type { BoxCollider } from '../colliders/box.js';
import type { CapsuleCollider } from '../colliders/capsule.js';
import type { ObbCollider } from '../colliders/obb.js';
import type { PlaneCollider } from '../colliders/plane.js';
import type { SphereCollider } from '../colliders/sphere.js';
import type { TriangleMeshCollider } from '../colliders/triangleMesh.js';
import { closestSegmentSegment, SegSeg } from './closestPoints.js';
import { SegBox, segmentVsBoxLocal } from './segmentBox.js';

/**
 * Layout of a segment query: a capsule (segment ab grown by a radius) asked
 * against one static shape. The contact found is a penetration point on the
 * segment, p = (1 - t)·a + t·b, the unit normal it must move along and how far:
 * exactly what the paper's section 5 needs to share the move between a and b.
 */
export const enum Seg {
  A = 0,
  B = 3,
  Radius = 6,
  /** Out: parameter of the penetration point, 0 at a, 1 at b. */
  T = 7,
  /** Out: unit normal out of the obstacle, xyz. */
  Normal = 8,
  /** Out: penetration depth along the normal. */
  Depth = 11,
  /** Scratch: a centre xyz and a distance, for the ball tests. */
  Scratch = 12,
  /**
   * In: the parameter to touch at when the contact is a level stretch rather
   * than a point (a stick lying flat): the stick's mass centre, so that the
   * section 5 weights lift it level instead of tipping it.
   */
  Prefer = 16,
  /**
   * Out: 1 when the contact is a stretch of the segment over a face (a capsule
   * lying along a tread), 0 for a point. A stretch also gives its ends' parameters
   * ({@link Lo}, {@link Hi}) and how deep each end is ({@link LoDepth},
   * {@link HiDepth}; negative when that end is clear of the face), so that both
   * ends can be held out at once (`EdgeSystem`).
   */
  Stretch = 17,
  Lo = 18,
  Hi = 19,
  LoDepth = 20,
  HiDepth = 21,
  Size = 22,
}

/** A fresh segment query buffer. */
export function makeSegmentQuery(): Float64Array {
  return new Float64Array(Seg.Size);
}

const segSeg = new Float64Array(SegSeg.Size);
const boxQuery = new Float64Array(SegBox.Size);

/**
 * Against a plane the deepest point of a segment is an end; when both ends are
 * equally deep (a stick lying flat) the preferred point, so the stick is lifted level.
 */
export function segmentVsPlane(c: PlaneCollider, q: Float64Array): boolean {
  const nx = c.normal[0];
  const ny = c.normal[1];
  const nz = c.normal[2];
  const sa = nx * q[0]! + ny * q[1]! + nz * q[2]! - c.offset;
  const sb = nx * q[3]! + ny * q[4]! + nz * q[5]! - c.offset;
  const r = q[6]!;
  const low = sa < sb ? sa : sb;
  if (low >= r) return false;
  const length = Math.sqrt((q[3]! - q[0]!) ** 2 + (q[4]! - q[1]!) ** 2 + (q[5]! - q[2]!) ** 2);
  q[7] = Math.abs(sa - sb) <= 1e-9 * (1 + length) ? q[16]! : sa < sb ? 0 : 1;
  q[8] = nx;
  q[9] = ny;
  q[10] = nz;
  q[11] = r - low;
  return true;
}

/** Nearest segment point to the centre; from inside a container sphere, the end farthest out. */
export function segmentVsSphere(c: SphereCollider, q: Float64Array): boolean {
  const cx = c.center[0];
  const cy = c.center[1];
  const cz = c.center[2];
  q[12] = cx;
  q[13] = cy;
  q[14] = cz;
  if (c.inside) {
    q[15] = c.radius;
    return endInsideSphere(q);
  }
  const dx = q[3]! - q[0]!;
  const dy = q[4]! - q[1]!;
  const dz = q[5]! - q[2]!;
  const len2 = dx * dx + dy * dy + dz * dz;
  let t = len2 > 0 ? ((cx - q[0]!) * dx + (cy - q[1]!) * dy + (cz - q[2]!) * dz) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  q[7] = t;
  q[15] = c.radius + q[6]!;
  return pushFromPoint(q);
}

/** Segment against segment (the capsule's axis), both grown by their radii. */
export function segmentVsCapsule(c: CapsuleCollider, q: Float64Array): boolean {
  const s = segSeg;
  for (let k = 0; k < 6; k++) s[k] = q[k]!;
  for (let k = 0; k < 3; k++) {
    s[6 + k] = c.a[k]!;
    s[9 + k] = c.b[k]!;
  }
  s[SegSeg.Prefer] = q[16]!;
  closestSegmentSegment(s);
  const limit = c.radius + q[6]!;
  if (s[SegSeg.Dist2]! >= limit * limit) return false;
  const t = s[SegSeg.T]!;
  q[7] = s[SegSeg.S]!;
  for (let k = 0; k < 3; k++) q[12 + k] = c.a[k]! + (c.b[k]! - c.a[k]!) * t;
  q[15] = limit;
  return pushFromPoint(q);
}

/** An axis-aligned box, through its centred frame; a container box checks the ends. */
export function segmentVsBox(c: BoxCollider, q: Float64Array): boolean {
  const b = boxQuery;
  if (c.inside) return endInsideBox(q, c);
  for (let k = 0; k < 3; k++) {
    const centre = (c.min[k]! + c.max[k]!) / 2;
    b[k] = q[k]! - centre;
    b[3 + k] = q[3 + k]! - centre;
    b[6 + k] = (c.max[k]! - c.min[k]!) / 2;
  }
  b[9] = q[6]!;
  b[SegBox.Prefer] = q[16]!;
  if (!segmentVsBoxLocal(b)) return false;
  q[7] = b[10]!;
  for (let k = 0; k < 4; k++) q[8 + k] = b[11 + k]!;
  return true;
}

/** An oriented box, through its local frame. */
export function segmentVsObb(c: ObbCollider, q: Float64Array): boolean {
  const b = boxQuery;
  const ax = c.axes;
  for (let e = 0; e < 2; e++) {
    const wx = q[e * 3]! - c.center[0]!;
    const wy = q[e * 3 + 1]! - c.center[1]!;
    const wz = q[e * 3 + 2]! - c.center[2]!;
    for (let k = 0; k < 3; k++) b[e * 3 + k] = wx * ax[k * 3]! + wy * ax[k * 3 + 1]! + wz * ax[k * 3 + 2]!;
  }
  for (let k = 0; k < 3; k++) b[6 + k] = c.halfExtents[k]!;
  b[9] = q[6]!;
  b[SegBox.Prefer] = q[16]!;
  if (!segmentVsBoxLocal(b)) return false;
  q[7] = b[10]!;
  const nx = b[11]!;
  const ny = b[12]!;
  const nz = b[13]!;
  for (let k = 0; k < 3; k++) q[8 + k] = nx * ax[k]! + ny * ax[3 + k]! + nz * ax[6 + k]!;
  q[11] = b[14]!;
  return true;
}

/**
 * One triangle of a mesh, one-sided like the mesh's particle test. Over the
 * face (the part of the segment inside the prism above the triangle) a segment
 * that is partly in front of it and dips closer than its radius is pushed out
 * along the normal at its deepest point there (the preferred point when it lies
 * parallel). Beside the face, a capsule with a radius touches the rim: the
 * nearest rim point pushes it, provided the segment point is in front.
 */
export function segmentVsTriangle(mesh: TriangleMeshCollider, t: number, q: Float64Array): boolean {
  const nrm = mesh.normals;
  const nx = nrm[t * 3]!;
  const ny = nrm[t * 3 + 1]!;
  const nz = nrm[t * 3 + 2]!;
  if (nx === 0 && ny === 0 && nz === 0) return false;
  const v = mesh.vertices;
  const idx = mesh.indices;
  const v0 = idx[t * 3]! * 3;
  const r = q[6]!;
  const sa = nx * (q[0]! - v[v0]!) + ny * (q[1]! - v[v0 + 1]!) + nz * (q[2]! - v[v0 + 2]!);
  const sb = nx * (q[3]! - v[v0]!) + ny * (q[4]! - v[v0 + 1]!) + nz * (q[5]! - v[v0 + 2]!);
  if ((sa < sb ? sa : sb) >= r || (sa > sb ? sa : sb) < 0) return false;
  // Clip the segment to the prism over the triangle.
  const m = mesh.edgeNormals;
  let lo = 0;
  let hi = 1;
  for (let e = 0; e < 3 && lo <= hi; e++) {
    const vi = idx[t * 3 + e]! * 3;
    const me = t * 9 + e * 3;
    const fa = m[me]! * (q[0]! - v[vi]!) + m[me + 1]! * (q[1]! - v[vi + 1]!) + m[me + 2]! * (q[2]! - v[vi + 2]!);
    const fb = m[me]! * (q[3]! - v[vi]!) + m[me + 1]! * (q[4]! - v[vi + 1]!) + m[me + 2]! * (q[5]! - v[vi + 2]!);
    if (fa < 0 && fb < 0) lo = 2;
    else if (fa < 0) lo = Math.max(lo, fa / (fa - fb));
    else if (fb < 0) hi = Math.min(hi, fa / (fa - fb));
  }
  if (lo <= hi) {
    const s0 = sa + (sb - sa) * lo;
    const s1 = sa + (sb - sa) * hi;
    const low = s0 < s1 ? s0 : s1;
    const high = s0 > s1 ? s0 : s1;
    if (low < r && high >= 0) {
      const prefer = q[16]!;
      q[7] = Math.abs(s1 - s0) <= 1e-9 * (1 + Math.abs(r)) ? (prefer < lo ? lo : prefer > hi ? hi : prefer) : s0 < s1 ? lo : hi;
      q[8] = nx;
      q[9] = ny;
      q[10] = nz;
      q[11] = r - low;
      q[Seg.Stretch] = 1;
      q[Seg.Lo] = lo;
      q[Seg.Hi] = hi;
      q[Seg.LoDepth] = r - s0;
      q[Seg.HiDepth] = r - s1;
      return true;
    }
  }
  q[Seg.Stretch] = 0;
  return r > 0 && rimContact(mesh, t, q);
}

function rimContact(mesh: TriangleMeshCollider, t: number, q: Float64Array): boolean {
  const v = mesh.vertices;
  const idx = mesh.indices;
  const nrm = mesh.normals;
  const v0 = idx[t * 3]! * 3;
  const r = q[6]!;
  const s = segSeg;
  let best = Infinity;
  let bestS = 0;
  let bestEdge = 0;
  let bestT = 0;
  for (let e = 0; e < 3; e++) {
    const from = idx[t * 3 + e]! * 3;
    const to = idx[t * 3 + ((e + 1) % 3)]! * 3;
    for (let k = 0; k < 6; k++) s[k] = q[k]!;
    for (let k = 0; k < 3; k++) {
      s[6 + k] = v[from + k]!;
      s[9 + k] = v[to + k]!;
    }
    s[SegSeg.Prefer] = q[16]!;
    closestSegmentSegment(s);
    if (s[SegSeg.Dist2]! < best) {
      best = s[SegSeg.Dist2]!;
      bestS = s[SegSeg.S]!;
      bestT = s[SegSeg.T]!;
      bestEdge = e;
    }
  }
  if (best >= r * r || best === 0) return false;
  const px = q[0]! + (q[3]! - q[0]!) * bestS;
  const py = q[1]! + (q[4]! - q[1]!) * bestS;
  const pz = q[2]! + (q[5]! - q[2]!) * bestS;
  if (nrm[t * 3]! * (px - v[v0]!) + nrm[t * 3 + 1]! * (py - v[v0 + 1]!) + nrm[t * 3 + 2]! * (pz - v[v0 + 2]!) < 0) return false;
  const from = idx[t * 3 + bestEdge]! * 3;
  const to = idx[t * 3 + ((bestEdge + 1) % 3)]! * 3;
  const d = Math.sqrt(best);
  q[7] = bestS;
  q[8] = (px - (v[from]! + (v[to]! - v[from]!) * bestT)) / d;
  q[9] = (py - (v[from + 1]! + (v[to + 1]! - v[from + 1]!) * bestT)) / d;
  q[10] = (pz - (v[from + 2]! + (v[to + 2]! - v[from + 2]!) * bestT)) / d;
  q[11] = r - d;
  return true;
}

/**
 * Contact of the segment point at q[T] with the ball of radius q[15] around
 * q[12..14]: pushed straight away from the centre, or across the segment when
 * the point is the centre.
 */
function pushFromPoint(q: Float64Array): boolean {
  const t = q[7]!;
  const dx = q[3]! - q[0]!;
  const dy = q[4]! - q[1]!;
  const dz = q[5]! - q[2]!;
  const ox = q[0]! + dx * t - q[12]!;
  const oy = q[1]! + dy * t - q[13]!;
  const oz = q[2]! + dz * t - q[14]!;
  const limit = q[15]!;
  const d2 = ox * ox + oy * oy + oz * oz;
  if (d2 >= limit * limit) return false;
  const d = Math.sqrt(d2);
  if (d > 0) {
    q[8] = ox / d;
    q[9] = oy / d;
    q[10] = oz / d;
  } else {
    const useX = Math.abs(dx) <= Math.abs(dy) && Math.abs(dx) <= Math.abs(dz);
    const px = useX ? 0 : -dy;
    const py = useX ? -dz : dx;
    const pz = useX ? dy : 0;
    const l = Math.sqrt(px * px + py * py + pz * pz);
    q[8] = l > 0 ? px / l : 0;
    q[9] = l > 0 ? py / l : 1;
    q[10] = l > 0 ? pz / l : 0;
  }
  q[11] = limit - d;
  return true;
}

/** In a container sphere (centre q[12..14], radius q[15]) only an end can stick out: the inside is convex. */
function endInsideSphere(q: Float64Array): boolean {
  const limit = q[15]! - q[6]!;
  let worst = 0;
  let end = -1;
  for (let e = 0; e < 2; e++) {
    const d = Math.sqrt((q[e * 3]! - q[12]!) ** 2 + (q[e * 3 + 1]! - q[13]!) ** 2 + (q[e * 3 + 2]! - q[14]!) ** 2);
    if (d - limit > worst) {
      worst = d - limit;
      end = e;
    }
  }
  if (end < 0) return false;
  const d = worst + limit;
  q[7] = end;
  for (let k = 0; k < 3; k++) q[8 + k] = (q[12 + k]! - q[end * 3 + k]!) / d;
  q[11] = worst;
  return true;
}

/** In a container box only an end can stick out: the worst coordinate of either end. */
function endInsideBox(q: Float64Array, c: BoxCollider): boolean {
  const r = q[6]!;
  let worst = 0;
  let end = 0;
  let axis = -1;
  let sign = 1;
  for (let e = 0; e < 2; e++) {
    for (let k = 0; k < 3; k++) {
      const x = q[e * 3 + k]!;
      const low = c.min[k]! + r - x;
      const high = x - (c.max[k]! - r);
      if (low > worst) {
        worst = low;
        end = e;
        axis = k;
        sign = 1;
      }
      if (high > worst) {
        worst = high;
        end = e;
        axis = k;
        sign = -1;
      }
    }
  }
  if (axis < 0) return false;
  q[7] = end;
  q[8] = axis === 0 ? sign : 0;
  q[9] = axis === 1 ? sign : 0;
  q[10] = axis === 2 ? sign : 0;
  q[11] = worst;
  return true;
}
