import { Mesh, Vector3, type Object3D } from 'three';

/**
 * Every triangle of every mesh under `root`, in world space (call
 * `root.updateWorldMatrix(true, true)` first): the input of a static triangle
 * collider. Winding is kept as three.js draws it, so front faces stay front.
 *
 * @example
 * ```ts
 * const { vertices, indices } = collectTriangles(level);
 * world.addCollider(new TriangleMeshCollider({ type: 'mesh', vertices, indices }));
 * ```
 */
export function collectTriangles(root: Object3D): { vertices: Float64Array; indices: Uint32Array } {
  const vertices: number[] = [];
  const indices: number[] = [];
  const v = new Vector3();
  root.traverse((object) => {
    if (!(object instanceof Mesh)) return;
    const position = object.geometry.getAttribute('position');
    if (!position) return;
    const base = vertices.length / 3;
    for (let i = 0; i < position.count; i++) {
      v.fromBufferAttribute(position, i).applyMatrix4(object.matrixWorld);
      vertices.push(v.x, v.y, v.z);
    }
    const index = object.geometry.getIndex();
    const count = index ? index.count : position.count;
    // A mirrored transform flips every triangle's winding; swap two corners to keep the front face in front.
    const flip = object.matrixWorld.determinant() < 0;
    for (let i = 0; i < count; i += 3) {
      const a = index ? index.getX(i) : i;
      const b = index ? index.getX(i + 1) : i + 1;
      const c = index ? index.getX(i + 2) : i + 2;
      if (flip) indices.push(base + a, base + c, base + b);
      else indices.push(base + a, base + b, base + c);
    }
  });
  return { vertices: new Float64Array(vertices), indices: new Uint32Array(indices) };
}
