import type { Vec3 } from '../math.js';

/**
 * The sticks that hold `n` local points rigid. Up to eight points, every pair (the
 * paper's tetrahedron and box). Beyond that, every pair over-constrains the body so
 * much that one relaxation pass overshoots: a spinning 14-point body's sticks go
 * 160% off within a second and it flies apart. So each point is tied to four
 * well-spread anchor points, which fixes it in space, and to its nearest
 * neighbours, which keeps the surface stiff between the anchors.
 */
export function rigidPairs(local: readonly number[], n: number): [number, number][] {
  if (n <= 8) return allPairs(n);
  const at = (i: number): Vec3 => [local[i * 3]!, local[i * 3 + 1]!, local[i * 3 + 2]!];
  const anchors = spreadAnchors(local, n);
  const keys = new Set<number>();
  const pairs: [number, number][] = [];
  const add = (i: number, j: number) => {
    if (i === j) return;
    const key = Math.min(i, j) * n + Math.max(i, j);
    if (keys.has(key)) return;
    keys.add(key);
    pairs.push([Math.min(i, j), Math.max(i, j)]);
  };
  for (let i = 0; i < n; i++) {
    for (const a of anchors) add(i, a);
    const p = at(i);
    const nearest = Array.from({ length: n }, (_, j) => j)
      .filter((j) => j !== i)
      .sort((j, k) => distanceSquared(p, at(j)) - distanceSquared(p, at(k)))
      .slice(0, NEIGHBOURS);
    for (const j of nearest) add(i, j);
  }
  return pairs;
}

/** Nearest neighbours each point of a large rigid body is tied to, besides the anchors. */
const NEIGHBOURS = 3;

/** Four points far apart (farthest from the centroid, from it, from their line, from their plane). */
function spreadAnchors(local: readonly number[], n: number): number[] {
  const at = (i: number): Vec3 => [local[i * 3]!, local[i * 3 + 1]!, local[i * 3 + 2]!];
  const centroid: Vec3 = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) centroid[k] = centroid[k]! + local[i * 3 + k]! / n;
  const farthest = (score: (p: Vec3) => number, taken: number[]) => {
    let best = -1;
    let bestScore = -1;
    for (let i = 0; i < n; i++) {
      if (taken.includes(i)) continue;
      const s = score(at(i));
      if (s > bestScore) [best, bestScore] = [i, s];
    }
    return best;
  };
  const a = farthest((p) => distanceSquared(p, centroid), []);
  const b = farthest((p) => distanceSquared(p, at(a)), [a]);
  const pa = at(a);
  const ab = sub(at(b), pa);
  const c = farthest((p) => lengthSquared(cross(ab, sub(p, pa))), [a, b]);
  const normal = cross(ab, sub(at(c), pa));
  const d = farthest((p) => Math.abs(dot(normal, sub(p, pa))), [a, b, c]);
  return [a, b, c, d];
}

function sub(p: Vec3, q: Vec3): Vec3 {
  return [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
}
function dot(p: Vec3, q: Vec3): number {
  return p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
}
function cross(p: Vec3, q: Vec3): Vec3 {
  return [p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0]];
}
function lengthSquared(p: Vec3): number {
  return dot(p, p);
}
function distanceSquared(p: Vec3, q: Vec3): number {
  return lengthSquared(sub(p, q));
}

/** Every pair of `n` points, as index pairs i < j. */
export function allPairs(n: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push([i, j]);
  return pairs;
}
