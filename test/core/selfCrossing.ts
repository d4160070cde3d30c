import { particleSlot, type ClothHandle, type World } from '../../src/core/index.js';

/**
 * The self-collision tests' judge, a pass-through detector that knows nothing of
 * the solver: after every step, for every particle of a surface and every
 * triangle it is not a corner of, the particle's signed distance to the
 * triangle's plane and whether its foot lies inside the triangle. A particle
 * that is over the same triangle, within `band` of its plane, on one side after
 * a step and on the other after the next has passed through the sheet.
 */
export class CrossingDetector {
  /** Crossings counted so far (a particle passing through two triangles at once counts twice). */
  crossings = 0;
  private last: Float64Array;
  private readonly triangles: Int32Array;
  private readonly count: number;

  /** `cloth`: the particles (`first`, `count`) and the triangles to judge; `band`: how near a triangle's plane (m) a particle is looked at, three spacings of the fold tests by default. */
  constructor(
    private readonly cloth: Pick<ClothHandle, 'first' | 'count' | 'surface'>,
    private readonly band = 0.15,
  ) {
    this.count = cloth.surface.triangleCount;
    this.triangles = Int32Array.from(cloth.surface.triangles.slice(0, this.count * 3));
    this.last = new Float64Array(cloth.count * this.count).fill(NaN);
  }

  /** Reads every particle's side of every triangle it is over now; call after each step. */
  check(world: World): void {
    const pos = world.positions;
    const first = particleSlot(this.cloth.first);
    const count = this.cloth.count;
    for (let t = 0; t < this.count; t++) {
      const a = this.triangles[t * 3]!;
      const b = this.triangles[t * 3 + 1]!;
      const c = this.triangles[t * 3 + 2]!;
      const ax = pos[a * 3]!;
      const ay = pos[a * 3 + 1]!;
      const az = pos[a * 3 + 2]!;
      const e1x = pos[b * 3]! - ax;
      const e1y = pos[b * 3 + 1]! - ay;
      const e1z = pos[b * 3 + 2]! - az;
      const e2x = pos[c * 3]! - ax;
      const e2y = pos[c * 3 + 1]! - ay;
      const e2z = pos[c * 3 + 2]! - az;
      const nx = e1y * e2z - e1z * e2y;
      const ny = e1z * e2x - e1x * e2z;
      const nz = e1x * e2y - e1y * e2x;
      const len = Math.hypot(nx, ny, nz);
      const d00 = e1x * e1x + e1y * e1y + e1z * e1z;
      const d01 = e1x * e2x + e1y * e2y + e1z * e2z;
      const d11 = e2x * e2x + e2y * e2y + e2z * e2z;
      const det = d00 * d11 - d01 * d01;
      for (let k = 0; k < count; k++) {
        const i = first + k;
        const slot = k * this.count + t;
        if (i === a || i === b || i === c || len === 0) {
          this.last[slot] = NaN;
          continue;
        }
        const px = pos[i * 3]! - ax;
        const py = pos[i * 3 + 1]! - ay;
        const pz = pos[i * 3 + 2]! - az;
        const d = (px * nx + py * ny + pz * nz) / len;
        let over = Math.abs(d) < this.band;
        if (over) {
          const p1 = px * e1x + py * e1y + pz * e1z;
          const p2 = px * e2x + py * e2y + pz * e2z;
          const v = (d11 * p1 - d01 * p2) / det;
          const u = (d00 * p2 - d01 * p1) / det;
          over = v >= 0 && u >= 0 && u + v <= 1;
        }
        const before = this.last[slot]!;
        if (over && !Number.isNaN(before) && Math.sign(before) !== Math.sign(d) && d !== 0) this.crossings++;
        this.last[slot] = over ? d : NaN;
      }
    }
  }
}
