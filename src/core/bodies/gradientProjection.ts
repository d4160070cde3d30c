/**
 * The value of a limit over a few particles, written to `io[0]` (doubles passed
 * to or returned from a call V8 does not inline are boxed: an allocation per call).
 * It must depend on differences of positions only and be unchanged by rotations.
 */
export type LimitFunction = (pos: Float64Array, row: number, io: Float64Array) => void;

/** Step of the finite differences that give the gradient (m). */
const DELTA = 1e-6;

/**
 * Projects the inequality C ≥ 0 of one row, C given by `evaluate` over the
 * particles `ids[offset .. offset + count)` (distinct), when it is violated:
 * the course notes' mass-weighted step along C's full gradient, which is found
 * by finite differences (`count - 1` particles; the last one's gradient is minus
 * their sum, exact because C depends on differences of positions only). The
 * gradient then sums to zero and, C being unchanged by rotations, has no torque:
 * the push keeps momentum and angular momentum and moves the torso back as it
 * moves the limb. Repairs at most `maxCorrection` of C per call. `gradient`
 * holds 3·count numbers of scratch, `io` two (C, and a spare the function may
 * read). Returns true when it moved particles. Allocates nothing.
 */
export function projectLimit(
  pos: Float64Array,
  inverseMass: Float64Array,
  ids: Int32Array,
  offset: number,
  count: number,
  row: number,
  evaluate: LimitFunction,
  stiffness: number,
  maxCorrection: number,
  gradient: Float64Array,
  io: Float64Array,
): boolean {
  evaluate(pos, row, io);
  const value = io[0]!;
  if (value >= 0) return false;
  const g = gradient;
  const last = (count - 1) * 3;
  for (let k = 0; k < 3; k++) g[last + k] = 0;
  for (let r = 0; r < count - 1; r++) {
    const q = ids[offset + r]! * 3;
    for (let k = 0; k < 3; k++) {
      const x = pos[q + k]!;
      pos[q + k] = x + DELTA;
      evaluate(pos, row, io);
      g[r * 3 + k] = (io[0]! - value) / DELTA;
      g[last + k] = g[last + k]! - g[r * 3 + k]!;
      pos[q + k] = x;
    }
  }
  let denominator = 0;
  for (let r = 0; r < count; r++) {
    const wr = inverseMass[ids[offset + r]!]!;
    denominator += wr * (g[r * 3]! * g[r * 3]! + g[r * 3 + 1]! * g[r * 3 + 1]! + g[r * 3 + 2]! * g[r * 3 + 2]!);
  }
  if (denominator === 0) return false;
  const depth = value < -maxCorrection ? -maxCorrection : value;
  const lambda = (-depth * stiffness) / denominator;
  for (let r = 0; r < count; r++) {
    const id = ids[offset + r]!;
    const q = id * 3;
    const s = lambda * inverseMass[id]!;
    pos[q] = pos[q]! + s * g[r * 3]!;
    pos[q + 1] = pos[q + 1]! + s * g[r * 3 + 1]!;
    pos[q + 2] = pos[q + 2]! + s * g[r * 3 + 2]!;
  }
  return true;
}
