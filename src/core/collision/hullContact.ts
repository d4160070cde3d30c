import type { ParticleStore } from '../particles.js';
import { closestPointTriangle, closestSegmentSegment } from './closestPoints.js';
import { writeHullPlanes, type HullShape } from './hull.js';

/*
 * Two convex hulls (rigid bodies) against each other, the way box stacks in
 * rigid-body engines are kept up (Box2D's b2CollidePolygons in 3D, after
 * Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013):
 *
 * 1. the separating-axis test over each hull's face normals and the cross
 *    products of their edge directions: any axis with a gap means no contact;
 * 2. the axis of least penetration, faces preferred over edges and the first
 *    hull's faces over the second's unless clearly worse (so the choice does
 *    not flicker between nearly equal axes from one substep to the next);
 * 3. a face: the other hull's most opposed face (the incident face) is clipped
 *    to the sides of this one (the reference face), and every clipped point
 *    below the reference face is a contact point: a box lying on another, square
 *    or not, gets its four corners' worth of support however its corners sit
 *    (testing each corner on its own, one flush with the other box's side is on
 *    that side's plane and pushed out sideways, and the box sinks);
 *    an edge pair: one contact between their closest points.
 *
 * A contact point is kept as particle weights on both sides (barycentric on a
 * face's triangle, 1 − t and t on an edge), so that the stage re-measures its
 * depth from the particles each time it projects it.
 */

/** Most contact points of one pair. */
export const MANIFOLD = 16;

/** The contact points of one hull pair, as weights on particles, sharing one normal. */
export class HullManifold {
  /** Points found. */
  count = 0;
  /** The way side A (the incident hull, or the first hull for an edge pair) must move. */
  readonly normal = new Float64Array(3);
  /** Per point: how many particles (6 slots each). */
  readonly sizes = new Int32Array(MANIFOLD);
  readonly ids = new Int32Array(MANIFOLD * 6);
  /** Per point: each particle's weight, positive on side A, negative on side B. */
  readonly coefs = new Float64Array(MANIFOLD * 6);
  /** Input, set by the caller: how far the hulls are grown together (the sum of their corner radii), m, in a typed array because a double crossing a call is boxed. */
  readonly margin = new Float64Array(1);
}

/** Prefer a face over an edge pair, and the first hull's face over the second's, unless worse by this (m). */
const TOLERANCE = 5e-4;
/** Most outline points a clipped face can have. */
const POLYGON = 64;

let planesA = new Float64Array(4 * 16);
let planesB = new Float64Array(4 * 16);
let polygon = new Float64Array(POLYGON * 3);
let clipped = new Float64Array(POLYGON * 3);
const seg = new Float64Array(16);
const tri = new Float64Array(16);
/** Scratch: the best edge axis xyz and its separation, the support edge parameters. */
const axis = new Float64Array(4);

/**
 * Writes the contact points of hulls `a` and `b` (grown together by
 * `m.margin[0]`) into `m`; `m.count` is 0 when they are apart.
 */
export function hullHull(particles: ParticleStore, a: HullShape, b: HullShape, m: HullManifold): void {
  const margin = m.margin[0]!;
  m.count = 0;
  if (!planesOf(particles, a, 0) || !planesOf(particles, b, 1)) return;
  const pos = particles.position;
  // 1. Face axes of each hull against the other's corners.
  let sepA = -Infinity;
  let faceA = -1;
  for (let f = 0; f < a.planeTriangle.length; f++) {
    const s = lowest(pos, planesA, f, b.vertices) - margin;
    if (s > 0) return;
    if (s > sepA) {
      sepA = s;
      faceA = f;
    }
  }
  let sepB = -Infinity;
  let faceB = -1;
  for (let f = 0; f < b.planeTriangle.length; f++) {
    const s = lowest(pos, planesB, f, a.vertices) - margin;
    if (s > 0) return;
    if (s > sepB) {
      sepB = s;
      faceB = f;
    }
  }
  // Edge axes: one per pair of direction classes.
  let sepE = -Infinity;
  let classA = -1;
  let classB = -1;
  let ax = 0;
  let ay = 0;
  let az = 0;
  for (let ca = 0; ca < a.classes; ca++) {
    const ea = firstOfClass(a, ca);
    const dax = pos[a.edges[ea + 1]! * 3]! - pos[a.edges[ea]! * 3]!;
    const day = pos[a.edges[ea + 1]! * 3 + 1]! - pos[a.edges[ea]! * 3 + 1]!;
    const daz = pos[a.edges[ea + 1]! * 3 + 2]! - pos[a.edges[ea]! * 3 + 2]!;
    for (let cb = 0; cb < b.classes; cb++) {
      const eb = firstOfClass(b, cb);
      const dbx = pos[b.edges[eb + 1]! * 3]! - pos[b.edges[eb]! * 3]!;
      const dby = pos[b.edges[eb + 1]! * 3 + 1]! - pos[b.edges[eb]! * 3 + 1]!;
      const dbz = pos[b.edges[eb + 1]! * 3 + 2]! - pos[b.edges[eb]! * 3 + 2]!;
      let nx = day * dbz - daz * dby;
      let ny = daz * dbx - dax * dbz;
      let nz = dax * dby - day * dbx;
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      // Parallel edges: the face axes cover them.
      if (l <= 1e-6 * Math.sqrt((dax * dax + day * day + daz * daz) * (dbx * dbx + dby * dby + dbz * dbz))) continue;
      nx /= l;
      ny /= l;
      nz /= l;
      span(pos, a.vertices, nx, ny, nz, axis);
      const minA = axis[0]!;
      const maxA = axis[1]!;
      span(pos, b.vertices, nx, ny, nz, axis);
      const minB = axis[0]!;
      const maxB = axis[1]!;
      // Oriented from a to b.
      let s = minB - maxA;
      if (minA - maxB > s) {
        s = minA - maxB;
        nx = -nx;
        ny = -ny;
        nz = -nz;
      }
      s -= margin;
      if (s > 0) return;
      if (s > sepE) {
        sepE = s;
        classA = ca;
        classB = cb;
        ax = nx;
        ay = ny;
        az = nz;
      }
    }
  }
  const faceSep = sepB > sepA + TOLERANCE ? sepB : sepA;
  if (classA >= 0 && sepE > faceSep + TOLERANCE) {
    edgeContact(particles, a, b, classA, classB, ax, ay, az, m);
    return;
  }
  if (sepB > sepA + TOLERANCE) faceContact(particles, b, planesB, faceB, a, planesA, margin, m);
  else faceContact(particles, a, planesA, faceA, b, planesB, margin, m);
}

/**
 * The reference face `r` of hull `ref` (planes in `rp`) against the most
 * opposed face of `inc`: the incident face is clipped to the reference face's
 * sides, and each clipped point below it is a contact. The incident hull is side A.
 */
function faceContact(particles: ParticleStore, ref: HullShape, rp: Float64Array, r: number, inc: HullShape, ip: Float64Array, margin: number, m: HullManifold): void {
  const pos = particles.position;
  const nx = rp[r * 4]!;
  const ny = rp[r * 4 + 1]!;
  const nz = rp[r * 4 + 2]!;
  const offset = rp[r * 4 + 3]!;
  let incident = 0;
  let most = Infinity;
  for (let f = 0; f < inc.planeTriangle.length; f++) {
    const d = ip[f * 4]! * nx + ip[f * 4 + 1]! * ny + ip[f * 4 + 2]! * nz;
    if (d < most) {
      most = d;
      incident = f;
    }
  }
  // The incident outline...
  let count = 0;
  for (let k = inc.loopStart[incident]!; k < inc.loopStart[incident + 1]! && count < POLYGON; k++) {
    const v = inc.loops[k]! * 3;
    polygon[count * 3] = pos[v]!;
    polygon[count * 3 + 1] = pos[v + 1]!;
    polygon[count * 3 + 2] = pos[v + 2]!;
    count++;
  }
  // ...clipped to each side of the reference outline (counter-clockwise seen from outside: e × n points out).
  const start = ref.loopStart[r]!;
  const end = ref.loopStart[r + 1]!;
  for (let k = start; k < end && count > 0; k++) {
    const p = ref.loops[k]! * 3;
    const q = ref.loops[k + 1 < end ? k + 1 : start]! * 3;
    const ex = pos[q]! - pos[p]!;
    const ey = pos[q + 1]! - pos[p + 1]!;
    const ez = pos[q + 2]! - pos[p + 2]!;
    const sx = ey * nz - ez * ny;
    const sy = ez * nx - ex * nz;
    const sz = ex * ny - ey * nx;
    const so = sx * pos[p]! + sy * pos[p + 1]! + sz * pos[p + 2]!;
    count = clip(count, sx, sy, sz, so);
  }
  m.normal[0] = nx;
  m.normal[1] = ny;
  m.normal[2] = nz;
  for (let k = 0; k < count && m.count < MANIFOLD; k++) {
    const x = polygon[k * 3]!;
    const y = polygon[k * 3 + 1]!;
    const z = polygon[k * 3 + 2]!;
    const s = nx * x + ny * y + nz * z - offset;
    if (s >= margin) continue;
    const o = m.count * 6;
    if (!weights(particles, inc, incident, x, y, z, 1, m, o) || !weights(particles, ref, r, x - nx * s, y - ny * s, z - nz * s, -1, m, o + 3)) continue;
    m.sizes[m.count] = 6;
    m.count++;
  }
}

/** Keeps the part of the polygon where sx·x + sy·y + sz·z ≤ so (Sutherland–Hodgman); returns its point count. */
function clip(count: number, sx: number, sy: number, sz: number, so: number): number {
  let out = 0;
  for (let k = 0; k < count; k++) {
    const j = k + 1 < count ? k + 1 : 0;
    const dk = sx * polygon[k * 3]! + sy * polygon[k * 3 + 1]! + sz * polygon[k * 3 + 2]! - so;
    const dj = sx * polygon[j * 3]! + sy * polygon[j * 3 + 1]! + sz * polygon[j * 3 + 2]! - so;
    if (dk <= 0 && out < POLYGON) {
      clipped[out * 3] = polygon[k * 3]!;
      clipped[out * 3 + 1] = polygon[k * 3 + 1]!;
      clipped[out * 3 + 2] = polygon[k * 3 + 2]!;
      out++;
    }
    if ((dk < 0 && dj > 0) || (dk > 0 && dj < 0)) {
      if (out < POLYGON) {
        const t = dk / (dk - dj);
        for (let c = 0; c < 3; c++) clipped[out * 3 + c] = polygon[k * 3 + c]! + (polygon[j * 3 + c]! - polygon[k * 3 + c]!) * t;
        out++;
      }
    }
  }
  const swap = polygon;
  polygon = clipped;
  clipped = swap;
  return out;
}

/** Writes the barycentric weights (times `sign`) of point (x, y, z) on the nearest triangle of plane `f` of `hull`. */
function weights(particles: ParticleStore, hull: HullShape, f: number, x: number, y: number, z: number, sign: number, m: HullManifold, o: number): boolean {
  const pos = particles.position;
  let best = Infinity;
  let bt = -1;
  let bu = 0;
  let bv = 0;
  let bw = 0;
  tri[0] = x;
  tri[1] = y;
  tri[2] = z;
  for (let t = 0; t < hull.trianglePlane.length; t++) {
    if (hull.trianglePlane[t] !== f) continue;
    for (let j = 0; j < 3; j++) {
      const v = hull.triangles[t * 3 + j]! * 3;
      for (let c = 0; c < 3; c++) tri[3 + j * 3 + c] = pos[v + c]!;
    }
    closestPointTriangle(tri);
    const u = tri[12]!;
    const v = tri[13]!;
    const w = tri[14]!;
    const dx = u * tri[3]! + v * tri[6]! + w * tri[9]! - x;
    const dy = u * tri[4]! + v * tri[7]! + w * tri[10]! - y;
    const dz = u * tri[5]! + v * tri[8]! + w * tri[11]! - z;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < best) {
      best = d2;
      bt = t;
      bu = u;
      bv = v;
      bw = w;
    }
  }
  if (bt < 0) return false;
  m.ids[o] = hull.triangles[bt * 3]!;
  m.ids[o + 1] = hull.triangles[bt * 3 + 1]!;
  m.ids[o + 2] = hull.triangles[bt * 3 + 2]!;
  m.coefs[o] = sign * bu;
  m.coefs[o + 1] = sign * bv;
  m.coefs[o + 2] = sign * bw;
  return true;
}

/** One contact between the supporting edges of classes `ca` of `a` and `cb` of `b` along axis (ax, ay, az), from a to b. */
function edgeContact(particles: ParticleStore, a: HullShape, b: HullShape, ca: number, cb: number, ax: number, ay: number, az: number, m: HullManifold): void {
  const pos = particles.position;
  const ea = support(pos, a, ca, ax, ay, az, 1);
  const eb = support(pos, b, cb, ax, ay, az, -1);
  const a1 = a.edges[ea]!;
  const b1 = a.edges[ea + 1]!;
  const a2 = b.edges[eb]!;
  const b2 = b.edges[eb + 1]!;
  for (let k = 0; k < 3; k++) {
    seg[k] = pos[a1 * 3 + k]!;
    seg[3 + k] = pos[b1 * 3 + k]!;
    seg[6 + k] = pos[a2 * 3 + k]!;
    seg[9 + k] = pos[b2 * 3 + k]!;
  }
  seg[15] = 0.5;
  closestSegmentSegment(seg);
  const s = seg[12]!;
  const t = seg[13]!;
  // a moves against the axis, away from b.
  m.normal[0] = -ax;
  m.normal[1] = -ay;
  m.normal[2] = -az;
  m.ids[0] = a1;
  m.ids[1] = b1;
  m.ids[2] = a2;
  m.ids[3] = b2;
  m.coefs[0] = 1 - s;
  m.coefs[1] = s;
  m.coefs[2] = -(1 - t);
  m.coefs[3] = -t;
  m.sizes[0] = 4;
  m.count = 1;
}

/** The edge of class `c` of `hull` farthest along (`sign` > 0) or against the axis: its offset into `hull.edges`. */
function support(pos: Float64Array, hull: HullShape, c: number, ax: number, ay: number, az: number, sign: number): number {
  let best = -1;
  let most = -Infinity;
  for (let e = 0; e < hull.edgeClass.length; e++) {
    if (hull.edgeClass[e] !== c) continue;
    const p = hull.edges[e * 2]! * 3;
    const q = hull.edges[e * 2 + 1]! * 3;
    const d = sign * (ax * (pos[p]! + pos[q]!) + ay * (pos[p + 1]! + pos[q + 1]!) + az * (pos[p + 2]! + pos[q + 2]!));
    if (d > most) {
      most = d;
      best = e * 2;
    }
  }
  return best;
}

/** Offset into `hull.edges` of the first edge of direction class `c`. */
function firstOfClass(hull: HullShape, c: number): number {
  for (let e = 0; e < hull.edgeClass.length; e++) if (hull.edgeClass[e] === c) return e * 2;
  return 0;
}

/** Lowest signed distance of the particles `ids` above plane `f` of `planes`. */
function lowest(pos: Float64Array, planes: Float64Array, f: number, ids: Int32Array): number {
  const nx = planes[f * 4]!;
  const ny = planes[f * 4 + 1]!;
  const nz = planes[f * 4 + 2]!;
  let low = Infinity;
  for (let k = 0; k < ids.length; k++) {
    const v = ids[k]! * 3;
    const s = nx * pos[v]! + ny * pos[v + 1]! + nz * pos[v + 2]!;
    if (s < low) low = s;
  }
  return low - planes[f * 4 + 3]!;
}

/** Writes into `out` [min, max] of the particles `ids` along (nx, ny, nz). */
function span(pos: Float64Array, ids: Int32Array, nx: number, ny: number, nz: number, out: Float64Array): void {
  let low = Infinity;
  let high = -Infinity;
  for (let k = 0; k < ids.length; k++) {
    const v = ids[k]! * 3;
    const s = nx * pos[v]! + ny * pos[v + 1]! + nz * pos[v + 2]!;
    if (s < low) low = s;
    if (s > high) high = s;
  }
  out[0] = low;
  out[1] = high;
}

/** Writes the unit normal and offset of every plane of `hull` into the first (`which` 0) or second plane buffer; false if one is degenerate. */
function planesOf(particles: ParticleStore, hull: HullShape, which: number): boolean {
  const count = hull.planeTriangle.length;
  if ((which === 0 ? planesA : planesB).length < count * 4) {
    if (which === 0) planesA = new Float64Array(count * 4);
    else planesB = new Float64Array(count * 4);
  }
  return writeHullPlanes(particles, hull, which === 0 ? planesA : planesB, 4);
}
