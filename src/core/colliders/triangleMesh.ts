import { COLLIDER_DEFAULTS } from '../defaults.js';
import { closestPointTriangle, PointTri } from '../collision/closestPoints.js';
import { checkNumber } from '../math.js';
import type { ParticleStore } from '../particles.js';
import { Bvh } from './bvh.js';
import { collides, makeContact, pushOut, setSurface, type Collider } from './collider.js';

/** A static triangle soup: the environment of the paper's Hitman. */
export interface MeshShape {
  /** Shape name. */
  type: 'mesh';
  /** Vertex positions, xyz interleaved. */
  vertices: ArrayLike<number>;
  /** Three vertex indices per triangle; the front face is the one the triangle winds counter-clockwise on (three.js convention). */
  indices: ArrayLike<number>;
  /** Surface friction coefficient, default 1. */
  friction?: number;
  /** Bounciness in [0, 1], default 0: a contact bounces with the larger of this and the particle's (see `respondToContacts`). */
  restitution?: number;
}

/**
 * Distances within this of a triangle's edge count as inside it, so a particle
 * crossing exactly on the edge shared by two triangles is caught by both.
 */
const EDGE_SLACK = 1e-7;

/**
 * A static triangle mesh with a BVH broad phase. Triangles are one-sided
 * surfaces with no inside, so "penetration" means crossing: a particle whose
 * centre started the substep on or in front of a triangle (the previous
 * position x*) and is now closer to its plane than its radius, where its path
 * enters the triangle, is projected back onto the front along the normal. That
 * is the paper's swept test for a single point, and it keeps particles from
 * tunnelling through however fast they move. Near a triangle's rim (radius > 0)
 * a particle is pushed away from the nearest rim point instead, which rounds
 * convex edges. Degenerate (zero-area) triangles are ignored.
 *
 * @example
 * ```ts
 * // a 2 m × 2 m floor quad facing up, at y = 0
 * world.addCollider({ type: 'mesh', vertices: [-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1], indices: [0, 2, 1, 0, 3, 2] });
 * ```
 */
export class TriangleMeshCollider implements Collider {
  /** Shape name. */
  readonly type = 'mesh';
  /** Vertex positions (m), xyz interleaved. */
  readonly vertices: Float64Array;
  /** Three vertex indices per triangle. */
  readonly indices: Int32Array;
  /** Number of triangles (degenerate ones included). */
  readonly triangleCount: number;
  /** Unit front normal per triangle, xyz (zero for degenerate triangles). */
  readonly normals: Float64Array;
  /** Per triangle, the unit in-plane normals of its three edges pointing inward (9 numbers). */
  readonly edgeNormals: Float64Array;
  /** Broad phase over the triangles' bounding boxes. */
  readonly bvh: Bvh;
  /** Broad phase over the vertices (for vertices poking through particle triangles). */
  readonly vertexBvh: Bvh;
  /** Query results of {@link TriangleMeshCollider.bvh}; scratch, overwritten by each query. */
  readonly candidates: Int32Array;
  /** Query results of {@link TriangleMeshCollider.vertexBvh}; scratch. */
  readonly vertexCandidates: Int32Array;
  /** Coulomb coefficient of the surface; a contact's μ is particle friction × this. */
  friction: number;
  /** Bounciness of the surface in [0, 1]; a contact bounces with the larger of this and the particle's. */
  restitution: number;
  private contact = makeContact();
  private closest = new Float64Array(PointTri.Size);

  constructor(shape: MeshShape) {
    const what = 'mesh collider';
    const v = shape.vertices;
    const idx = shape.indices;
    if (!v || typeof v.length !== 'number' || v.length === 0 || v.length % 3 !== 0) throw new RangeError(`${what}: vertices must hold xyz triples, got length ${String(v?.length)}`);
    if (!idx || typeof idx.length !== 'number' || idx.length === 0 || idx.length % 3 !== 0) throw new RangeError(`${what}: indices must hold three per triangle, got length ${String(idx?.length)}`);
    this.vertices = Float64Array.from(v);
    for (let i = 0; i < this.vertices.length; i++) {
      if (!Number.isFinite(this.vertices[i]!)) throw new RangeError(`${what}: vertices must be finite numbers, got ${String(v[i])} at index ${i}`);
    }
    const vertexCount = this.vertices.length / 3;
    this.indices = new Int32Array(idx.length);
    for (let i = 0; i < idx.length; i++) {
      const k = idx[i]!;
      if (!Number.isInteger(k) || k < 0 || k >= vertexCount) throw new RangeError(`${what}: indices must be integers in [0, ${vertexCount - 1}], got ${String(k)} at index ${i}`);
      this.indices[i] = k;
    }
    this.friction = checkNumber(shape.friction ?? COLLIDER_DEFAULTS.friction, `${what}: friction`, 0);
    this.restitution = checkNumber(shape.restitution ?? COLLIDER_DEFAULTS.restitution, `${what}: restitution`, 0, 1);
    this.triangleCount = idx.length / 3;
    this.normals = new Float64Array(this.triangleCount * 3);
    this.edgeNormals = new Float64Array(this.triangleCount * 9);
    const boxes = new Float64Array(this.triangleCount * 6);
    for (let t = 0; t < this.triangleCount; t++) this.prepareTriangle(t, boxes);
    this.bvh = new Bvh(boxes);
    const points = new Float64Array(vertexCount * 6);
    for (let i = 0; i < vertexCount; i++) for (let k = 0; k < 3; k++) points[i * 6 + k] = points[i * 6 + 3 + k] = this.vertices[i * 3 + k]!;
    this.vertexBvh = new Bvh(points);
    this.candidates = new Int32Array(this.triangleCount);
    this.vertexCandidates = new Int32Array(vertexCount);
  }

  /**
   * True when point (x, y, z), read from `p[o..o+2]`, lies within the prism over
   * triangle `t` (its projection onto the plane is inside the triangle).
   */
  overTriangle(t: number, p: Float64Array, o: number): boolean {
    const v = this.vertices;
    const idx = this.indices;
    const m = this.edgeNormals;
    const x = p[o]!;
    const y = p[o + 1]!;
    const z = p[o + 2]!;
    for (let e = 0; e < 3; e++) {
      const vi = idx[t * 3 + e]! * 3;
      const me = t * 9 + e * 3;
      if (m[me]! * (x - v[vi]!) + m[me + 1]! * (y - v[vi + 1]!) + m[me + 2]! * (z - v[vi + 2]!) < -EDGE_SLACK) return false;
    }
    return true;
  }

  /** Projects live, movable particles in `[from, to)` that crossed a triangle back onto its front. */
  project(particles: ParticleStore, from: number, to: number): void {
    const pos = particles.position;
    const prev = particles.previous;
    const radius = particles.radius;
    const box = this.bvh.queryBox;
    for (let i = from; i < to; i++) {
      if (!collides(particles, i)) continue;
      const p = i * 3;
      const r = radius[i]!;
      for (let k = 0; k < 3; k++) {
        const a = pos[p + k]!;
        const b = prev[p + k]!;
        box[k] = (a < b ? a : b) - r;
        box[k + 3] = (a > b ? a : b) + r;
      }
      const n = this.bvh.query(this.candidates);
      for (let c = 0; c < n; c++) this.collideParticle(particles, i, this.candidates[c]!);
    }
  }

  /** One particle against one triangle (see the class comment). */
  private collideParticle(particles: ParticleStore, i: number, t: number): void {
    const nrm = this.normals;
    const nx = nrm[t * 3]!;
    const ny = nrm[t * 3 + 1]!;
    const nz = nrm[t * 3 + 2]!;
    if (nx === 0 && ny === 0 && nz === 0) return;
    const pos = particles.position;
    const prev = particles.previous;
    const v = this.vertices;
    const v0 = this.indices[t * 3]! * 3;
    const p = i * 3;
    const r = particles.radius[i]!;
    const s = nx * (pos[p]! - v[v0]!) + ny * (pos[p + 1]! - v[v0 + 1]!) + nz * (pos[p + 2]! - v[v0 + 2]!);
    if (s >= r) return;
    const sPrev = nx * (prev[p]! - v[v0]!) + ny * (prev[p + 1]! - v[v0 + 1]!) + nz * (prev[p + 2]! - v[v0 + 2]!);
    // Started behind the surface: a one-sided triangle does not see it.
    if (sPrev < 0) return;
    // Where the path x* → x enters the layer of thickness r in front of the plane.
    const f = sPrev > r ? (sPrev - r) / (sPrev - s) : 0;
    const q = this.closest;
    for (let k = 0; k < 3; k++) q[k] = prev[p + k]! + (pos[p + k]! - prev[p + k]!) * f;
    const contact = this.contact;
    setSurface(contact, this);
    if (this.overTriangle(t, q, 0)) {
      contact[0] = nx;
      contact[1] = ny;
      contact[2] = nz;
      contact[3] = r - s;
      pushOut(particles, i, contact);
      return;
    }
    // Beside the face: only the rim can touch, and only a particle with a radius.
    if (r === 0 || s < 0) return;
    for (let k = 0; k < 3; k++) q[k] = pos[p + k]!;
    for (let e = 0; e < 3; e++) {
      const vi = this.indices[t * 3 + e]! * 3;
      for (let k = 0; k < 3; k++) q[3 + e * 3 + k] = v[vi + k]!;
    }
    closestPointTriangle(q);
    const u = q[PointTri.U]!;
    const w1 = q[PointTri.V]!;
    const w2 = q[PointTri.W]!;
    const dx = pos[p]! - (u * q[3]! + w1 * q[6]! + w2 * q[9]!);
    const dy = pos[p + 1]! - (u * q[4]! + w1 * q[7]! + w2 * q[10]!);
    const dz = pos[p + 2]! - (u * q[5]! + w1 * q[8]! + w2 * q[11]!);
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 >= r * r || d2 === 0) return;
    const d = Math.sqrt(d2);
    contact[0] = dx / d;
    contact[1] = dy / d;
    contact[2] = dz / d;
    contact[3] = r - d;
    pushOut(particles, i, contact);
  }

  private prepareTriangle(t: number, boxes: Float64Array): void {
    const v = this.vertices;
    const a = this.indices[t * 3]! * 3;
    const b = this.indices[t * 3 + 1]! * 3;
    const c = this.indices[t * 3 + 2]! * 3;
    for (let k = 0; k < 3; k++) {
      boxes[t * 6 + k] = Math.min(v[a + k]!, v[b + k]!, v[c + k]!);
      boxes[t * 6 + 3 + k] = Math.max(v[a + k]!, v[b + k]!, v[c + k]!);
    }
    const e1 = [v[b]! - v[a]!, v[b + 1]! - v[a + 1]!, v[b + 2]! - v[a + 2]!] as const;
    const e2 = [v[c]! - v[a]!, v[c + 1]! - v[a + 1]!, v[c + 2]! - v[a + 2]!] as const;
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const len = Math.hypot(n[0]!, n[1]!, n[2]!);
    // Ignore slivers: a normal from a near-zero cross product points anywhere.
    const scale = Math.max(Math.hypot(...e1), Math.hypot(...e2));
    if (len <= 1e-12 * scale * scale) return;
    for (let k = 0; k < 3; k++) this.normals[t * 3 + k] = n[k]! / len;
    const corners = [a, b, c];
    for (let e = 0; e < 3; e++) {
      const from = corners[e]!;
      const to = corners[(e + 1) % 3]!;
      const dx = v[to]! - v[from]!;
      const dy = v[to + 1]! - v[from + 1]!;
      const dz = v[to + 2]! - v[from + 2]!;
      // n × edge points into the triangle for counter-clockwise winding about n.
      const mx = n[1]! * dz - n[2]! * dy;
      const my = n[2]! * dx - n[0]! * dz;
      const mz = n[0]! * dy - n[1]! * dx;
      const ml = Math.hypot(mx, my, mz);
      this.edgeNormals[t * 9 + e * 3] = mx / ml;
      this.edgeNormals[t * 9 + e * 3 + 1] = my / ml;
      this.edgeNormals[t * 9 + e * 3 + 2] = mz / ml;
    }
  }
}
