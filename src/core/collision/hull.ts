import type { BodyRecord } from '../bodies/body.js';
import type { FeatureKind, WorldFeature } from '../features.js';
import type { ParticleStore } from '../particles.js';
import type { World } from '../world.js';
import { bodyContacts } from './bodyContacts.js';
import { hullTests } from './hullTests.js';

/**
 * The convex hull of a rigid body's particles, as other bodies collide with it:
 * outward-wound triangles over particle ids, the distinct planes they lie in
 * (a box has 12 triangles in 6 planes) and the edges between different planes
 * (a box face's diagonal is not one). Found once, from the body's rest shape:
 * the sticks keep the particles in that shape, so the topology holds and only
 * the positions move.
 */
export interface HullShape {
  /** Particle ids of the hull's corners. */
  readonly vertices: Int32Array;
  /** Particle ids, three per triangle, counter-clockwise seen from outside. */
  readonly triangles: Int32Array;
  /** The plane (index) each triangle lies in. */
  readonly trianglePlane: Int32Array;
  /** A triangle (index) of each plane, whose corners give the plane's normal. */
  readonly planeTriangle: Int32Array;
  /** Particle ids, two per edge between two planes. */
  readonly edges: Int32Array;
  /** Each plane's outline: particle ids of plane f at loops[loopStart[f] .. loopStart[f + 1]), counter-clockwise seen from outside. */
  readonly loops: Int32Array;
  readonly loopStart: Int32Array;
  /** Per edge, its direction class: parallel edges (a box's four along x) share one, for the separating-axis test. */
  readonly edgeClass: Int32Array;
  /** Number of direction classes. */
  readonly classes: number;
}

/**
 * Writes each plane of `hull` as the particles now place it into `out`,
 * `stride` numbers per plane: the unit normal xyz and its offset (n · x); with a
 * stride of 5, also the offset the plane had at the previous positions (the same
 * normal: a hull turns little within a substep). False if a plane's triangle has
 * collapsed (no normal). `out` must hold `stride` numbers per plane.
 */
export function writeHullPlanes(particles: ParticleStore, hull: HullShape, out: Float64Array, stride: number): boolean {
  const pos = particles.position;
  const prev = particles.previous;
  const triangles = hull.triangles;
  const count = hull.planeTriangle.length;
  for (let f = 0; f < count; f++) {
    const t = hull.planeTriangle[f]! * 3;
    const A = triangles[t]! * 3;
    const B = triangles[t + 1]! * 3;
    const C = triangles[t + 2]! * 3;
    const ex = pos[B]! - pos[A]!;
    const ey = pos[B + 1]! - pos[A + 1]!;
    const ez = pos[B + 2]! - pos[A + 2]!;
    const fx = pos[C]! - pos[A]!;
    const fy = pos[C + 1]! - pos[A + 1]!;
    const fz = pos[C + 2]! - pos[A + 2]!;
    let nx = ey * fz - ez * fy;
    let ny = ez * fx - ex * fz;
    let nz = ex * fy - ey * fx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l === 0) return false;
    nx /= l;
    ny /= l;
    nz /= l;
    const o = f * stride;
    out[o] = nx;
    out[o + 1] = ny;
    out[o + 2] = nz;
    out[o + 3] = nx * pos[A]! + ny * pos[A + 1]! + nz * pos[A + 2]!;
    if (stride >= 5) out[o + 4] = nx * prev[A]! + ny * prev[A + 1]! + nz * prev[A + 2]!;
  }
  return true;
}

/** Counts the hulls added to a world: the body-contact stage re-lists its features when it changes. */
class HullCount implements WorldFeature {
  version = 0;

  /** A removed body's hull goes with it. */
  bodyRemoved(_world: World, body: BodyRecord): void {
    if (body.hull === undefined) return;
    body.hull = undefined;
    this.version++;
  }
}

/** The world's hull count as a feature of it (see `World.features`). */
const HULLS: FeatureKind<HullCount> = { name: 'hulls', create: () => new HullCount() };

/**
 * Makes `body` collide with other bodies as the convex hull of `vertices`
 * (particle ids), whose rest positions are `local` (xyz per vertex, any frame).
 * Rigid-body builders call it; a flat point set has no volume and gets no hull
 * (its capsule edges still collide). Returns false then.
 *
 * @example
 * ```ts
 * addBodyHull(world, box.body, box.vertices, localCorners);
 * ```
 */
export function addBodyHull(world: World, body: BodyRecord, vertices: readonly number[], local: readonly number[]): boolean {
  const found = convexHull(local, vertices.length);
  if (!found) return false;
  const ids = (list: number[]) => Int32Array.from(list, (k) => vertices[k]!);
  const used = [...new Set(found.triangles)].sort((a, b) => a - b);
  body.hull = {
    vertices: ids(used),
    triangles: ids(found.triangles),
    trianglePlane: Int32Array.from(found.trianglePlane),
    planeTriangle: Int32Array.from(found.planeTriangle),
    edges: ids(found.edges),
    loops: ids(found.loops),
    loopStart: Int32Array.from(found.loopStart),
    edgeClass: Int32Array.from(found.edgeClass),
    classes: found.classes,
  };
  world.features.of(HULLS).version++;
  // Hulls collide with other bodies: the body-contact stage starts with the first, and tests hulls from then on.
  bodyContacts(world).addHullTests(hullTests);
  return true;
}

/**
 * The hull `body` collides as, if it has one.
 *
 * @example
 * ```ts
 * hullOf(createBox(world, {}).body)?.planeTriangle.length; // 6: a box has six face planes
 * ```
 */
export function hullOf(body: BodyRecord): HullShape | undefined {
  return body.hull;
}

/** Changes whenever a hull is added to `world` (the body-contact stage re-lists its features then). */
export function hullVersion(world: World): number {
  return world.features.get(HULLS)?.version ?? 0;
}

/** A hull over point indices: triangles, their planes and the edges between planes. */
export interface HullTopology {
  triangles: number[];
  trianglePlane: number[];
  planeTriangle: number[];
  edges: number[];
  loops: number[];
  loopStart: number[];
  edgeClass: number[];
  classes: number;
}

/**
 * The convex hull of `n` points (xyz in `p`), incrementally: a first
 * tetrahedron, then each point outside sees some faces, which are replaced by a
 * fan from the point to the rim of what it sees. Null when the points span no
 * volume (all on a plane). Build-time only; O(n²) for the small sets rigid
 * bodies have.
 */
export function convexHull(p: readonly number[], n: number): HullTopology | null {
  if (n < 4) return null;
  const at = (i: number, k: number) => p[i * 3 + k]!;
  let scale = 0;
  for (let i = 1; i < n; i++) for (let k = 0; k < 3; k++) scale = Math.max(scale, Math.abs(at(i, k) - at(0, k)));
  if (scale === 0) return null;
  const eps = 1e-9 * scale;
  const sub = (i: number, j: number): number[] => [at(i, 0) - at(j, 0), at(i, 1) - at(j, 1), at(i, 2) - at(j, 2)];
  const cross = (u: number[], v: number[]) => [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
  const dot = (u: number[], v: number[]) => u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!;
  const farthest = (score: (i: number) => number) => {
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < n; i++) {
      const s = score(i);
      if (s > bestScore) [best, bestScore] = [i, s];
    }
    return [best, bestScore] as const;
  };
  const [i1, d1] = farthest((i) => Math.hypot(...sub(i, 0)));
  if (d1 <= eps) return null;
  const axis = sub(i1, 0);
  const [i2, d2] = farthest((i) => Math.hypot(...cross(axis, sub(i, 0))) / d1);
  if (d2 <= eps) return null;
  const normal = cross(axis, sub(i2, 0));
  const unit = Math.hypot(...normal);
  const [i3, d3] = farthest((i) => Math.abs(dot(normal, sub(i, 0))) / unit);
  if (d3 <= eps) return null;

  interface Face {
    v: [number, number, number];
    n: number[];
    d: number;
    alive: boolean;
  }
  const faces: Face[] = [];
  const addFace = (a: number, b: number, c: number) => {
    const m = cross(sub(b, a), sub(c, a));
    const l = Math.hypot(...m);
    const nn = l > 0 ? m.map((x) => x / l) : [0, 0, 0];
    faces.push({ v: [a, b, c], n: nn, d: nn[0]! * at(a, 0) + nn[1]! * at(a, 1) + nn[2]! * at(a, 2), alive: true });
  };
  const outside = (f: Face, i: number) => f.n[0]! * at(i, 0) + f.n[1]! * at(i, 1) + f.n[2]! * at(i, 2) - f.d;
  const first = [0, i1, i2, i3];
  // Each face of the first tetrahedron, wound so the fourth corner is behind it.
  for (const [a, b, c, opposite] of [
    [0, i1, i2, i3],
    [0, i1, i3, i2],
    [0, i2, i3, i1],
    [i1, i2, i3, 0],
  ] as const) {
    addFace(a, b, c);
    if (outside(faces[faces.length - 1]!, opposite) > 0) {
      faces.pop();
      addFace(a, c, b);
    }
  }
  for (let i = 0; i < n; i++) {
    if (first.includes(i)) continue;
    const visible = faces.filter((f) => f.alive && outside(f, i) > eps);
    if (visible.length === 0) continue;
    const seen = new Set<number>();
    for (const f of visible) for (let e = 0; e < 3; e++) seen.add(f.v[e]! * n + f.v[(e + 1) % 3]!);
    const rim: [number, number][] = [];
    for (const f of visible) {
      f.alive = false;
      for (let e = 0; e < 3; e++) {
        const a = f.v[e]!;
        const b = f.v[(e + 1) % 3]!;
        if (!seen.has(b * n + a)) rim.push([a, b]);
      }
    }
    for (const [a, b] of rim) addFace(a, b, i);
  }
  const live = faces.filter((f) => f.alive);
  const triangles: number[] = [];
  const trianglePlane: number[] = [];
  const planeTriangle: number[] = [];
  const planes: Face[] = [];
  live.forEach((f, t) => {
    triangles.push(...f.v);
    let k = planes.findIndex((q) => dot(q.n, f.n) > 1 - 1e-9 && Math.abs(q.d - f.d) <= 1e-7 * scale);
    if (k < 0) {
      k = planes.length;
      planes.push(f);
      planeTriangle.push(t);
    }
    trianglePlane.push(k);
  });
  // An edge between two triangles of one plane (a box face's diagonal) is not an edge of the solid.
  const sides = new Map<number, number[]>();
  live.forEach((f, t) => {
    for (let e = 0; e < 3; e++) {
      const a = f.v[e]!;
      const b = f.v[(e + 1) % 3]!;
      const key = Math.min(a, b) * n + Math.max(a, b);
      sides.set(key, [...(sides.get(key) ?? []), trianglePlane[t]!]);
    }
  });
  const edges: number[] = [];
  for (const [key, planesOf] of sides) if (planesOf.length !== 2 || planesOf[0] !== planesOf[1]) edges.push(Math.floor(key / n), key % n);
  // Each plane's outline: its triangles' edges that no other triangle of the plane shares, chained.
  const loops: number[] = [];
  const loopStart: number[] = [];
  for (let k = 0; k < planes.length; k++) {
    const directed = new Map<number, number>();
    live.forEach((f, t) => {
      if (trianglePlane[t] !== k) return;
      for (let e = 0; e < 3; e++) directed.set(f.v[e]! * n + f.v[(e + 1) % 3]!, f.v[(e + 1) % 3]!);
    });
    const next = new Map<number, number>();
    for (const [key, to] of directed) {
      const from = Math.floor(key / n);
      if (!directed.has(to * n + from)) next.set(from, to);
    }
    loopStart.push(loops.length);
    const start = next.keys().next().value!;
    let at = start;
    do {
      loops.push(at);
      at = next.get(at)!;
    } while (at !== start && loops.length - loopStart[k]! <= next.size);
  }
  loopStart.push(loops.length);
  // Parallel edges share a direction class.
  const directions: number[][] = [];
  const edgeClass: number[] = [];
  for (let e = 0; e < edges.length; e += 2) {
    const d = sub(edges[e + 1]!, edges[e]!);
    const l = Math.hypot(...d);
    const u = d.map((x) => x / l);
    let k = directions.findIndex((q) => Math.abs(dot(q, u)) > 1 - 1e-9);
    if (k < 0) {
      k = directions.length;
      directions.push(u);
    }
    edgeClass.push(k);
  }
  return { triangles, trianglePlane, planeTriangle, edges, loops, loopStart, edgeClass, classes: directions.length };
}
