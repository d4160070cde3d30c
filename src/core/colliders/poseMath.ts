// Rigid frames for kinematic colliders: a pose is position xyz + unit quaternion
// xyzw; its rotation as three columns (axes[3k..3k+2] is where local axis k
// points). Points and vectors are read from and written to arrays at offsets,
// so that no double crosses a call (V8 boxes those).

/** @internal Length of a pose: position xyz, then the rotation as a unit quaternion xyzw. */
export const POSE_SIZE = 7;

/** @internal A new pose at the origin, unturned. */
export function identityPose(): Float64Array {
  const pose = new Float64Array(POSE_SIZE);
  pose[6] = 1;
  return pose;
}

/** The rotation columns of `pose`'s quaternion (pose[3..6]) into `axes`. */
export function poseMatrix(pose: Float64Array, axes: Float64Array): void {
  const x = pose[3]!;
  const y = pose[4]!;
  const z = pose[5]!;
  const w = pose[6]!;
  axes[0] = 1 - 2 * (y * y + z * z);
  axes[1] = 2 * (x * y + z * w);
  axes[2] = 2 * (x * z - y * w);
  axes[3] = 2 * (x * y - z * w);
  axes[4] = 1 - 2 * (x * x + z * z);
  axes[5] = 2 * (y * z + x * w);
  axes[6] = 2 * (x * z + y * w);
  axes[7] = 2 * (y * z - x * w);
  axes[8] = 1 - 2 * (x * x + y * y);
}

/** The world point `src[s..s+2]` in the frame (`origin`, `axes`), into `dst[d..d+2]`. */
export function toFrame(src: Float64Array, s: number, origin: Float64Array, axes: Float64Array, dst: Float64Array, d: number): void {
  const wx = src[s]! - origin[0]!;
  const wy = src[s + 1]! - origin[1]!;
  const wz = src[s + 2]! - origin[2]!;
  dst[d] = wx * axes[0]! + wy * axes[1]! + wz * axes[2]!;
  dst[d + 1] = wx * axes[3]! + wy * axes[4]! + wz * axes[5]!;
  dst[d + 2] = wx * axes[6]! + wy * axes[7]! + wz * axes[8]!;
}

/** The frame point `src[s..s+2]` in world coordinates, into `dst[d..d+2]`. */
export function toWorld(src: Float64Array, s: number, origin: Float64Array, axes: Float64Array, dst: Float64Array, d: number): void {
  const lx = src[s]!;
  const ly = src[s + 1]!;
  const lz = src[s + 2]!;
  dst[d] = origin[0]! + lx * axes[0]! + ly * axes[3]! + lz * axes[6]!;
  dst[d + 1] = origin[1]! + lx * axes[1]! + ly * axes[4]! + lz * axes[7]!;
  dst[d + 2] = origin[2]! + lx * axes[2]! + ly * axes[5]! + lz * axes[8]!;
}

/** The world vector `src[s..s+2]` in the frame's axes, into `dst[d..d+2]`. */
export function turnToFrame(src: Float64Array, s: number, axes: Float64Array, dst: Float64Array, d: number): void {
  const wx = src[s]!;
  const wy = src[s + 1]!;
  const wz = src[s + 2]!;
  dst[d] = wx * axes[0]! + wy * axes[1]! + wz * axes[2]!;
  dst[d + 1] = wx * axes[3]! + wy * axes[4]! + wz * axes[5]!;
  dst[d + 2] = wx * axes[6]! + wy * axes[7]! + wz * axes[8]!;
}

/** The frame vector `src[s..s+2]` in world axes, into `dst[d..d+2]`. */
export function turnToWorld(src: Float64Array, s: number, axes: Float64Array, dst: Float64Array, d: number): void {
  const lx = src[s]!;
  const ly = src[s + 1]!;
  const lz = src[s + 2]!;
  dst[d] = lx * axes[0]! + ly * axes[3]! + lz * axes[6]!;
  dst[d + 1] = lx * axes[1]! + ly * axes[4]! + lz * axes[7]!;
  dst[d + 2] = lx * axes[2]! + ly * axes[5]! + lz * axes[8]!;
}

/**
 * `start`'s rotation followed, in its own frame, by the turn about the unit
 * axis `turn[0..2]` through the fraction `t[3]` of the angle `turn[3]`: the
 * quaternion into `out[3..6]` (constant angular velocity along the way).
 */
export function turnedQuaternion(start: Float64Array, turn: Float64Array, t: Float64Array, out: Float64Array): void {
  const half = (turn[3]! * t[3]!) / 2;
  const s = Math.sin(half);
  const bx = turn[0]! * s;
  const by = turn[1]! * s;
  const bz = turn[2]! * s;
  const bw = Math.cos(half);
  const ax = start[3]!;
  const ay = start[4]!;
  const az = start[5]!;
  const aw = start[6]!;
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  // Renormalised: the poses chain step after step, and rounding would otherwise grow.
  const n = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
  out[3] = x * n;
  out[4] = y * n;
  out[5] = z * n;
  out[6] = w * n;
}

/** The turn from pose `a`'s rotation to pose `b`'s, in `a`'s frame: unit axis into out[0..2], angle in [0, π] into out[3]. */
export function measureTurn(a: Float64Array, b: Float64Array, out: Float64Array): void {
  const ax = a[3]!;
  const ay = a[4]!;
  const az = a[5]!;
  const aw = a[6]!;
  const bx = b[3]!;
  const by = b[4]!;
  const bz = b[5]!;
  const bw = b[6]!;
  // d = conj(a)·b
  let x = aw * bx - ax * bw - ay * bz + az * by;
  let y = aw * by - ay * bw - az * bx + ax * bz;
  let z = aw * bz - az * bw - ax * by + ay * bx;
  let w = aw * bw + ax * bx + ay * by + az * bz;
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s < 1e-12) {
    out.fill(0);
    return;
  }
  out[0] = x / s;
  out[1] = y / s;
  out[2] = z / s;
  out[3] = 2 * Math.atan2(s, w);
}
