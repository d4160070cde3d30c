import type { ParticleStore } from '../particles.js';
import type { SeededRandom } from '../random.js';
import type { WasmStickKernel } from '../wasm/stickKernel.js';
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

/** The table's code for each {@link StickKind}. */
export const stickKindCodes: Record<StickKind, StickKindCode> = { equal: StickKindCode.Equal, min: StickKindCode.Min, max: StickKindCode.Max };

/** The table's code for `kind`, or an error naming it (an own key only: `'toString'` is no kind). */
export function stickKindCode(kind: unknown, what: string): StickKindCode {
  if (typeof kind !== 'string' || !Object.hasOwn(stickKindCodes, kind)) throw new RangeError(`${what} must be 'equal', 'min' or 'max', got ${typeof kind === 'string' ? `'${kind}'` : String(kind)}`);
  return stickKindCodes[kind as StickKind];
}

/** Which stick loop a segment can take: every stick passes the tests of the loops below it. */
export const enum SegmentLoop {
  /** Any kind and stiffness: {@link solveSticks}. */
  General = 0,
  /** Every stick of kind 'equal': {@link solveEqualSticks}. */
  Equal = 1,
  /** Every stick of kind 'equal' with stiffness 1: {@link solveRigidSticks}. */
  Rigid = 2,
}

/** Distances below this count as coincident particles, which get jittered apart. */
const COINCIDENT = 1e-9;

/**
 * Distance constraints (the paper's sticks), one row each, kept in solving order.
 *
 * The order is a performance decision (see `coloring.ts`): rows are grouped into
 * segments, one per body (its sticks follow the body's iteration count and sleep
 * with it) plus one for loose sticks, and inside a segment into short runs of
 * sticks that share no particle, so consecutive sticks never wait on each other's
 * writes. Rows therefore move: when sticks are added (the next step re-orders the
 * table) and when one is removed. Every move is reported through `onMove`, so
 * look rows up by id (`World.stickRow`) rather than keeping them.
 */
export class StickTable extends ConstraintTable {
  /** Particle ids of the two ends. */
  a: Int32Array;
  /** Particle id of each stick's second end (`a` holds the first). */
  b: Int32Array;
  /** Rest lengths (m); write them freely. */
  rest: Float64Array;
  /** Share of the error repaired per pass; change it with {@link setStiffness}. */
  stiffness: Float64Array;
  /** A {@link StickKindCode}; change it with {@link setKind}. */
  kind: Uint8Array;
  /** False once sticks were added or bodies changed: the next step re-orders the table. */
  ordered = true;
  /** Segments in the current order; segment k holds rows `[segmentStart[k], segmentStart[k + 1])`. */
  segmentCount = 0;
  /** Row where each segment starts, plus one entry for the end of the last. */
  segmentStart: Int32Array = new Int32Array(2);
  /** Body whose iteration count and sleep state each segment follows; -1: loose sticks, always solved. */
  segmentBody: Int32Array = new Int32Array(1);
  /** Relaxation passes each segment gets in the current substep (0 while its body sleeps); the solver fills it. */
  segmentPasses: Int32Array = new Int32Array(1);
  /** Per segment, which loop the solver may take (a {@link SegmentLoop}). */
  segmentLoop: Uint8Array = new Uint8Array(1);
  /** Incremented whenever the order is rebuilt. */
  layoutVersion = 0;

  /** @param onMove called with (constraint id, new row) whenever a row moves. */
  constructor(
    capacity = 64,
    readonly onMove: (id: number, row: number) => void = () => {},
  ) {
    super(capacity);
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.rest = new Float64Array(capacity);
    this.stiffness = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
  }

  /** Appends a stick for constraint `id` between particles `a` and `b` (rest length in m) and returns its row (rows move later, see above); low-level, `world.addStick` also keeps the id-to-row map. */
  add(id: number, a: number, b: number, rest: number, stiffness: number, kind: StickKindCode): number {
    const row = this.addRow(id);
    this.a[row] = a;
    this.b[row] = b;
    this.rest[row] = rest;
    this.stiffness[row] = stiffness;
    this.kind[row] = kind;
    this.ordered = false;
    return row;
  }

  /**
   * Removes `row` without re-ordering the table: the last row of its segment
   * fills the hole and every later segment shifts down by one row, its last row
   * moving to its front (order inside a segment is free, so this stays a valid
   * Gauss–Seidel order; only the independence of one run is lost). Costs one
   * copy per later segment. Moves are reported through `onMove`; returns -1.
   */
  override removeRow(row: number): number {
    if (!this.ordered) {
      const moved = super.removeRow(row);
      if (moved >= 0) this.onMove(moved, row);
      return -1;
    }
    const start = this.segmentStart;
    let k = 0;
    while (start[k + 1]! <= row) k++;
    let hole = row;
    for (; k < this.segmentCount; k++) {
      const last = start[k + 1]! - 1;
      if (last !== hole) this.moveRow(last, hole);
      hole = last;
      start[k + 1] = last;
    }
    this.count--;
    return -1;
  }

  /** Changes the kind of the stick in `row`. Use this rather than writing `kind`: the solver caches which loop each segment can take. */
  setKind(row: number, kind: StickKindCode): void {
    this.kind[row] = kind;
    if (kind !== StickKindCode.Equal) this.demote(row, SegmentLoop.General);
  }

  /** Changes the stiffness of the stick in `row`; use this rather than writing `stiffness` (see {@link setKind}). */
  setStiffness(row: number, stiffness: number): void {
    this.stiffness[row] = stiffness;
    if (stiffness !== 1) this.demote(row, SegmentLoop.Equal);
  }

  /** Lowers the loop of the segment holding `row` to at most `loop`. */
  private demote(row: number, loop: SegmentLoop): void {
    if (!this.ordered) return;
    let k = 0;
    while (this.segmentStart[k + 1]! <= row) k++;
    if (this.segmentLoop[k]! > loop) this.segmentLoop[k] = loop;
  }

  /** Copies row `from` onto row `to` and reports the move. */
  moveRow(from: number, to: number): void {
    this.copyRow(from, to);
    this.ids[to] = this.ids[from]!;
    this.onMove(this.ids[to]!, to);
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
 * One pass over stick segment `k` with the fastest loop that segment allows. With
 * a WebAssembly `kernel` (whose memory holds the table and the positions, see
 * {@link WasmStickKernel.adopt}), segments of 'equal' sticks go through it; the
 * general loop (other kinds, the square-root approximation) stays in TypeScript:
 * ropes and other small bodies are where it runs, and they gain little.
 */
export function solveSegment(sticks: StickTable, particles: ParticleStore, k: number, sqrtApprox: boolean, random: SeededRandom, kernel: WasmStickKernel | null): void {
  const from = sticks.segmentStart[k]!;
  const to = sticks.segmentStart[k + 1]!;
  const loop = sqrtApprox ? SegmentLoop.General : sticks.segmentLoop[k]!;
  if (kernel !== null && loop !== SegmentLoop.General) solveWithKernel(kernel, sticks, particles, from, to, loop === SegmentLoop.Equal ? 1 : 0, random);
  else if (loop === SegmentLoop.Rigid) solveRigidSticks(sticks, particles, from, to, random);
  else if (loop === SegmentLoop.Equal) solveEqualSticks(sticks, particles, from, to, random);
  else solveSticks(sticks, particles, from, to, sqrtApprox, random);
}

/**
 * {@link solveRigidSticks} (`soft` 0) or {@link solveEqualSticks} (`soft` 1) in
 * WebAssembly. The kernel stops at each stick it cannot do (coincident ends, two
 * immovable ends), which goes to {@link solveSticks} alone, as in those loops.
 */
function solveWithKernel(kernel: WasmStickKernel, sticks: StickTable, particles: ParticleStore, from: number, to: number, soft: number, random: SeededRandom): void {
  for (let s = kernel.solve(from, to, soft); s < to; s = kernel.solve(s + 1, to, soft)) solveSticks(sticks, particles, s, s + 1, false, random);
}

/**
 * {@link solveSticks} for a range of sticks all of kind 'equal' with the exact
 * square root: the loop the cloth spends its time in. Sticks it cannot do
 * (coincident ends, two immovable ends) go to {@link solveSticks} one by one.
 * Measured 20–35% faster than the general loop on the cloth workload.
 */
export function solveEqualSticks(sticks: StickTable, particles: ParticleStore, from: number, to: number, random: SeededRandom): void {
  const pos = particles.position;
  const w = particles.inverseMass;
  const sa = sticks.a;
  const sb = sticks.b;
  const rest = sticks.rest;
  const stiffness = sticks.stiffness;
  for (let s = from; s < to; s++) {
    const ia = sa[s]!;
    const ib = sb[s]!;
    const wa = w[ia]!;
    const wb = w[ib]!;
    const a = ia * 3;
    const b = ib * 3;
    const dx = pos[b]! - pos[a]!;
    const dy = pos[b + 1]! - pos[a + 1]!;
    const dz = pos[b + 2]! - pos[a + 2]!;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const den = d * (wa + wb);
    // One test catches both exceptions: d = 0 (coincident) and Σw = 0 (immovable).
    if (!(den > 0) || d < COINCIDENT) {
      solveSticks(sticks, particles, s, s + 1, false, random);
      continue;
    }
    const f = ((d - rest[s]!) * stiffness[s]!) / den;
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

/**
 * {@link solveEqualSticks} for sticks that are also all rigid (stiffness 1): a
 * copy without the stiffness load, which measured 8–10% faster on the cloth.
 */
export function solveRigidSticks(sticks: StickTable, particles: ParticleStore, from: number, to: number, random: SeededRandom): void {
  const pos = particles.position;
  const w = particles.inverseMass;
  const sa = sticks.a;
  const sb = sticks.b;
  const rest = sticks.rest;
  for (let s = from; s < to; s++) {
    const ia = sa[s]!;
    const ib = sb[s]!;
    const wa = w[ia]!;
    const wb = w[ib]!;
    const a = ia * 3;
    const b = ib * 3;
    const dx = pos[b]! - pos[a]!;
    const dy = pos[b + 1]! - pos[a + 1]!;
    const dz = pos[b + 2]! - pos[a + 2]!;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const den = d * (wa + wb);
    if (!(den > 0) || d < COINCIDENT) {
      solveSticks(sticks, particles, s, s + 1, false, random);
      continue;
    }
    const f = (d - rest[s]!) / den;
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

/**
 * One Gauss–Seidel pass over sticks `[from, to)`: each is projected back to its rest
 * length, the correction shared by inverse mass (paper section 4 with the course
 * notes' mass weighting). `stiffness` repairs only that share of the error (the
 * paper's soft constraints). With `sqrtApprox` the square root is replaced by one
 * Newton–Raphson step around the rest length, as in the paper.
 *
 * Written for V8: one division per stick ((|d| - r) / (|d|·Σw) rather than
 * 1 - r/|d| then / Σw), indices read once, no calls on the common path.
 */
export function solveSticks(sticks: StickTable, particles: ParticleStore, from: number, to: number, sqrtApprox: boolean, random: SeededRandom): void {
  const pos = particles.position;
  const w = particles.inverseMass;
  const sa = sticks.a;
  const sb = sticks.b;
  const rest = sticks.rest;
  const stiffness = sticks.stiffness;
  const kind = sticks.kind;
  for (let s = from; s < to; s++) {
    const ia = sa[s]!;
    const ib = sb[s]!;
    const wa = w[ia]!;
    const wb = w[ib]!;
    const wSum = wa + wb;
    if (wSum === 0) continue;
    const a = ia * 3;
    const b = ib * 3;
    let dx = pos[b]! - pos[a]!;
    let dy = pos[b + 1]! - pos[a + 1]!;
    let dz = pos[b + 2]! - pos[a + 2]!;
    let d2 = dx * dx + dy * dy + dz * dz;
    const r = rest[s]!;
    const k = kind[s]!;
    if (k !== StickKindCode.Equal && (k === StickKindCode.Min ? d2 >= r * r : d2 <= r * r)) continue;
    if (d2 < COINCIDENT * COINCIDENT) {
      separate(pos, a, b, random);
      dx = pos[b]! - pos[a]!;
      dy = pos[b + 1]! - pos[a + 1]!;
      dz = pos[b + 2]! - pos[a + 2]!;
      d2 = dx * dx + dy * dy + dz * dz;
    }
    let f: number;
    if (sqrtApprox && r > 0) {
      // sqrt(d2) ~ (d2 + r²) / (2r) makes the relative error (|d| - r)/|d| = (d2 - r²)/(d2 + r²).
      const r2 = r * r;
      f = ((d2 - r2) * stiffness[s]!) / ((d2 + r2) * wSum);
    } else {
      const d = Math.sqrt(d2);
      f = ((d - r) * stiffness[s]!) / (d * wSum);
    }
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

/** Paper section 7: coinciding particles are dislocated slightly at random (seeded). */
function separate(pos: Float64Array, a: number, b: number, random: SeededRandom): void {
  pos[b] = pos[a]! + (random.next() - 0.5) * 1e-6;
  pos[b + 1] = pos[a + 1]! + (random.next() - 0.5) * 1e-6;
  pos[b + 2] = pos[a + 2]! + (random.next() - 0.5) * 1e-6;
}
