import type { ColliderShape, Vec3 } from '../../src/core/index.js';

/** Collects triangles; each quad is wound so that its front faces `facing`. */
export class MeshBuilder {
  vertices: number[] = [];
  indices: number[] = [];

  quad(a: Vec3, b: Vec3, c: Vec3, d: Vec3, facing: Vec3): this {
    const base = this.vertices.length / 3;
    this.vertices.push(...a, ...b, ...c, ...d);
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const flip = n[0]! * facing[0] + n[1]! * facing[1] + n[2]! * facing[2] < 0;
    if (flip) this.indices.push(base, base + 2, base + 1, base, base + 3, base + 2);
    else this.indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
    return this;
  }

  shape(friction = 1) {
    return { type: 'mesh' as const, vertices: this.vertices, indices: this.indices, friction };
  }
}

/** A staircase rising along +x: step k's tread at height k·H over [k·D, (k+1)·D], a landing before it, walls at both ends. */
export function staircase(steps: number, D: number, H: number, width: number) {
  const m = new MeshBuilder();
  const z0 = -width / 2;
  const z1 = width / 2;
  const up: Vec3 = [0, 1, 0];
  m.quad([-2, 0, z0], [D, 0, z0], [D, 0, z1], [-2, 0, z1], up);
  for (let k = 1; k < steps; k++) {
    m.quad([k * D, k * H, z0], [(k + 1) * D, k * H, z0], [(k + 1) * D, k * H, z1], [k * D, k * H, z1], up);
    m.quad([k * D, (k - 1) * H, z0], [k * D, k * H, z0], [k * D, k * H, z1], [k * D, (k - 1) * H, z1], [-1, 0, 0]);
  }
  const top = steps * D;
  m.quad([top, 0, z0], [top, steps * H + 3, z0], [top, steps * H + 3, z1], [top, 0, z1], [-1, 0, 0]);
  m.quad([-2, 0, z0], [-2, steps * H + 3, z0], [-2, steps * H + 3, z1], [-2, 0, z1], [1, 0, 0]);
  return m;
}

/** Solid colliders whose surface is the plane y = 0 near the origin, solid below it. */
export const solids: Record<string, ColliderShape> = {
  plane: { type: 'plane', normal: [0, 1, 0], offset: 0 },
  sphere: { type: 'sphere', position: [0, -5, 0], radius: 5 },
  box: { type: 'box', min: [-5, -10, -5], max: [5, 0, 5] },
  capsule: { type: 'capsule', a: [-5, -5, 0], b: [5, -5, 0], radius: 5 },
  obb: { type: 'obb', position: [0, -5, 0], halfExtents: [5, 5, 5], rotation: [0, 0.3826834, 0, 0.9238795] },
};
