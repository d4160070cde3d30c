/**
 * Vertex normals of an indexed triangle mesh, written into `normals` in place:
 * each vertex gets the normalised sum of its triangles' area-weighted normals.
 * three.js's `computeVertexNormals` allocates eight vectors per call; this runs
 * every frame, so it works on the arrays directly. Vertices of no triangle get
 * (0, 1, 0).
 *
 * @example
 * ```ts
 * computeNormals(position.array, index.array, triangleCount * 3, normal.array, vertexCount);
 * ```
 */
export function computeNormals(positions: ArrayLike<number>, indices: ArrayLike<number>, indexCount: number, normals: Float32Array, vertexCount: number): void {
  normals.fill(0, 0, vertexCount * 3);
  for (let t = 0; t < indexCount; t += 3) {
    const a = indices[t]! * 3;
    const b = indices[t + 1]! * 3;
    const c = indices[t + 2]! * 3;
    const abx = positions[b]! - positions[a]!;
    const aby = positions[b + 1]! - positions[a + 1]!;
    const abz = positions[b + 2]! - positions[a + 2]!;
    const acx = positions[c]! - positions[a]!;
    const acy = positions[c + 1]! - positions[a + 1]!;
    const acz = positions[c + 2]! - positions[a + 2]!;
    // (b - a) × (c - a): counter-clockwise triangles face the viewer, as in three.js.
    const nx = aby * acz - abz * acy;
    const ny = abz * acx - abx * acz;
    const nz = abx * acy - aby * acx;
    addTo(normals, a, nx, ny, nz);
    addTo(normals, b, nx, ny, nz);
    addTo(normals, c, nx, ny, nz);
  }
  for (let v = 0; v < vertexCount * 3; v += 3) {
    const x = normals[v]!;
    const y = normals[v + 1]!;
    const z = normals[v + 2]!;
    const len2 = x * x + y * y + z * z;
    if (len2 > 0) {
      // One square root and one division per vertex, not three divisions.
      const inverse = 1 / Math.sqrt(len2);
      normals[v] = x * inverse;
      normals[v + 1] = y * inverse;
      normals[v + 2] = z * inverse;
    } else normals[v + 1] = 1;
  }
}

function addTo(normals: Float32Array, v: number, x: number, y: number, z: number): void {
  normals[v] = normals[v]! + x;
  normals[v + 1] = normals[v + 1]! + y;
  normals[v + 2] = normals[v + 2]! + z;
}
