import type { ParticleStore } from '../particles.js';
import { BodyContact } from './bodyContactTests.js';
import { closestPointTriangle } from './closestPoints.js';
import { writeHullPlanes, type HullShape } from './hull.js';
import { hullHull, HullManifold } from './hullContact.js';
import { solidPairs, type SolidPairs } from './solidPairs.js';

/*
 * The body-contact tests against convex hulls (rigid bodies): a particle or a
 * segment against a hull here, a hull against a hull in hullContact.ts; the
 * buffer they write is bodyContactTests.ts's. They join the body-contact stage
 * with the world's first hull (`addBodyHull` hands them over, see
 * {@link HullTests}), so an app of cloth and ropes alone carries none of them.
 */

/** The hull tests as the body-contact stage calls them, once a world has a hull. */
export interface HullTests {
  pointHull: typeof pointHull;
  segmentHull: typeof segmentHull;
  hullHull: typeof hullHull;
  /** A manifold for the stage's hull pairs. */
  manifold(): HullManifold;
  /** The broad phase's listing of the pairs these test. */
  pairs: SolidPairs;
}

/** The hull tests `addBodyHull` gives the body-contact stage. */
export const hullTests: HullTests = { pointHull, segmentHull, hullHull, manifold: () => new HullManifold(), pairs: solidPairs };

// closestPoints.ts's PointTri layout as plain numbers (a const enum imported from
// another module is a property load per use under vitest's module runner).
const PT_U = 12;
const PT_V = 13;
const PT_W = 14;

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
  tri[0] = x - planes[o]! * s;
  tri[1] = y - planes[o + 1]! * s;
  tri[2] = z - planes[o + 2]! * s;
  return onFace(particles, hull, best, 1, c, ids);
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
  tri[0] = px - planes[o]! * s;
  tri[1] = py - planes[o + 1]! * s;
  tri[2] = pz - planes[o + 2]! * s;
  return onFace(particles, hull, act, 2, c, ids);
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
 * The hull's side of a contact: the point `tri[0..2]` on plane `plane` is shared
 * among the corners of that plane's triangle nearest to it, with barycentric
 * weights, written after the `k` entries side A already holds. (The point comes
 * in the scratch array: a double passed to a call V8 does not inline is boxed.)
 */
function onFace(particles: ParticleStore, hull: HullShape, plane: number, k: number, c: Float64Array, ids: Int32Array): boolean {
  const pos = particles.position;
  const q = tri;
  const triangles = hull.triangles;
  let best = Infinity;
  let bt = -1;
  let bu = 0;
  let bv = 0;
  let bw = 0;
  const x = q[0]!;
  const y = q[1]!;
  const z = q[2]!;
  for (let t = 0; t < hull.trianglePlane.length; t++) {
    if (hull.trianglePlane[t] !== plane) continue;
    for (let j = 0; j < 3; j++) {
      const v = triangles[t * 3 + j]! * 3;
      for (let m = 0; m < 3; m++) q[3 + j * 3 + m] = pos[v + m]!;
    }
    closestPointTriangle(q);
    const dx = q[PT_U]! * q[3]! + q[PT_V]! * q[6]! + q[PT_W]! * q[9]! - x;
    const dy = q[PT_U]! * q[4]! + q[PT_V]! * q[7]! + q[PT_W]! * q[10]! - y;
    const dz = q[PT_U]! * q[5]! + q[PT_V]! * q[8]! + q[PT_W]! * q[11]! - z;
    const d2 = dx * dx + dy * dy + dz * dz;
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
