import type { Object3D } from 'three';

/**
 * Writes a column-major TRS matrix into `out` at `offset`, as `Matrix4.compose`
 * does, straight into an instance-matrix array with no Vector3 or Quaternion.
 * The ten inputs come in one array `trs`: translation x, y, z, unit quaternion
 * x, y, z, w, scale x, y, z. An array rather than ten arguments: doubles passed
 * to a call V8 does not inline are boxed, an allocation per call in a per-frame
 * loop.
 *
 * @example
 * ```ts
 * const trs = new Float64Array([x, y, z, 0, 0, 0, 1, r, r, r]);
 * composeInto(mesh.instanceMatrix.array as Float32Array, i * 16, trs);
 * ```
 */
export function composeInto(out: Float32Array | number[], offset: number, trs: ArrayLike<number>): void {
  const qx = trs[3]!;
  const qy = trs[4]!;
  const qz = trs[5]!;
  const qw = trs[6]!;
  const sx = trs[7]!;
  const sy = trs[8]!;
  const sz = trs[9]!;
  const x2 = qx + qx;
  const y2 = qy + qy;
  const z2 = qz + qz;
  const xx = qx * x2;
  const xy = qx * y2;
  const xz = qx * z2;
  const yy = qy * y2;
  const yz = qy * z2;
  const zz = qz * z2;
  const wx = qw * x2;
  const wy = qw * y2;
  const wz = qw * z2;
  out[offset] = (1 - (yy + zz)) * sx;
  out[offset + 1] = (xy + wz) * sx;
  out[offset + 2] = (xz - wy) * sx;
  out[offset + 3] = 0;
  out[offset + 4] = (xy - wz) * sy;
  out[offset + 5] = (1 - (xx + zz)) * sy;
  out[offset + 6] = (yz + wx) * sy;
  out[offset + 7] = 0;
  out[offset + 8] = (xz + wy) * sz;
  out[offset + 9] = (yz - wx) * sz;
  out[offset + 10] = (1 - (xx + yy)) * sz;
  out[offset + 11] = 0;
  out[offset + 12] = trs[0]!;
  out[offset + 13] = trs[1]!;
  out[offset + 14] = trs[2]!;
  out[offset + 15] = 1;
}

/**
 * Places `object` at `position` with orientation `quaternion` ([x, y, z, w]):
 * sets its position and quaternion (so code reading them sees the truth) and
 * composes its matrix at once, with `matrixAutoUpdate` off so three.js does not
 * compose it a second time.
 *
 * @example
 * ```ts
 * body.transform(frame);
 * writeTransform(group, frame.position, frame.quaternion);
 * ```
 */
export function writeTransform(object: Object3D, position: ArrayLike<number>, quaternion: ArrayLike<number>): void {
  object.position.set(position[0]!, position[1]!, position[2]!);
  object.quaternion.set(quaternion[0]!, quaternion[1]!, quaternion[2]!, quaternion[3]!);
  object.matrixAutoUpdate = false;
  object.matrix.compose(object.position, object.quaternion, object.scale);
  object.matrixWorldNeedsUpdate = true;
}
