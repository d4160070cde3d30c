import type { Vec3 } from './math.js';

/**
 * A rotation as a unit quaternion `[x, y, z, w]` (three.js order: vector part
 * first, so `mesh.quaternion.fromArray(q)` takes it as is).
 */
export type Quat = [number, number, number, number];

/** A quaternion as sinew's API accepts it: `[x, y, z, w]` or `{x, y, z, w}` (a three.js `Quaternion` qualifies). */
export type QuatLike = readonly [number, number, number, number] | { readonly x: number; readonly y: number; readonly z: number; readonly w: number };

/**
 * Checks that `q` is four finite numbers that are not all zero and returns it
 * normalised, as a fresh tuple. `what` names the argument in the error.
 */
export function toQuat(q: QuatLike | undefined, what: string): Quat {
  if (q === null || typeof q !== 'object') throw new TypeError(`${what} must be [x, y, z, w] or {x, y, z, w}, got ${String(q)}`);
  let out: Quat;
  if (Array.isArray(q)) {
    if (q.length !== 4) throw new TypeError(`${what} must have 4 components, got ${q.length}`);
    out = [q[0] as number, q[1] as number, q[2] as number, q[3] as number];
  } else {
    const o = q as { x: number; y: number; z: number; w: number };
    out = [o.x, o.y, o.z, o.w];
  }
  if (!out.every((c) => typeof c === 'number' && Number.isFinite(c))) throw new RangeError(`${what} must be finite numbers, got [${out.join(', ')}]`);
  const length = Math.hypot(out[0], out[1], out[2], out[3]);
  if (length === 0) throw new RangeError(`${what} must not be [0, 0, 0, 0]`);
  return [out[0] / length, out[1] / length, out[2] / length, out[3] / length];
}

/** The rotation by `angle` radians about `axis` (normalised here; a zero axis gives the identity). */
export function quatFromAxisAngle(axis: Readonly<Vec3>, angle: number, out: Quat = [0, 0, 0, 1]): Quat {
  const length = Math.hypot(axis[0], axis[1], axis[2]);
  const s = length === 0 ? 0 : Math.sin(angle / 2) / length;
  out[0] = axis[0] * s;
  out[1] = axis[1] * s;
  out[2] = axis[2] * s;
  out[3] = length === 0 ? 1 : Math.cos(angle / 2);
  return out;
}

/** `out = a·b`: the rotation `b` followed by `a`. `out` may be `a` or `b`. */
export function quatMultiply(a: Readonly<Quat>, b: Readonly<Quat>, out: Quat = [0, 0, 0, 1]): Quat {
  const ax = a[0];
  const ay = a[1];
  const az = a[2];
  const aw = a[3];
  const bx = b[0];
  const by = b[1];
  const bz = b[2];
  const bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** `out = q⁻¹` for a unit quaternion (the conjugate). */
export function quatConjugate(q: Readonly<Quat>, out: Quat = [0, 0, 0, 1]): Quat {
  out[0] = -q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = q[3];
  return out;
}

/** `out = q v q⁻¹`: `v` rotated by unit quaternion `q`. `out` may be `v`. */
export function rotateVector(q: Readonly<Quat>, v: Readonly<Vec3>, out: Vec3 = [0, 0, 0]): Vec3 {
  const qx = q[0];
  const qy = q[1];
  const qz = q[2];
  const qw = q[3];
  const vx = v[0];
  const vy = v[1];
  const vz = v[2];
  // t = 2 q⃗ × v;  v' = v + w t + q⃗ × t
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + qy * tz - qz * ty;
  out[1] = vy + qw * ty + qz * tx - qx * tz;
  out[2] = vz + qw * tz + qx * ty - qy * tx;
  return out;
}

/**
 * The unit quaternion of the rotation matrix whose columns are the orthonormal
 * axes `m[0..2]` (x), `m[3..5]` (y), `m[6..8]` (z). Shepperd's method: it takes
 * the square root of the largest of the four candidates, so it stays accurate at
 * every angle (the naive w-first formula loses all precision near 180°).
 */
export function quatFromBasis(m: ArrayLike<number>, out: Quat): Quat {
  const m00 = m[0]!;
  const m10 = m[1]!;
  const m20 = m[2]!;
  const m01 = m[3]!;
  const m11 = m[4]!;
  const m21 = m[5]!;
  const m02 = m[6]!;
  const m12 = m[7]!;
  const m22 = m[8]!;
  const trace = m00 + m11 + m22;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    out[3] = 0.25 / s;
    out[0] = (m21 - m12) * s;
    out[1] = (m02 - m20) * s;
    out[2] = (m10 - m01) * s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    out[3] = (m21 - m12) / s;
    out[0] = 0.25 * s;
    out[1] = (m01 + m10) / s;
    out[2] = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    out[3] = (m02 - m20) / s;
    out[0] = (m01 + m10) / s;
    out[1] = 0.25 * s;
    out[2] = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    out[3] = (m10 - m01) / s;
    out[0] = (m02 + m20) / s;
    out[1] = (m12 + m21) / s;
    out[2] = 0.25 * s;
  }
  return out;
}

/**
 * Flips `q` to `-q` (the same rotation) when that lies nearer `previous`, so a
 * sequence of orientations never jumps across the double cover: what makes
 * interpolation and finite differences of read-back quaternions safe.
 */
export function keepHemisphere(q: Quat, previous: Readonly<Quat>): Quat {
  if (q[0] * previous[0] + q[1] * previous[1] + q[2] * previous[2] + q[3] * previous[3] < 0) {
    q[0] = -q[0];
    q[1] = -q[1];
    q[2] = -q[2];
    q[3] = -q[3];
  }
  return q;
}
