// Small 3×3 and quaternion routines for rigid motion, on flat arrays so that a
// step allocates nothing (and Math.sqrt, not Math.hypot: V8 boxes the arguments
// of a Math.hypot call). Matrices are 9 numbers, row-major.

/**
 * The rotation R (unit quaternion `q`, refined in place from its value on entry)
 * that maximises tr(Rᵀ S) for a cross-covariance S = Σ mᵢ bᵢ aᵢᵀ, i.e. turns the
 * points aᵢ onto the bᵢ best in the least-squares sense. The iteration of Müller,
 * Bender, Chentanez and Macklin ("A Robust Method to Extract the Rotational Part of
 * Deformations", 2016): each round turns R about Σₖ rₖ × sₖ (columns), which
 * vanishes at the optimum. Rounds stop once a round turns R by less than 1e-13
 * rad, or after `rounds`: warm-started from the previous substep's rotation that
 * takes one or two; from the identity an elongated body takes a dozen.
 */
export function fitRotation(s: Float64Array, q: Float64Array, rounds: number): void {
  for (let round = 0; round < rounds; round++) {
    const x = q[0]!;
    const y = q[1]!;
    const z = q[2]!;
    const w = q[3]!;
    // Columns of R(q).
    const r00 = 1 - 2 * (y * y + z * z);
    const r10 = 2 * (x * y + z * w);
    const r20 = 2 * (x * z - y * w);
    const r01 = 2 * (x * y - z * w);
    const r11 = 1 - 2 * (x * x + z * z);
    const r21 = 2 * (y * z + x * w);
    const r02 = 2 * (x * z + y * w);
    const r12 = 2 * (y * z - x * w);
    const r22 = 1 - 2 * (x * x + y * y);
    // Columns of S: (s0, s3, s6), (s1, s4, s7), (s2, s5, s8).
    const ox = r10 * s[6]! - r20 * s[3]! + (r11 * s[7]! - r21 * s[4]!) + (r12 * s[8]! - r22 * s[5]!);
    const oy = r20 * s[0]! - r00 * s[6]! + (r21 * s[1]! - r01 * s[7]!) + (r22 * s[2]! - r02 * s[8]!);
    const oz = r00 * s[3]! - r10 * s[0]! + (r01 * s[4]! - r11 * s[1]!) + (r02 * s[5]! - r12 * s[2]!);
    const dot = r00 * s[0]! + r10 * s[3]! + r20 * s[6]! + (r01 * s[1]! + r11 * s[4]! + r21 * s[7]!) + (r02 * s[2]! + r12 * s[5]! + r22 * s[8]!);
    const scale = 1 / (Math.abs(dot) + 1e-12);
    const angle = Math.sqrt(ox * ox + oy * oy + oz * oz) * scale;
    if (angle < 1e-13) return;
    // q ← rotation(ω) · q
    const half = angle / 2;
    const sin = Math.sin(half) / (angle / scale);
    const ax = ox * sin;
    const ay = oy * sin;
    const az = oz * sin;
    const aw = Math.cos(half);
    const nx = aw * x + ax * w + ay * z - az * y;
    const ny = aw * y - ax * z + ay * w + az * x;
    const nz = aw * z + ax * y - ay * x + az * w;
    const nw = aw * w - ax * x - ay * y - az * z;
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
    q[0] = nx / length;
    q[1] = ny / length;
    q[2] = nz / length;
    q[3] = nw / length;
  }
}

/** Writes the rotation vector θ (axis × angle, angle in [0, π]) of unit quaternion `q` into `out[0..2]`. */
export function rotationVector(q: Float64Array, out: Float64Array): void {
  const sign = q[3]! < 0 ? -1 : 1;
  const vx = q[0]! * sign;
  const vy = q[1]! * sign;
  const vz = q[2]! * sign;
  const s = Math.sqrt(vx * vx + vy * vy + vz * vz);
  const angle = 2 * Math.atan2(s, q[3]! * sign);
  const k = s < 1e-300 ? 2 : angle / s;
  out[0] = vx * k;
  out[1] = vy * k;
  out[2] = vz * k;
}

/** Writes the unit quaternion of rotation vector θ (`theta[0..2]`) into `q`. (Arrays, not numbers: a double passed to a call V8 does not inline is boxed.) */
export function quatFromRotationVector(theta: Float64Array, q: Float64Array): void {
  const tx = theta[0]!;
  const ty = theta[1]!;
  const tz = theta[2]!;
  const angle = Math.sqrt(tx * tx + ty * ty + tz * tz);
  // sin(θ/2)/θ, with its series near 0.
  const k = angle < 1e-6 ? 0.5 - (angle * angle) / 48 : Math.sin(angle / 2) / angle;
  q[0] = tx * k;
  q[1] = ty * k;
  q[2] = tz * k;
  q[3] = Math.cos(angle / 2);
}

/** out = R(q) · m · R(q)ᵀ for a symmetric 3×3 `m` (an inertia tensor turned by q). `out` may not be `m`. */
export function rotateSymmetric(q: Float64Array, m: Float64Array, out: Float64Array): void {
  const x = q[0]!;
  const y = q[1]!;
  const z = q[2]!;
  const w = q[3]!;
  const r0 = 1 - 2 * (y * y + z * z);
  const r1 = 2 * (x * y - z * w);
  const r2 = 2 * (x * z + y * w);
  const r3 = 2 * (x * y + z * w);
  const r4 = 1 - 2 * (x * x + z * z);
  const r5 = 2 * (y * z - x * w);
  const r6 = 2 * (x * z - y * w);
  const r7 = 2 * (y * z + x * w);
  const r8 = 1 - 2 * (x * x + y * y);
  // t = R·m
  const t0 = r0 * m[0]! + r1 * m[3]! + r2 * m[6]!;
  const t1 = r0 * m[1]! + r1 * m[4]! + r2 * m[7]!;
  const t2 = r0 * m[2]! + r1 * m[5]! + r2 * m[8]!;
  const t3 = r3 * m[0]! + r4 * m[3]! + r5 * m[6]!;
  const t4 = r3 * m[1]! + r4 * m[4]! + r5 * m[7]!;
  const t5 = r3 * m[2]! + r4 * m[5]! + r5 * m[8]!;
  const t6 = r6 * m[0]! + r7 * m[3]! + r8 * m[6]!;
  const t7 = r6 * m[1]! + r7 * m[4]! + r8 * m[7]!;
  const t8 = r6 * m[2]! + r7 * m[5]! + r8 * m[8]!;
  // out = t·Rᵀ
  out[0] = t0 * r0 + t1 * r1 + t2 * r2;
  out[1] = t0 * r3 + t1 * r4 + t2 * r5;
  out[2] = t0 * r6 + t1 * r7 + t2 * r8;
  out[3] = t3 * r0 + t4 * r1 + t5 * r2;
  out[4] = t3 * r3 + t4 * r4 + t5 * r5;
  out[5] = t3 * r6 + t4 * r7 + t5 * r8;
  out[6] = t6 * r0 + t7 * r1 + t8 * r2;
  out[7] = t6 * r3 + t7 * r4 + t8 * r5;
  out[8] = t6 * r6 + t7 * r7 + t8 * r8;
}

/**
 * Solves m·x = b for a symmetric positive definite 3×3 `m` by Cramer's rule into
 * `out[0..2]` (`b[0..2]` is read first, so `out` may be `b`); returns false (out
 * untouched) when m is singular.
 */
export function solveSymmetric(m: Float64Array, b: Float64Array, out: Float64Array): boolean {
  const bx = b[0]!;
  const by = b[1]!;
  const bz = b[2]!;
  const c0 = m[4]! * m[8]! - m[5]! * m[7]!;
  const c1 = m[5]! * m[6]! - m[3]! * m[8]!;
  const c2 = m[3]! * m[7]! - m[4]! * m[6]!;
  const det = m[0]! * c0 + m[1]! * c1 + m[2]! * c2;
  const scale = Math.abs(m[0]!) + Math.abs(m[4]!) + Math.abs(m[8]!);
  if (!(Math.abs(det) > 1e-12 * scale * scale * scale)) return false;
  const inv = 1 / det;
  out[0] = (c0 * bx + (m[2]! * m[7]! - m[1]! * m[8]!) * by + (m[1]! * m[5]! - m[2]! * m[4]!) * bz) * inv;
  out[1] = (c1 * bx + (m[0]! * m[8]! - m[2]! * m[6]!) * by + (m[2]! * m[3]! - m[0]! * m[5]!) * bz) * inv;
  out[2] = (c2 * bx + (m[1]! * m[6]! - m[0]! * m[7]!) * by + (m[0]! * m[4]! - m[1]! * m[3]!) * bz) * inv;
  return true;
}
