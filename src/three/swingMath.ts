import type { Matrix4, Quaternion, Vector3 } from 'three';

// The vector arithmetic of `SwingDriver`, written out field by field: its per-frame
// work allocates nothing, and doubles returned from or passed to calls V8 does not
// inline are boxed (see each function).

/**
 * `out` = particle at `a` minus particle at `b` (b < 0: the particle at `a` alone), read from the positions.
 * Written field by field: the pelvis's `Vector3.set(x, y, z)` from the particles allocated 32 bytes a frame
 * (measured; V8 boxed the doubles).
 */
export function setVector(out: Vector3, pos: Float64Array, a: number, b: number): void {
  if (b < 0) {
    out.x = pos[a]!;
    out.y = pos[a + 1]!;
    out.z = pos[a + 2]!;
  } else {
    out.x = pos[a]! - pos[b]!;
    out.y = pos[a + 1]! - pos[b + 1]!;
    out.z = pos[a + 2]! - pos[b + 2]!;
  }
}

/**
 * Scales `v` to length 1, or returns false and leaves it when it has no length.
 * Written out rather than `lengthSq()` and `normalize()`: once this file's
 * functions grew past V8's inlining budget, the lengths those return (a double
 * from a call not inlined) were boxed, 16 bytes each, every frame.
 */
export function normalizeInPlace(v: Vector3): boolean {
  const x = v.x;
  const y = v.y;
  const z = v.z;
  const squared = x * x + y * y + z * z;
  if (squared === 0) return false;
  const scale = 1 / Math.sqrt(squared);
  v.x = x * scale;
  v.y = y * scale;
  v.z = z * scale;
  return true;
}

/**
 * `out` = the shortest turn taking unit vector `a` onto unit vector `b`, as
 * three.js's `setFromUnitVectors` but written out (its `dot` returned a boxed
 * double here, see {@link normalizeInPlace}); `scratch` holds four numbers.
 */
export function turnBetween(a: Vector3, b: Vector3, out: Quaternion, scratch: Float64Array): void {
  let w = a.x * b.x + a.y * b.y + a.z * b.z + 1;
  let x: number;
  let y: number;
  let z: number;
  if (w < Number.EPSILON) {
    // Opposite: half a turn about any axis square to a.
    w = 0;
    if (Math.abs(a.x) > Math.abs(a.z)) {
      x = -a.y;
      y = a.x;
      z = 0;
    } else {
      x = 0;
      y = -a.z;
      z = a.y;
    }
  } else {
    x = a.y * b.z - a.z * b.y;
    y = a.z * b.x - a.x * b.z;
    z = a.x * b.y - a.y * b.x;
  }
  const length = Math.sqrt(x * x + y * y + z * z + w * w);
  scratch[0] = x / length;
  scratch[1] = y / length;
  scratch[2] = z / length;
  scratch[3] = w / length;
  out.fromArray(scratch);
}

/** Orthonormal basis (columns: side, aim made square to it, their cross product) into `out`. */
export function frame(aim: Vector3, side: Vector3, out: Matrix4): void {
  const sx = side.x;
  const sy = side.y;
  const sz = side.z;
  const ls = Math.sqrt(sx * sx + sy * sy + sz * sz) || 1;
  const xx = sx / ls;
  const xy = sy / ls;
  const xz = sz / ls;
  const along = aim.x * xx + aim.y * xy + aim.z * xz;
  let yx = aim.x - along * xx;
  let yy = aim.y - along * xy;
  let yz = aim.z - along * xz;
  const ly = Math.sqrt(yx * yx + yy * yy + yz * yz) || 1;
  yx /= ly;
  yy /= ly;
  yz /= ly;
  // Written into the elements (column-major) rather than passed as Matrix4.set's sixteen arguments.
  const e = out.elements;
  e[0] = xx;
  e[1] = xy;
  e[2] = xz;
  e[3] = 0;
  e[4] = yx;
  e[5] = yy;
  e[6] = yz;
  e[7] = 0;
  e[8] = xy * yz - xz * yy;
  e[9] = xz * yx - xx * yz;
  e[10] = xx * yy - xy * yx;
  e[11] = 0;
  e[12] = 0;
  e[13] = 0;
  e[14] = 0;
  e[15] = 1;
}
