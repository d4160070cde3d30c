import type { ParticleStore } from '../particles.js';
import type { SeededRandom } from '../random.js';
import { ConstraintTable, widen } from './table.js';

/** How a stick treats its rest length. */
export type StickKind = 'equal' | 'min' | 'max';

/** Stick kinds as stored in the table. */
export const enum StickKindCode {
  Equal = 0,
  /** Only pushes apart (paper section 6: |x2 - x1| >= length). */
  Min = 1,
  /** Only pulls together: an inextensible rope. */
  Max = 2,
}

export const stickKindCodes: Record<StickKind, StickKindCode> = { equal: StickKindCode.Equal, min: StickKindCode.Min, max: StickKindCode.Max };

/** Distances below this count as coincident particles, which get jittered apart. */
const COINCIDENT = 1e-9;

/** Distance constraints (the paper's sticks), one row each. */
export class StickTable extends ConstraintTable {
  a: Int32Array;
  b: Int32Array;
  rest: Float64Array;
  stiffness: Float64Array;
  kind: Uint8Array;

  constructor(capacity = 64) {
    super(capacity);
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.rest = new Float64Array(capacity);
    this.stiffness = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
  }

  add(id: number, a: number, b: number, rest: number, stiffness: number, kind: StickKindCode): number {
    const row = this.addRow(id);
    this.a[row] = a;
    this.b[row] = b;
    this.rest[row] = rest;
    this.stiffness[row] = stiffness;
    this.kind[row] = kind;
    return row;
  }

  protected growColumns(capacity: number): void {
    this.a = widen(this.a, capacity);
    this.b = widen(this.b, capacity);
    this.rest = widen(this.rest, capacity);
    this.stiffness = widen(this.stiffness, capacity);
    this.kind = widen(this.kind, capacity);
  }

  protected copyRow(from: number, to: number): void {
    this.a[to] = this.a[from]!;
    this.b[to] = this.b[from]!;
    this.rest[to] = this.rest[from]!;
    this.stiffness[to] = this.stiffness[from]!;
    this.kind[to] = this.kind[from]!;
  }
}

/**
 * One Gauss–Seidel pass over sticks `[from, to)`: each is projected back to its rest
 * length, the correction shared by inverse mass (paper section 4 with the course
 * notes' mass weighting). `stiffness` repairs only that share of the error (the
 * paper's soft constraints). With `sqrtApprox` the square root is replaced by one
 * Newton–Raphson step around the rest length, as in the paper.
 */
export function solveSticks(
  sticks: StickTable,
  particles: ParticleStore,
  from: number,
  to: number,
  sqrtApprox: boolean,
  random: SeededRandom,
): void {
  const pos = particles.position;
  const w = particles.inverseMass;
  const sa = sticks.a;
  const sb = sticks.b;
  const rest = sticks.rest;
  const stiffness = sticks.stiffness;
  const kind = sticks.kind;
  for (let s = from; s < to; s++) {
    const a = sa[s]! * 3;
    const b = sb[s]! * 3;
    const wa = w[sa[s]!]!;
    const wb = w[sb[s]!]!;
    const wSum = wa + wb;
    if (wSum === 0) continue;
    let dx = pos[b]! - pos[a]!;
    let dy = pos[b + 1]! - pos[a + 1]!;
    let dz = pos[b + 2]! - pos[a + 2]!;
    let d2 = dx * dx + dy * dy + dz * dz;
    const r = rest[s]!;
    const k = kind[s]!;
    if (k === StickKindCode.Min ? d2 >= r * r : k === StickKindCode.Max ? d2 <= r * r : false) continue;
    if (d2 < COINCIDENT * COINCIDENT) {
      // Paper section 7: coinciding particles are dislocated slightly at random.
      dx = (random.next() - 0.5) * 1e-6;
      dy = (random.next() - 0.5) * 1e-6;
      dz = (random.next() - 0.5) * 1e-6;
      d2 = dx * dx + dy * dy + dz * dz;
      pos[b] = pos[a]! + dx;
      pos[b + 1] = pos[a + 1]! + dy;
      pos[b + 2] = pos[a + 2]! + dz;
    }
    // scale = (|d| - r) / |d|, the relative error; with the approximation,
    // sqrt(d2) ~ (d2 + r^2) / (2r), which makes scale = 1 - 2r^2 / (d2 + r^2).
    const scale = sqrtApprox && r > 0 ? 1 - (2 * r * r) / (d2 + r * r) : 1 - r / Math.sqrt(d2);
    const f = (scale * stiffness[s]!) / wSum;
    const fa = f * wa;
    const fb = f * wb;
    pos[a] = pos[a]! + dx * fa;
    pos[a + 1] = pos[a + 1]! + dy * fa;
    pos[a + 2] = pos[a + 2]! + dz * fa;
    pos[b] = pos[b]! - dx * fb;
    pos[b + 1] = pos[b + 1]! - dy * fb;
    pos[b + 2] = pos[b + 2]! - dz * fb;
  }
}
