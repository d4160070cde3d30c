import { BoxCollider } from '../colliders/box.js';
import { CapsuleCollider } from '../colliders/capsule.js';
import type { Collider } from '../colliders/collider.js';
import { ObbCollider } from '../colliders/obb.js';
import { PlaneCollider } from '../colliders/plane.js';
import { SphereCollider } from '../colliders/sphere.js';
import { TriangleMeshCollider } from '../colliders/triangleMesh.js';

/**
 * Layout of a line cast: the segment from `From` to `To` is tested against a
 * static shape for the first point where it enters the solid from free space
 * (the paper's swept test, section 7: "if this line hits anything").
 */
export const enum Cast {
  From = 0,
  To = 3,
  /** Out: parameter of the first entry, 0 at From, 1 at To. */
  T = 6,
  /** Out: unit normal of the surface entered, pointing back into free space. */
  Normal = 7,
  /** Scratch: local coordinates and a point. */
  Scratch = 10,
  /** Out of {@link castLineAll}: index of the collider hit. */
  Hit = 18,
  /** Two slots free for the caller (e.g. a radius and a length); casts leave them alone. */
  User = 19,
  Size = 21,
}

/** A fresh line cast buffer. */
export function makeLineCast(): Float64Array {
  return new Float64Array(Cast.Size);
}

/**
 * Casts the line in `q` against every collider of a known kind and keeps the
 * first entry (custom colliders are skipped: they expose no geometry). Returns
 * true on a hit, with T, Normal and Hit set.
 */
export function castLineAll(colliders: readonly Collider[], q: Float64Array): boolean {
  let bestT = Infinity;
  let hit = -1;
  let nx = 0;
  let ny = 0;
  let nz = 0;
  for (let c = 0; c < colliders.length; c++) {
    if (castLine(colliders[c]!, q) && q[6]! < bestT) {
      bestT = q[6]!;
      hit = c;
      nx = q[7]!;
      ny = q[8]!;
      nz = q[9]!;
    }
  }
  if (bestT === Infinity) return false;
  q[6] = bestT;
  q[7] = nx;
  q[8] = ny;
  q[9] = nz;
  q[18] = hit;
  return true;
}

/** Casts the line in `q` against one collider; false for kinds without a line test. */
export function castLine(c: Collider, q: Float64Array): boolean {
  if (c instanceof PlaneCollider) return castPlane(c, q);
  if (c instanceof SphereCollider) return castSphere(c, q);
  if (c instanceof BoxCollider) return castBox(c, q);
  if (c instanceof ObbCollider) return castObb(c, q);
  if (c instanceof CapsuleCollider) return castCapsule(c, q);
  if (c instanceof TriangleMeshCollider) return castMesh(c, q);
  return false;
}

function castPlane(c: PlaneCollider, q: Float64Array): boolean {
  const n = c.normal;
  const s0 = n[0] * q[0]! + n[1] * q[1]! + n[2] * q[2]! - c.offset;
  const s1 = n[0] * q[3]! + n[1] * q[4]! + n[2] * q[5]! - c.offset;
  if (!(s0 >= 0 && s1 < 0)) return false;
  q[6] = s0 / (s0 - s1);
  q[7] = n[0];
  q[8] = n[1];
  q[9] = n[2];
  return true;
}

/** A solid ball is entered from outside; a container sphere's solid is entered by leaving the ball. */
function castSphere(c: SphereCollider, q: Float64Array): boolean {
  q[10] = c.center[0];
  q[11] = c.center[1];
  q[12] = c.center[2];
  q[13] = c.radius;
  return ballEntry(q, c.inside);
}

/** First entry into the ball (centre q[10..12], radius q[13]), or first exit when `leaving`. */
function ballEntry(q: Float64Array, leaving: boolean): boolean {
  const fx = q[0]! - q[10]!;
  const fy = q[1]! - q[11]!;
  const fz = q[2]! - q[12]!;
  const dx = q[3]! - q[0]!;
  const dy = q[4]! - q[1]!;
  const dz = q[5]! - q[2]!;
  const radius = q[13]!;
  const a = dx * dx + dy * dy + dz * dz;
  const b = fx * dx + fy * dy + fz * dz;
  const c = fx * fx + fy * fy + fz * fz - radius * radius;
  if (a === 0 || (leaving ? c > 0 : c < 0)) return false;
  const disc = b * b - a * c;
  if (disc < 0) return false;
  const t = leaving ? (-b + Math.sqrt(disc)) / a : (-b - Math.sqrt(disc)) / a;
  if (!(t >= 0 && t <= 1) || radius === 0) return false;
  const sign = leaving ? -1 : 1;
  q[6] = t;
  q[7] = (sign * (fx + dx * t)) / radius;
  q[8] = (sign * (fy + dy * t)) / radius;
  q[9] = (sign * (fz + dz * t)) / radius;
  return true;
}

function castBox(c: BoxCollider, q: Float64Array): boolean {
  for (let k = 0; k < 3; k++) {
    const centre = (c.min[k]! + c.max[k]!) / 2;
    q[10 + k] = q[k]! - centre;
    q[13 + k] = q[3 + k]! - centre;
    q[16 + k] = (c.max[k]! - c.min[k]!) / 2;
  }
  if (!slabCast(q, c.inside)) return false;
  for (let k = 0; k < 3; k++) q[7 + k] = q[10 + k]!;
  return true;
}

function castObb(c: ObbCollider, q: Float64Array): boolean {
  const ax = c.axes;
  for (let e = 0; e < 2; e++) {
    const wx = q[e * 3]! - c.center[0]!;
    const wy = q[e * 3 + 1]! - c.center[1]!;
    const wz = q[e * 3 + 2]! - c.center[2]!;
    for (let k = 0; k < 3; k++) q[10 + e * 3 + k] = wx * ax[k * 3]! + wy * ax[k * 3 + 1]! + wz * ax[k * 3 + 2]!;
  }
  for (let k = 0; k < 3; k++) q[16 + k] = c.halfExtents[k]!;
  if (!slabCast(q, false)) return false;
  const nx = q[10]!;
  const ny = q[11]!;
  const nz = q[12]!;
  for (let k = 0; k < 3; k++) q[7 + k] = nx * ax[k]! + ny * ax[3 + k]! + nz * ax[6 + k]!;
  return true;
}

/**
 * Slab test of the local segment q[10..12] → q[13..15] against the centred box
 * of half extents q[16..18]: the entry (or, for a container, the exit). Writes
 * T into q[6] and the local normal into q[10..12].
 */
function slabCast(q: Float64Array, leaving: boolean): boolean {
  let enter = -Infinity;
  let exit = Infinity;
  let enterAxis = -1;
  let exitAxis = -1;
  for (let k = 0; k < 3; k++) {
    const a = q[10 + k]!;
    const d = q[13 + k]! - a;
    const h = q[16 + k]!;
    if (d === 0) {
      if (a < -h || a > h) return false;
      continue;
    }
    const t0 = (-h - a) / d;
    const t1 = (h - a) / d;
    const near = t0 < t1 ? t0 : t1;
    const far = t0 < t1 ? t1 : t0;
    if (near > enter) {
      enter = near;
      enterAxis = k;
    }
    if (far < exit) {
      exit = far;
      exitAxis = k;
    }
  }
  if (enter > exit) return false;
  const t = leaving ? exit : enter;
  const axis = leaving ? exitAxis : enterAxis;
  // Entering needs the start outside (enter >= 0); leaving needs it inside (enter <= 0).
  if (axis < 0 || (leaving ? enter > 0 : enter < 0) || !(t >= 0 && t <= 1)) return false;
  const sign = q[13 + axis]! - q[10 + axis]! > 0 ? -1 : 1;
  q[6] = t;
  q[10] = axis === 0 ? sign : 0;
  q[11] = axis === 1 ? sign : 0;
  q[12] = axis === 2 ? sign : 0;
  return true;
}

/** The first entry into the union of the two end balls and the finite cylinder between them. */
function castCapsule(c: CapsuleCollider, q: Float64Array): boolean {
  const ax = c.a[0]!;
  const ay = c.a[1]!;
  const az = c.a[2]!;
  const ux0 = c.b[0]! - ax;
  const uy0 = c.b[1]! - ay;
  const uz0 = c.b[2]! - az;
  const length = Math.sqrt(ux0 * ux0 + uy0 * uy0 + uz0 * uz0);
  const radius = c.radius;
  // The start must be outside: nearest axis point farther than the radius.
  const wx = q[0]! - ax;
  const wy = q[1]! - ay;
  const wz = q[2]! - az;
  const ux = length > 0 ? ux0 / length : 0;
  const uy = length > 0 ? uy0 / length : 0;
  const uz = length > 0 ? uz0 / length : 0;
  const along = wx * ux + wy * uy + wz * uz;
  const clamped = along < 0 ? 0 : along > length ? length : along;
  const ox = wx - ux * clamped;
  const oy = wy - uy * clamped;
  const oz = wz - uz * clamped;
  if (ox * ox + oy * oy + oz * oz < radius * radius || radius === 0) return false;
  let best = Infinity;
  q[13] = radius;
  for (let e = 0; e < 2; e++) {
    q[10] = e === 0 ? ax : c.b[0]!;
    q[11] = e === 0 ? ay : c.b[1]!;
    q[12] = e === 0 ? az : c.b[2]!;
    if (ballEntry(q, false) && q[6]! < best) best = q[6]!;
  }
  if (length > 0) {
    const dx = q[3]! - q[0]!;
    const dy = q[4]! - q[1]!;
    const dz = q[5]! - q[2]!;
    const du = dx * ux + dy * uy + dz * uz;
    const px = wx - ux * along;
    const py = wy - uy * along;
    const pz = wz - uz * along;
    const vx = dx - ux * du;
    const vy = dy - uy * du;
    const vz = dz - uz * du;
    const A = vx * vx + vy * vy + vz * vz;
    const B = px * vx + py * vy + pz * vz;
    const C = px * px + py * py + pz * pz - radius * radius;
    const disc = B * B - A * C;
    if (A > 0 && disc >= 0) {
      const t = (-B - Math.sqrt(disc)) / A;
      const axial = along + du * t;
      if (t >= 0 && t <= 1 && axial >= 0 && axial <= length && t < best) best = t;
    }
  }
  if (best === Infinity) return false;
  // The normal points from the nearest axis point to the hit point.
  const hx = q[0]! + (q[3]! - q[0]!) * best - ax;
  const hy = q[1]! + (q[4]! - q[1]!) * best - ay;
  const hz = q[2]! + (q[5]! - q[2]!) * best - az;
  let s = hx * ux + hy * uy + hz * uz;
  s = s < 0 ? 0 : s > length ? length : s;
  const nx = hx - ux * s;
  const ny = hy - uy * s;
  const nz = hz - uz * s;
  const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
  q[6] = best;
  q[7] = nx / nl;
  q[8] = ny / nl;
  q[9] = nz / nl;
  return true;
}

/** Front faces only: a triangle is entered by crossing its plane from the front, inside its edges. */
function castMesh(c: TriangleMeshCollider, q: Float64Array): boolean {
  const box = c.bvh.queryBox;
  for (let k = 0; k < 3; k++) {
    box[k] = q[k]! < q[3 + k]! ? q[k]! : q[3 + k]!;
    box[3 + k] = q[k]! > q[3 + k]! ? q[k]! : q[3 + k]!;
  }
  const n = c.bvh.query(c.candidates);
  const v = c.vertices;
  const nrm = c.normals;
  let best = Infinity;
  let bestTriangle = -1;
  for (let i = 0; i < n; i++) {
    const t = c.candidates[i]!;
    const v0 = c.indices[t * 3]! * 3;
    const nx = nrm[t * 3]!;
    const ny = nrm[t * 3 + 1]!;
    const nz = nrm[t * 3 + 2]!;
    const s0 = nx * (q[0]! - v[v0]!) + ny * (q[1]! - v[v0 + 1]!) + nz * (q[2]! - v[v0 + 2]!);
    const s1 = nx * (q[3]! - v[v0]!) + ny * (q[4]! - v[v0 + 1]!) + nz * (q[5]! - v[v0 + 2]!);
    if (!(s0 >= 0 && s1 < 0)) continue;
    const f = s0 / (s0 - s1);
    if (f >= best) continue;
    for (let k = 0; k < 3; k++) q[10 + k] = q[k]! + (q[3 + k]! - q[k]!) * f;
    if (!c.overTriangle(t, q, 10)) continue;
    best = f;
    bestTriangle = t;
  }
  if (bestTriangle < 0) return false;
  q[6] = best;
  for (let k = 0; k < 3; k++) q[7 + k] = nrm[bestTriangle * 3 + k]!;
  return true;
}
