import type { Box3, Sphere } from 'three';

/**
 * Fits `sphere` (and `box`, when given) around the first `count` xyz points of `points`, in
 * place. A geometry whose vertices move keeps stale bounds otherwise, and
 * three.js then culls or misses it in raycasts where it has moved to. The
 * sphere is centred on the box and reaches the farthest point, as
 * `computeBoundingSphere` does, without its temporaries. `stride` and `offset`
 * read points out of wider records, such as the translations in an
 * instance-matrix array (stride 16, offset 12). To pad the bounds (a tube's
 * radius), grow them afterwards: a double argument here would be boxed.
 *
 * @example
 * ```ts
 * fitBounds(position.array, vertexCount, geometry.boundingSphere!, geometry.boundingBox);
 * ```
 */
export function fitBounds(points: ArrayLike<number>, count: number, sphere: Sphere, box: Box3 | null, stride = 3, offset = 0): void {
  if (count === 0) {
    box?.makeEmpty();
    sphere.center.set(0, 0, 0);
    sphere.radius = -1;
    return;
  }
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = -Infinity;
  const end = offset + count * stride;
  for (let i = offset; i < end; i += stride) {
    const x = points[i]!;
    const y = points[i + 1]!;
    const z = points[i + 2]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  box?.min.set(minX, minY, minZ);
  box?.max.set(maxX, maxY, maxZ);
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const cz = (minZ + maxZ) / 2;
  let r2 = 0;
  for (let i = offset; i < end; i += stride) {
    const dx = points[i]! - cx;
    const dy = points[i + 1]! - cy;
    const dz = points[i + 2]! - cz;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > r2) r2 = d2;
  }
  sphere.center.set(cx, cy, cz);
  sphere.radius = Math.sqrt(r2);
}
