/** Layout of {@link segmentVsBoxLocal}'s buffer; coordinates are in the box's frame, centred on it. */
export const enum SegBox {
  /** a xyz, b xyz: the segment. */
  A = 0,
  B = 3,
  /** Half extents xyz. */
  Half = 6,
  /** Capsule radius of the segment. */
  Radius = 9,
  /** Out: parameter of the contact point on the segment, 0 at a. */
  T = 10,
  /** Out: unit normal out of the box, xyz. */
  Normal = 11,
  /** Out: how far the contact point must move along the normal. */
  Depth = 14,
  /** Scratch: sorted breakpoints of the distance function (8 slots). */
  Breaks = 15,
  /** Scratch: a breakpoint to insert. */
  Candidate = 23,
  /** In: parameter to touch at when the contact is a flat stretch (a stick's mass centre). */
  Prefer = 24,
  Size = 25,
}

/**
 * Contact of a capsule (segment ab grown by a radius) with a box, in the box's
 * frame. When the segment misses the box, the contact point is the segment
 * point nearest to it (found exactly: the squared distance is a convex,
 * piecewise quadratic function of the segment parameter, with breaks where a
 * coordinate crosses a slab); when the nearest points form a stretch (a stick
 * lying parallel to a face), the point of the stretch nearest to q[Prefer], the
 * stick's mass centre, so that section 5 lifts it level. When the segment cuts
 * the box, the contact is the least push along a face normal that clears the
 * part of the segment over that face, at the deepest point of that part (again
 * the point nearest q[Prefer] when that part lies level).
 * Returns false when they do not touch.
 */
export function segmentVsBoxLocal(q: Float64Array): boolean {
  return cutsBox(q) ? deepestFacePush(q) : nearestApproach(q);
}

/** True when segment ab meets the core box (slab clipping). */
function cutsBox(q: Float64Array): boolean {
  let lo = 0;
  let hi = 1;
  for (let k = 0; k < 3; k++) {
    const a = q[k]!;
    const d = q[3 + k]! - a;
    const h = q[6 + k]!;
    if (d === 0) {
      if (a > h || a < -h) return false;
      continue;
    }
    let t0 = (-h - a) / d;
    let t1 = (h - a) / d;
    if (t0 > t1) {
      const swap = t0;
      t0 = t1;
      t1 = swap;
    }
    if (t0 > lo) lo = t0;
    if (t1 < hi) hi = t1;
    if (lo > hi) return false;
  }
  return true;
}

/**
 * For each face direction ±k: the part of the segment inside the other two slabs
 * (a translation along k does not change it) must end up beyond the face by the
 * radius. The smallest such push wins; its contact point is the deepest end of
 * that part, or its middle when the part lies parallel to the face.
 */
function deepestFacePush(q: Float64Array): boolean {
  const r = q[9]!;
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    let lo = 0;
    let hi = 1;
    for (let j = 0; j < 3; j++) {
      if (j === k) continue;
      const a = q[j]!;
      const d = q[3 + j]! - a;
      const h = q[6 + j]!;
      if (d === 0) continue; // it cuts the box, so it lies within this slab
      let t0 = (-h - a) / d;
      let t1 = (h - a) / d;
      if (t0 > t1) {
        const swap = t0;
        t0 = t1;
        t1 = swap;
      }
      if (t0 > lo) lo = t0;
      if (t1 < hi) hi = t1;
    }
    const a = q[k]!;
    const d = q[3 + k]! - a;
    const h = q[6 + k]!;
    const p0 = a + d * lo;
    const p1 = a + d * hi;
    const flat = Math.abs(p1 - p0) <= 1e-9 * (1 + Math.abs(h));
    const up = h + r - (p0 < p1 ? p0 : p1);
    const down = (p0 > p1 ? p0 : p1) + h + r;
    if (up >= best && down >= best) continue;
    const sign = up <= down ? 1 : -1;
    best = sign > 0 ? up : down;
    q[10] = flat ? (q[24]! < lo ? lo : q[24]! > hi ? hi : q[24]!) : sign > 0 === p0 < p1 ? lo : hi;
    q[11] = k === 0 ? sign : 0;
    q[12] = k === 1 ? sign : 0;
    q[13] = k === 2 ? sign : 0;
    q[14] = best;
  }
  return true;
}

/** The segment misses the core box: contact at the nearest point, if within the radius. */
function nearestApproach(q: Float64Array): boolean {
  const r = q[9]!;
  // Breakpoints: where a coordinate crosses a slab face, inside (0, 1), sorted.
  let count = 0;
  q[15 + count++] = 0;
  for (let k = 0; k < 3; k++) {
    const a = q[k]!;
    const d = q[3 + k]! - a;
    if (d === 0) continue;
    const h = q[6 + k]!;
    q[23] = (-h - a) / d;
    count = insertBreak(q, count);
    q[23] = (h - a) / d;
    count = insertBreak(q, count);
  }
  q[15 + count++] = 1;
  let bestF = Infinity;
  let bestT = 0;
  for (let piece = 0; piece + 1 < count; piece++) {
    const t0 = q[15 + piece]!;
    const t1 = q[15 + piece + 1]!;
    if (t1 <= t0) continue;
    const tm = (t0 + t1) / 2;
    // On this piece each coordinate is above, below or inside its slab throughout.
    let num = 0;
    let den = 0;
    for (let k = 0; k < 3; k++) {
      const a = q[k]!;
      const d = q[3 + k]! - a;
      const h = q[6 + k]!;
      const x = a + d * tm;
      const face = x > h ? h : x < -h ? -h : x;
      if (face === x) continue;
      num += (a - face) * d;
      den += d * d;
    }
    const flat = den <= 1e-18;
    let t = flat ? q[24]! : -num / den;
    t = t < t0 ? t0 : t > t1 ? t1 : t;
    let f = 0;
    for (let k = 0; k < 3; k++) {
      const x = q[k]! + (q[3 + k]! - q[k]!) * t;
      const h = q[6 + k]!;
      const o = x > h ? x - h : x < -h ? x + h : 0;
      f += o * o;
    }
    // A flat stretch wins ties, so a stick lying level is touched in its middle.
    if (bestF === Infinity || f < bestF - 1e-15 * (1 + bestF) || (flat && f <= bestF + 1e-15 * (1 + bestF))) {
      bestF = f;
      bestT = t;
    }
  }
  if (bestF >= r * r || bestF === 0) return false;
  const d = Math.sqrt(bestF);
  for (let k = 0; k < 3; k++) {
    const x = q[k]! + (q[3 + k]! - q[k]!) * bestT;
    const h = q[6 + k]!;
    q[11 + k] = (x - (x > h ? h : x < -h ? -h : x)) / d;
  }
  q[10] = bestT;
  q[14] = r - d;
  return true;
}

/** Inserts the breakpoint q[23] if it lies strictly inside (0, 1); returns the new count. */
function insertBreak(q: Float64Array, count: number): number {
  const t = q[23]!;
  if (!(t > 0 && t < 1)) return count;
  let i = count;
  while (i > 1 && q[15 + i - 1]! > t) {
    q[15 + i] = q[15 + i - 1]!;
    i--;
  }
  q[15 + i] = t;
  return count + 1;
}
