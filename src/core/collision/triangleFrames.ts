import { ACTIVE_SKIN } from './selfContactSkins.js';

/**
 * The frames of a surface's triangles for the picks of its self-contact
 * (`SurfaceSelfContact`): per triangle, once per pick rather than once per pair
 * (a triangle is in 20 or so), a ball holding it grown by how near counts, its
 * plane and the vectors that give a point's barycentric weights; and, per
 * particle, whether the sheet about it is bent, where a stick neighbour of a
 * corner can come over a triangle ({@link TriangleFrames.curved}).
 */
export class TriangleFrames {
  /** Per triangle, as of the latest pick or repick that looked at it ({@link FRAME} numbers): the centre and radius of a ball holding it grown by how near counts, how near counts, unit normal, corner a, the two barycentric vectors, and 0 (-1 if degenerate); see `SurfaceSelfContact.activate`. */
  frames = new Float64Array(0);
  /** Per particle of the body, this step: the sum of its triangles' unit normals (xyz). */
  private readonly normals: Float64Array;
  /** Per particle of the body, this step: 1 where its triangles do not all face within {@link FLAT} of their mean. */
  private readonly bent: Uint8Array;
  /** Per particle of the body, this step: 1 where it or a stick neighbour is bent (its neighbour pairs are looked at). */
  readonly curved: Uint8Array;

  /**
   * @param first,count the particle range of the body.
   * @param thickness least distance kept (m).
   * @param joinedStart,joined per particle first + k, its stick neighbours are joined[joinedStart[k] .. joinedStart[k + 1]) (body-relative).
   */
  constructor(
    private readonly first: number,
    private readonly count: number,
    private readonly thickness: number,
    private readonly joinedStart: Int32Array,
    private readonly joined: Int32Array,
  ) {
    this.normals = new Float64Array(count * 3);
    this.bent = new Uint8Array(count);
    this.curved = new Uint8Array(count);
  }

  /**
   * Each triangle's frame for this step, once per triangle rather than once per pair (a
   * triangle is in 20 or so): its ball, its unit normal, corner a, and the two vectors
   * whose dot products with (x - a) are the barycentric weights of corners b and c of x's
   * foot on its plane. Allocates only when the body has more triangles than ever.
   */
  frameAll(pos: Float64Array, triangles: ArrayLike<number>, triangleCount: number, reach: Float64Array): void {
    const first = this.first;
    if (this.frames.length < triangleCount * FRAME) this.frames = new Float64Array(triangleCount * FRAME);
    const frames = this.frames;
    // The sum of each particle's triangles' unit normals, for markCurved, in the same pass.
    const normals = this.normals;
    normals.fill(0);
    for (let t = 0; t < triangleCount; t++) {
      this.frameOf(pos, triangles, t, reach);
      const o = t * FRAME;
      for (let v = 0; v < 3; v++) {
        const q = (triangles[t * 3 + v]! - first) * 3;
        normals[q] = normals[q]! + frames[o + 5]!;
        normals[q + 1] = normals[q + 1]! + frames[o + 6]!;
        normals[q + 2] = normals[q + 2]! + frames[o + 7]!;
      }
    }
  }

  /** Triangle `t`'s frame (see {@link TriangleFrames.frames}), how near counts from the reaches `reach`. */
  frameOf(pos: Float64Array, triangles: ArrayLike<number>, t: number, reach: Float64Array): void {
    const first = this.first;
    const frames = this.frames;
    const a = triangles[t * 3]!;
    const b = triangles[t * 3 + 1]!;
    const c = triangles[t * 3 + 2]!;
    const ax = pos[a * 3]!;
    const ay = pos[a * 3 + 1]!;
    const az = pos[a * 3 + 2]!;
    const e1x = pos[b * 3]! - ax;
    const e1y = pos[b * 3 + 1]! - ay;
    const e1z = pos[b * 3 + 2]! - az;
    const e2x = pos[c * 3]! - ax;
    const e2y = pos[c * 3 + 1]! - ay;
    const e2z = pos[c * 3 + 2]! - az;
    // The centroid less a, and the largest distance from it to a corner.
    const gx = (e1x + e2x) / 3;
    const gy = (e1y + e2y) / 3;
    const gz = (e1z + e2z) / 3;
    const r2 = Math.max(gx * gx + gy * gy + gz * gz, (e1x - gx) ** 2 + (e1y - gy) ** 2 + (e1z - gz) ** 2, (e2x - gx) ** 2 + (e2y - gy) ** 2 + (e2z - gz) ** 2);
    const near = ACTIVE_SKIN * this.thickness + Math.max(reach[a - first]!, reach[b - first]!, reach[c - first]!);
    const nx = e1y * e2z - e1z * e2y;
    const ny = e1z * e2x - e1x * e2z;
    const nz = e1x * e2y - e1y * e2x;
    const len2 = nx * nx + ny * ny + nz * nz;
    const o = t * FRAME;
    frames[o] = ax + gx;
    frames[o + 1] = ay + gy;
    frames[o + 2] = az + gz;
    frames[o + 3] = Math.sqrt(r2) + near;
    frames[o + 4] = near;
    frames[o + 8] = ax;
    frames[o + 9] = ay;
    frames[o + 10] = az;
    if (len2 === 0) {
      // Degenerate: no normal, and no point is over it (weights of -1).
      for (let k = 5; k < 8; k++) frames[o + k] = 0;
      for (let k = 11; k < 17; k++) frames[o + k] = 0;
      frames[o + 17] = -1;
      for (let k = 18; k < 21; k++) frames[o + k] = 0;
      return;
    }
    const len = Math.sqrt(len2);
    frames[o + 5] = nx / len;
    frames[o + 6] = ny / len;
    frames[o + 7] = nz / len;
    // For p = x - a in the plane: v = ((e2 × n) · p) / |n|², u = ((n × e1) · p) / |n|².
    frames[o + 11] = (e2y * nz - e2z * ny) / len2;
    frames[o + 12] = (e2z * nx - e2x * nz) / len2;
    frames[o + 13] = (e2x * ny - e2y * nx) / len2;
    frames[o + 14] = (ny * e1z - nz * e1y) / len2;
    frames[o + 15] = (nz * e1x - nx * e1z) / len2;
    frames[o + 16] = (nx * e1y - ny * e1x) / len2;
    frames[o + 17] = 0;
    // Heights over the edges opposite a, b and c: a foot at weight -k of a corner is k times
    // its height outside the triangle, at least.
    const fx = e2x - e1x;
    const fy = e2y - e1y;
    const fz = e2z - e1z;
    frames[o + 18] = len / Math.sqrt(fx * fx + fy * fy + fz * fz);
    frames[o + 19] = len / Math.sqrt(e2x * e2x + e2y * e2y + e2z * e2z);
    frames[o + 20] = len / Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
  }

  /**
   * Marks, for this step, the particles whose neighbour pairs need a look: those that are
   * bent (one of their triangles faces more than {@link FLAT} away from their triangles'
   * mean normal, or is degenerate) or have a bent stick neighbour. Over the triangles of a
   * particle's neighbours the normals then differ by little (see {@link FLAT}), far from
   * the fold back over itself that puts a neighbour over one of them.
   */
  markCurved(triangles: ArrayLike<number>, triangleCount: number): void {
    const first = this.first;
    const frames = this.frames;
    const normals = this.normals;
    const bent = this.bent;
    bent.fill(0);
    for (let t = 0; t < triangleCount; t++) {
      const o = t * FRAME;
      const nx = frames[o + 5]!;
      const ny = frames[o + 6]!;
      const nz = frames[o + 7]!;
      for (let v = 0; v < 3; v++) {
        const p = triangles[t * 3 + v]! - first;
        const mx = normals[p * 3]!;
        const my = normals[p * 3 + 1]!;
        const mz = normals[p * 3 + 2]!;
        const along = nx * mx + ny * my + nz * mz;
        if (along <= 0 || along * along < FLAT * FLAT * (mx * mx + my * my + mz * mz)) bent[p] = 1;
      }
    }
    const curved = this.curved;
    const joinedStart = this.joinedStart;
    const joined = this.joined;
    for (let k = 0; k < this.count; k++) {
      let c = bent[k]!;
      for (let e = joinedStart[k]!; e < joinedStart[k + 1]! && c === 0; e++) c = bent[joined[e]!]!;
      curved[k] = c;
    }
  }
}

/**
 * Cosine of the largest angle (18°) between one of a particle's triangles and their mean
 * normal for the particle to count as flat. Over a flat particle's neighbours' triangles
 * the normals then differ by at most about 72°, far from the fold back over itself (near
 * 180°) that puts a neighbour over a triangle.
 */
const FLAT = 0.95;

/** Numbers per triangle in {@link SurfaceSelfContact.activate}'s frames. */
export const FRAME = 21;
