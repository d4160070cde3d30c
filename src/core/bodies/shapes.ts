import { PARTICLE_DEFAULTS } from '../defaults.js';
import { checkInteger, checkNumber, component, type Vec3, type Vec3Like } from '../math.js';

/**
 * A closed triangle mesh: `vertices` xyz interleaved, `faces` three vertex indices
 * each, wound counter-clockwise seen from outside (so (b - a) × (c - a) points out).
 */
export interface TriangleMesh {
  /** Vertex positions (m), xyz interleaved. */
  vertices: Float64Array;
  /** Vertex indices, three per triangle, counter-clockwise seen from outside. */
  faces: Uint32Array;
}

/**
 * The surface of a box of edge lengths `size` centred on the origin, each face cut
 * into `resolution` × `resolution` squares (two triangles each). Vertices on the
 * box's edges are shared by the faces that meet there, so the mesh is closed.
 *
 * @example
 * ```ts
 * const { vertices, faces } = boxMesh([1, 1, 1], 2); // 26 vertices, 48 triangles
 * ```
 */
export function boxMesh(size: Vec3Like, resolution = 1): TriangleMesh {
  const n = checkInteger(resolution, 'boxMesh: resolution', 1);
  const half: Vec3 = [0, 0, 0];
  for (let k = 0; k < 3; k++) half[k] = checkNumber(component(size, k as 0 | 1 | 2), 'boxMesh: size', Number.MIN_VALUE) / 2;
  // Lattice points (i, j, k) in [0, n]³ on the boundary become vertices, numbered in scan order.
  const index = new Int32Array((n + 1) ** 3).fill(-1);
  const lattice = (i: number, j: number, k: number) => (i * (n + 1) + j) * (n + 1) + k;
  const vertices: number[] = [];
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      for (let k = 0; k <= n; k++) {
        if (i !== 0 && i !== n && j !== 0 && j !== n && k !== 0 && k !== n) continue;
        index[lattice(i, j, k)] = vertices.length / 3;
        vertices.push(-half[0] + (2 * half[0] * i) / n, -half[1] + (2 * half[1] * j) / n, -half[2] + (2 * half[2] * k) / n);
      }
    }
  }
  const faces: number[] = [];
  const at = (axis: number, side: number, u: number, v: number): number => {
    const c = [0, 0, 0];
    c[axis] = side;
    c[(axis + 1) % 3] = u;
    c[(axis + 2) % 3] = v;
    return index[lattice(c[0]!, c[1]!, c[2]!)]!;
  };
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [0, n]) {
      for (let u = 0; u < n; u++) {
        for (let v = 0; v < n; v++) {
          const a = at(axis, side, u, v);
          const b = at(axis, side, u + 1, v);
          const c = at(axis, side, u, v + 1);
          const d = at(axis, side, u + 1, v + 1);
          faces.push(a, b, d, a, d, c);
        }
      }
    }
  }
  return orientOutward(new Float64Array(vertices), faces);
}

/**
 * A sphere of radius `radius` centred on the origin: an icosahedron whose triangles
 * are split in four `subdivisions` times, vertices pushed onto the sphere.
 * 0 gives 12 vertices, 1 gives 42, 2 gives 162, 3 gives 642.
 *
 * @example
 * ```ts
 * const ball = sphereMesh(0.5, 2); // 162 vertices, 320 triangles
 * ```
 */
export function sphereMesh(radius: number, subdivisions = 2): TriangleMesh {
  checkNumber(radius, 'sphereMesh: radius', Number.MIN_VALUE);
  const levels = checkInteger(subdivisions, 'sphereMesh: subdivisions', 0);
  const t = (1 + Math.sqrt(5)) / 2;
  const points: number[] = [-1, t, 0, 1, t, 0, -1, -t, 0, 1, -t, 0, 0, -1, t, 0, 1, t, 0, -1, -t, 0, 1, -t, t, 0, -1, t, 0, 1, -t, 0, -1, -t, 0, 1];
  let faces = [
    0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8, 3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1,
  ];
  for (let level = 0; level < levels; level++) {
    // Each edge is split once; the midpoint is shared by the two triangles beside it.
    const midpoints = new Map<number, number>();
    const midpoint = (a: number, b: number): number => {
      const key = Math.min(a, b) * 1e7 + Math.max(a, b);
      let m = midpoints.get(key);
      if (m === undefined) {
        m = points.length / 3;
        points.push((points[a * 3]! + points[b * 3]!) / 2, (points[a * 3 + 1]! + points[b * 3 + 1]!) / 2, (points[a * 3 + 2]! + points[b * 3 + 2]!) / 2);
        midpoints.set(key, m);
      }
      return m;
    };
    const next: number[] = [];
    for (let f = 0; f < faces.length; f += 3) {
      const a = faces[f]!;
      const b = faces[f + 1]!;
      const c = faces[f + 2]!;
      const ab = midpoint(a, b);
      const bc = midpoint(b, c);
      const ca = midpoint(c, a);
      next.push(a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca);
    }
    faces = next;
  }
  const vertices = new Float64Array(points);
  for (let v = 0; v < vertices.length; v += 3) {
    const scale = radius / Math.hypot(vertices[v]!, vertices[v + 1]!, vertices[v + 2]!);
    for (let k = 0; k < 3; k++) vertices[v + k] = vertices[v + k]! * scale;
  }
  return orientOutward(vertices, faces);
}

/**
 * Flips every triangle of a mesh that is star-shaped around the origin (a box, a
 * sphere) so that its normal points away from the origin.
 */
function orientOutward(vertices: Float64Array, faces: number[]): TriangleMesh {
  const out = new Uint32Array(faces);
  for (let f = 0; f < out.length; f += 3) {
    const a = out[f]! * 3;
    const b = out[f + 1]! * 3;
    const c = out[f + 2]! * 3;
    const ux = vertices[b]! - vertices[a]!;
    const uy = vertices[b + 1]! - vertices[a + 1]!;
    const uz = vertices[b + 2]! - vertices[a + 2]!;
    const vx = vertices[c]! - vertices[a]!;
    const vy = vertices[c + 1]! - vertices[a + 1]!;
    const vz = vertices[c + 2]! - vertices[a + 2]!;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    const mx = vertices[a]! + vertices[b]! + vertices[c]!;
    const my = vertices[a + 1]! + vertices[b + 1]! + vertices[c + 1]!;
    const mz = vertices[a + 2]! + vertices[b + 2]! + vertices[c + 2]!;
    if (nx * mx + ny * my + nz * mz < 0) {
      out[f + 1] = faces[f + 2]!;
      out[f + 2] = faces[f + 1]!;
    }
  }
  return { vertices, faces: out };
}

/**
 * The edges of a closed, consistently wound mesh, and for each edge the two
 * vertices opposite it (the third corners of the two triangles that share it).
 * Throws, naming `what`, unless every edge is shared by exactly two triangles
 * that traverse it in opposite directions: a mesh with a hole or a flipped
 * triangle has no inside, so it has no volume to preserve.
 */
export function meshEdges(faces: Uint32Array, vertexCount: number, what: string): { edges: Uint32Array; opposite: Uint32Array } {
  // Directed edge a→b of face f, keyed a·n + b; its third corner is what lies across the edge.
  const across = new Map<number, number>();
  for (let f = 0; f < faces.length; f += 3) {
    for (let e = 0; e < 3; e++) {
      const a = faces[f + e]!;
      const b = faces[f + ((e + 1) % 3)]!;
      const key = a * vertexCount + b;
      if (across.has(key)) throw new RangeError(`${what}: faces must be consistently wound, but edge ${a}→${b} is used twice in the same direction`);
      across.set(key, faces[f + ((e + 2) % 3)]!);
    }
  }
  const edges: number[] = [];
  const opposite: number[] = [];
  for (const [key, c] of across) {
    const a = Math.floor(key / vertexCount);
    const b = key - a * vertexCount;
    const d = across.get(b * vertexCount + a);
    if (d === undefined) throw new RangeError(`${what}: the mesh must be closed, but edge ${a}–${b} belongs to one triangle only`);
    if (a < b) {
      edges.push(a, b);
      opposite.push(c, d);
    }
  }
  return { edges: new Uint32Array(edges), opposite: new Uint32Array(opposite) };
}

/**
 * How heavy a body of particles is, as every builder and body component takes
 * it. `mass` is always the whole body's, as for a rigid body or a ragdoll;
 * `particleMass` is one particle's. Give one of them, or neither for the
 * builder's default (a cloth from an areal density, a rope from a linear
 * density, 1 kg per particle elsewhere).
 *
 * @example
 * ```ts
 * createCloth(world, { width: 20, height: 20, mass: 4 });          // 4 kg of cloth: 0.01 kg per particle
 * createCloth(world, { width: 20, height: 20, particleMass: 0.01 }); // the same cloth
 * ```
 */
export interface MassOptions {
  /** Mass of the whole body in kg (> 0), spread evenly over its particles. */
  mass?: number;
  /** Mass of each particle in kg (> 0); give this or `mass`. */
  particleMass?: number;
}

/**
 * The mass of each of `count` particles from {@link MassOptions}; `what` names
 * the builder. With neither option each particle weighs `defaultEach` kg (the
 * builder's default: from a density).
 */
export function massOfEachParticle(options: MassOptions, count: number, what: string, defaultEach: number = PARTICLE_DEFAULTS.mass): number {
  if (options.mass !== undefined && options.particleMass !== undefined) {
    throw new RangeError(`${what}: give mass (the whole body's) or particleMass (each particle's), not both; got mass ${String(options.mass)} and particleMass ${String(options.particleMass)}`);
  }
  if (options.mass !== undefined) return checkNumber(options.mass, `${what}: mass`, Number.MIN_VALUE) / count;
  return checkNumber(options.particleMass ?? defaultEach, `${what}: particleMass`, Number.MIN_VALUE);
}

/** Checks a stick stiffness, which must lie in (0, 1]; `what` names the argument. */
export function checkStiffness(value: number, what: string): number {
  checkNumber(value, what, 0, 1);
  if (value === 0) throw new RangeError(`${what} must be in (0, 1], got 0`);
  return value;
}
