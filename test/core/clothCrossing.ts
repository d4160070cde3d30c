import type { ClothHandle, World } from '../../src/core/index.js';

/*
 * An independent check that nothing passed through a horizontal cloth, for the
 * cloth-as-a-surface tests. It does not use the engine's contact code: it reads
 * the cloth's surface triangles as they are now, projected straight down onto
 * the x–z plane, and asks, for each probe point, on which side of the cloth it
 * is there. Of the triangles over or under the point (more than one where the
 * cloth folds over itself), the nearest in height decides, by the side its
 * normal points to: +1 is the side the normal points to, the top of the flat
 * cloth, and a point above a flap folded over onto the cloth is under it. A
 * probe whose side changes from one step to a later one without having left the
 * cloth's footprint in between went through the cloth; one that went round the
 * edge left the footprint first and does not count.
 *
 * A point within `tolerance` of the surface is on it and has no side: a radius-0
 * particle resting on a sagging cloth touches one triangle's plane and may sit a
 * hair under its neighbour's in the straight-down projection. A point that comes
 * within `rim` of the cloth's free edge (its boundary, in 3D) may go round it
 * within a step, so it counts as having left, as does a point whose nearest
 * layer is a triangle on the free edge: a box sliding off the hammock's edge
 * drags the edge under itself and curls it over, and the edge springs back past
 * the box's corner.
 */

/** A point followed by the check: particle `a`, or the point `t` of the way from `a` to `b`. */
export interface Probe {
  a: number;
  b: number;
  t: number;
}

/** Probes at `n + 1` evenly spaced points of each segment (a capsule's axis, a box edge, a rope segment). */
export function segmentProbes(segments: readonly (readonly [number, number])[], n: number): Probe[] {
  const probes: Probe[] = [];
  for (const [a, b] of segments) for (let k = 0; k <= n; k++) probes.push({ a, b, t: k / n });
  return probes;
}

/** Follows probes through the steps of one world and counts the crossings of one cloth. */
export class CrossingCheck {
  /** Crossings found so far (a probe passing through twice counts twice). */
  crossings = 0;
  /** The steps at which they were found, and where the probe was then, for messages. */
  readonly at: number[] = [];
  readonly where: [number, number, number][] = [];
  private readonly last: Int8Array;
  private readonly left: Uint8Array;
  private steps = 0;

  /** Particle pairs of the cloth's free edge: edges of one triangle only. */
  private readonly rimEdges: number[] = [];
  /** Triangles with an edge on the free edge. */
  private readonly rimTriangles = new Set<number>();

  constructor(
    private readonly world: World,
    private readonly cloth: ClothHandle,
    private readonly probes: readonly Probe[],
    private readonly tolerance = 1e-3,
    private readonly rim = 0.1,
  ) {
    this.last = new Int8Array(probes.length);
    this.left = new Uint8Array(probes.length);
    const uses = new Map<string, number>();
    const { triangles, triangleCount } = cloth.surface;
    for (let t = 0; t < triangleCount; t++) {
      for (let e = 0; e < 3; e++) {
        const a = triangles[t * 3 + e]!;
        const b = triangles[t * 3 + ((e + 1) % 3)]!;
        const key = a < b ? `${a},${b}` : `${b},${a}`;
        uses.set(key, (uses.get(key) ?? 0) + 1);
      }
    }
    for (const [key, n] of uses) if (n === 1) this.rimEdges.push(...key.split(',').map(Number));
    const free = new Set<string>(this.rimEdges.flatMap((id, k) => (k % 2 === 0 ? [`${id},${this.rimEdges[k + 1]!}`] : [])));
    for (let t = 0; t < triangleCount; t++) {
      for (let e = 0; e < 3; e++) {
        const a = triangles[t * 3 + e]!;
        const b = triangles[t * 3 + ((e + 1) % 3)]!;
        if (free.has(a < b ? `${a},${b}` : `${b},${a}`)) this.rimTriangles.add(t);
      }
    }
    this.observe();
  }

  /** Reads every probe's side now; call after each step. */
  observe(): void {
    const pos = this.world.particles.position;
    for (let k = 0; k < this.probes.length; k++) {
      const { a, b, t } = this.probes[k]!;
      const x = pos[a * 3]! + (pos[b * 3]! - pos[a * 3]!) * t;
      const y = pos[a * 3 + 1]! + (pos[b * 3 + 1]! - pos[a * 3 + 1]!) * t;
      const z = pos[a * 3 + 2]! + (pos[b * 3 + 2]! - pos[a * 3 + 2]!) * t;
      const side = this.side(x, y, z);
      if (side === 2 || this.nearRim(x, y, z)) {
        this.left[k] = 1;
        continue;
      }
      if (side === 0) continue;
      if (this.last[k] !== 0 && side !== this.last[k] && this.left[k] === 0) {
        this.crossings++;
        this.at.push(this.steps);
        this.where.push([x, y, z]);
      }
      this.last[k] = side;
      this.left[k] = 0;
    }
    this.steps++;
  }

  /** True when (x, y, z) is within `rim` of the cloth's free edge. */
  private nearRim(x: number, y: number, z: number): boolean {
    const pos = this.world.particles.position;
    const edges = this.rimEdges;
    const r2 = this.rim * this.rim;
    for (let e = 0; e < edges.length; e += 2) {
      const A = edges[e]! * 3;
      const B = edges[e + 1]! * 3;
      const dx = pos[B]! - pos[A]!;
      const dy = pos[B + 1]! - pos[A + 1]!;
      const dz = pos[B + 2]! - pos[A + 2]!;
      const px = x - pos[A]!;
      const py = y - pos[A + 1]!;
      const pz = z - pos[A + 2]!;
      const l2 = dx * dx + dy * dy + dz * dz;
      let t = l2 > 0 ? (px * dx + py * dy + pz * dz) / l2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const ox = px - dx * t;
      const oy = py - dy * t;
      const oz = pz - dz * t;
      if (ox * ox + oy * oy + oz * oz < r2) return true;
    }
    return false;
  }

  /** +1 on the side the cloth's normal points to (above it where it lies flat), -1 on the other, 0 on it, 2 off its footprint or over its free edge's triangles. */
  private side(x: number, y: number, z: number): number {
    const pos = this.world.particles.position;
    const { triangles, triangleCount } = this.cloth.surface;
    let nearest = Infinity;
    let side = 2;
    let rim = false;
    for (let t = 0; t < triangleCount; t++) {
      const A = triangles[t * 3]! * 3;
      const B = triangles[t * 3 + 1]! * 3;
      const C = triangles[t * 3 + 2]! * 3;
      const ax = pos[A]!;
      const az = pos[A + 2]!;
      const bx = pos[B]! - ax;
      const bz = pos[B + 2]! - az;
      const cx = pos[C]! - ax;
      const cz = pos[C + 2]! - az;
      const det = bx * cz - bz * cx;
      if (det === 0) continue;
      const px = x - ax;
      const pz = z - az;
      const u = (px * cz - pz * cx) / det;
      const v = (bx * pz - bz * px) / det;
      if (u < 0 || v < 0 || u + v > 1) continue;
      const height = pos[A + 1]! + u * (pos[B + 1]! - pos[A + 1]!) + v * (pos[C + 1]! - pos[A + 1]!);
      const gap = y - height;
      if (Math.abs(gap) >= nearest) continue;
      nearest = Math.abs(gap);
      // The normal's y: (B - A) × (C - A), whose sign is that of -det seen from +y (the cloth's winding).
      const up = bz * cx - bx * cz;
      side = Math.abs(gap) <= this.tolerance ? 0 : gap > 0 === up > 0 ? 1 : -1;
      rim = this.rimTriangles.has(t);
    }
    return rim ? 2 : side;
  }
}
