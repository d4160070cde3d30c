import { RIGID_DEFAULTS } from '../defaults.js';
import { checkNumber } from '../math.js';

/**
 * A light wood's density (kg/m³), for `density` when a rigid body should weigh
 * what a solid of its size does: a 0.5 m crate 62.5 kg, a 10 cm block 0.5 kg.
 * The default of every rigid builder given no `mass`.
 */
export const DEFAULT_RIGID_DENSITY = RIGID_DEFAULTS.density;

/**
 * Mass (kg) of a solid of `volume` m³: `density` (kg/m³, > 0; when undefined,
 * {@link DEFAULT_RIGID_DENSITY}) times the volume.
 *
 * @example
 * ```ts
 * massFromDensity(0.5 ** 3, undefined, 'createBox'); // 62.5
 * ```
 */
export function massFromDensity(volume: number, density: number | undefined, what: string): number {
  const rho = checkNumber(density ?? RIGID_DEFAULTS.density, `${what}: density`, 0);
  if (rho === 0 || rho === Infinity) throw new RangeError(`${what}: density must be a finite number > 0 (kg/m³), got ${rho}`);
  // A flat body would get mass 0, which means immovable: say so rather than pin it.
  if (!(volume > 0)) throw new RangeError(`${what}: points must not all lie on one line or in one plane when the mass comes from a density (they span no volume); give mass`);
  return rho * volume;
}

/**
 * Volume (m³) of the convex hull of `points` (flat x, y, z triples): the sum,
 * over the hull's faces, of the pyramids from the points' centroid to each
 * face. Faces are found by brute force (every plane through three points with
 * no point beyond it), so it suits the few dozen corners of a rigid body, not
 * a mesh. Flat or degenerate sets have volume 0.
 *
 * @example
 * ```ts
 * convexHullVolume([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]); // 1/6
 * ```
 */
export function convexHullVolume(points: readonly number[]): number {
  const n = points.length / 3;
  const p = (i: number, k: number) => points[i * 3 + k]!;
  const centroid = [0, 1, 2].map((k) => points.reduce((s, v, i) => (i % 3 === k ? s + v : s), 0) / n);
  let extent = 0;
  for (let i = 0; i < points.length; i++) extent = Math.max(extent, Math.abs(points[i]! - centroid[i % 3]!));
  const eps = 1e-9 * Math.max(extent, 1e-12);
  const seen = new Set<string>();
  let volume = 0;
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      for (let c = b + 1; c < n; c++) {
        const u = [0, 1, 2].map((k) => p(b, k) - p(a, k));
        const v = [0, 1, 2].map((k) => p(c, k) - p(a, k));
        const normal = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
        const length = Math.hypot(normal[0]!, normal[1]!, normal[2]!);
        if (length < eps * eps) continue; // three points on a line
        const nrm = normal.map((x) => x / length);
        const side = (i: number) => (p(i, 0) - p(a, 0)) * nrm[0]! + (p(i, 1) - p(a, 1)) * nrm[1]! + (p(i, 2) - p(a, 2)) * nrm[2]!;
        let above = false;
        let below = false;
        const onPlane: number[] = [];
        for (let i = 0; i < n; i++) {
          const d = side(i);
          if (d > eps) above = true;
          else if (d < -eps) below = true;
          else onPlane.push(i);
        }
        if (above && below) continue; // not a face
        const key = onPlane.join(',');
        if (seen.has(key)) continue; // a face with more than three corners, counted once
        seen.add(key);
        const height = Math.abs((centroid[0]! - p(a, 0)) * nrm[0]! + (centroid[1]! - p(a, 1)) * nrm[1]! + (centroid[2]! - p(a, 2)) * nrm[2]!);
        volume += (faceArea(onPlane, p, u, nrm) * height) / 3;
      }
    }
  }
  return volume;
}

/** Area of the convex hull of the coplanar points `ids`, in the plane spanned by `u` and `normal × u`. */
function faceArea(ids: readonly number[], p: (i: number, k: number) => number, u: readonly number[], normal: readonly number[]): number {
  const ul = Math.hypot(u[0]!, u[1]!, u[2]!);
  const e1 = u.map((x) => x / ul);
  const e2 = [normal[1]! * e1[2]! - normal[2]! * e1[1]!, normal[2]! * e1[0]! - normal[0]! * e1[2]!, normal[0]! * e1[1]! - normal[1]! * e1[0]!];
  const flat = ids.map((i) => [0, 1, 2].reduce((s, k) => s + p(i, k) * e1[k]!, 0)).map((x, j) => [x, [0, 1, 2].reduce((s, k) => s + p(ids[j]!, k) * e2[k]!, 0)] as const);
  flat.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  // Andrew's monotone chain, then the shoelace formula.
  const cross = (o: readonly number[], a: readonly number[], b: readonly number[]) => (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
  const hull: (readonly [number, number])[] = [];
  for (const pass of [flat, [...flat].reverse()]) {
    const start = hull.length;
    for (const q of pass) {
      while (hull.length >= start + 2 && cross(hull[hull.length - 2]!, hull[hull.length - 1]!, q) <= 0) hull.pop();
      hull.push(q);
    }
    hull.pop();
  }
  let twice = 0;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    twice += a[0] * b[1] - a[1] * b[0];
  }
  return Math.abs(twice) / 2;
}
