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

/** The order in which Euler angles apply, as three.js names them: `'XYZ'` (its default) turns about x, then y, then z of the turned frame. */
export type EulerOrder = 'XYZ' | 'YXZ' | 'ZXY' | 'ZYX' | 'YZX' | 'XZY';

/** Euler angles in radians: `[x, y, z]` in three.js's default `'XYZ'` order, or `{x, y, z, order?}` (a three.js `Euler` qualifies). */
export type EulerLike = readonly [number, number, number] | { readonly x: number; readonly y: number; readonly z: number; readonly order?: EulerOrder };

/**
 * A rotation as every sinew builder, component and hook takes it: a quaternion
 * (`[x, y, z, w]`, `{x, y, z, w}`, a three.js `Quaternion`) or Euler angles in
 * radians (`[x, y, z]` in `'XYZ'` order, `{x, y, z, order?}`, a three.js `Euler`).
 * Three numbers are Euler angles and four a quaternion, so the length decides.
 */
export type RotationLike = QuatLike | EulerLike;

const EULER_ORDERS: readonly string[] = ['XYZ', 'YXZ', 'ZXY', 'ZYX', 'YZX', 'XZY'];

/**
 * The unit quaternion of Euler angles `x`, `y`, `z` (radians) applied in `order`,
 * the same as three.js's `Quaternion.setFromEuler`: for `'XYZ'` it is
 * q = qx·qy·qz, the rotation about z, then y, then x in world axes.
 */
export function quatFromEuler(x: number, y: number, z: number, order: EulerOrder = 'XYZ', out: Quat = [0, 0, 0, 1]): Quat {
  const turns: Record<string, Quat> = {
    X: quatFromAxisAngle([1, 0, 0], x),
    Y: quatFromAxisAngle([0, 1, 0], y),
    Z: quatFromAxisAngle([0, 0, 1], z),
  };
  const q: Quat = [0, 0, 0, 1];
  for (const axis of order) quatMultiply(q, turns[axis]!, q);
  out[0] = q[0];
  out[1] = q[1];
  out[2] = q[2];
  out[3] = q[3];
  return out;
}

/**
 * Checks a {@link RotationLike} and returns its unit quaternion as a fresh
 * tuple: four numbers (or an object with `w`) are a quaternion, normalised as
 * {@link toQuat} does; three numbers (or `{x, y, z, order?}`) are Euler angles in
 * radians. `what` names the argument in the error, which shows the value.
 *
 * @example
 * ```ts
 * toRotation([0, Math.PI / 2, 0], 'createBox: rotation'); // a quarter turn about y
 * toRotation([0, 0.7071, 0, 0.7071], 'createBox: rotation'); // the same
 * ```
 */
export function toRotation(r: RotationLike | undefined, what: string): Quat {
  const expected = `${what} must be a quaternion [x, y, z, w] or Euler angles [x, y, z] in radians (or a three.js Quaternion or Euler)`;
  if (r === null || typeof r !== 'object') throw new TypeError(`${expected}, got ${String(r)}`);
  if (Array.isArray(r)) {
    if (r.length === 4) return toQuat(r as unknown as QuatLike, what);
    if (r.length !== 3) throw new TypeError(`${expected}, got ${describe(r)} (${r.length} components)`);
    return eulerQuat(r[0], r[1], r[2], 'XYZ', r, what);
  }
  const o = r as { x?: unknown; y?: unknown; z?: unknown; w?: unknown; order?: unknown };
  if (o.w !== undefined) return toQuat(r as QuatLike, what);
  if (o.x === undefined && o.y === undefined && o.z === undefined) throw new TypeError(`${expected}, got ${describe(r)}`);
  const order = o.order ?? 'XYZ';
  if (typeof order !== 'string' || !EULER_ORDERS.includes(order)) throw new RangeError(`${what}: Euler order must be one of ${EULER_ORDERS.join(', ')}, got ${describe(order)}`);
  return eulerQuat(o.x, o.y, o.z, order as EulerOrder, r, what);
}

/** @internal True for `[x, y, z, w]` and `{x, y, z, w}` (a THREE.Quaternion); false for Euler angles. */
export function isQuaternionForm(rotation: RotationLike): boolean {
  return Array.isArray(rotation) ? rotation.length === 4 : typeof rotation === 'object' && rotation !== null && 'w' in rotation;
}

function eulerQuat(x: unknown, y: unknown, z: unknown, order: EulerOrder, value: unknown, what: string): Quat {
  if (![x, y, z].every((c) => typeof c === 'number' && Number.isFinite(c))) throw new RangeError(`${what} must be finite Euler angles in radians, got ${describe(value)}`);
  return quatFromEuler(x as number, y as number, z as number, order);
}

/** A value as an error message shows it: JSON where it has one (a three.js object's public fields), else `String`. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((c) => (typeof c === 'string' ? `'${c}'` : String(c))).join(', ')}]`;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    // three.js keeps x, y, z, w behind getters, which JSON.stringify does not see.
    const fields = ['x', 'y', 'z', 'w', 'order'].filter((k) => o[k] !== undefined).map((k) => `${k}: ${typeof o[k] === 'string' ? `'${String(o[k])}'` : String(o[k])}`);
    if (fields.length > 0) return `{ ${fields.join(', ')} }`;
  }
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
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
