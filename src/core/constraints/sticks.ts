import type { ParticleStore } from '../particles.js';
import type { SeededRandom } from '../random.js';
import type { WasmStickKernel } from '../wasm/stickKernel.js';
import { ConstraintTable, widen, type TableSnapshot } from './table.js';

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
  /** Any kind, stiffness, compliance and damping: {@link solveSticks}. */
  General = 0,
  /** Every stick of kind 'equal' without constraint damping: {@link solveCompliantSticks}. */
  Compliant = 1,
  /** Every stick of kind 'equal' with compliance 0: {@link solveEqualSticks}. */
  Equal = 2,
  /** Every stick of kind 'equal' with compliance 0 and stiffness 1: {@link solveRigidSticks}. */
  Rigid = 3,
}

/** The loop a single stick allows (a segment takes the lowest of its sticks'). */
export function stickLoop(kind: number, stiffness: number, compliance: number, damping: number): SegmentLoop {
  if (kind !== StickKindCode.Equal || damping !== 0) return SegmentLoop.General;
  if (compliance !== 0) return SegmentLoop.Compliant;
  return stiffness === 1 ? SegmentLoop.Rigid : SegmentLoop.Equal;
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
  /**
   * Share of the error repaired per pass; change it with {@link setStiffness}.
   * @deprecated Per-pass stiffness makes softness depend on substeps and
   * iterations; use {@link compliance}. Still honoured for one version.
   */
  stiffness: Float64Array;
  /**
   * XPBD compliance α in m/N, the inverse of the stick's spring constant (0:
   * rigid); change it with {@link setCompliance}. The stick then behaves as a
   * spring of k = 1/α whatever the substeps and iterations (Macklin, Müller,
   * Chentanez 2016).
   */
  compliance: Float64Array;
  /** Constraint damping in N·s/m (a dashpot beside the compliant spring; 0: none); change it with {@link setCompliance}. */
  damping: Float64Array;
  /**
   * Each stick's Lagrange multiplier accumulated over the current substep's
   * passes, with the sign flipped (μ = −λ of the XPBD paper, in kg·m: the
   * stick's force times h², so a pull is positive): scratch of the solver,
   * zeroed every substep by {@link resetMultipliers}.
   */
  lambda: Float64Array;
  /** True while some stick has a compliance > 0: then the solver zeroes {@link lambda} every substep. */
  compliant = false;
  /**
   * Substeps begun so far (incremented by {@link resetMultipliers}): compliant
   * constraints outside this table (angles, volumes, planes) zero their own
   * multipliers when it differs from the value they last saw.
   */
  substepSerial = 0;
  /** 1/h² of the current substep (h the substep length), set by {@link resetMultipliers}: compliance α acts as α/h². */
  invH2 = 360_000;
  /** 1/h of the current substep, for the damping term. */
  invH = 600;
  protected override readonly savedColumns = ['a', 'b', 'rest', 'stiffness', 'compliance', 'damping', 'kind'] as const;
  /** Snapshots taken before compliance existed restore as rigid, undamped sticks. */
  protected override readonly optionalColumns = ['compliance', 'damping'] as const;
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
    this.compliance = new Float64Array(capacity);
    this.damping = new Float64Array(capacity);
    this.lambda = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
  }

  /** Appends a stick for constraint `id` between particles `a` and `b` (rest length in m) and returns its row (rows move later, see above); low-level, `world.addStick` also keeps the id-to-row map. */
  add(id: number, a: number, b: number, rest: number, stiffness: number, kind: StickKindCode, compliance = 0, damping = 0): number {
    const row = this.addRow(id);
    this.a[row] = a;
    this.b[row] = b;
    this.rest[row] = rest;
    this.stiffness[row] = stiffness;
    this.compliance[row] = compliance;
    this.damping[row] = damping;
    this.lambda[row] = 0;
    this.kind[row] = kind;
    if (compliance !== 0) this.compliant = true;
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
    this.demote(row, stickLoop(this.kind[row]!, stiffness, this.compliance[row]!, this.damping[row]!));
  }

  /**
   * Changes the compliance (m/N) and constraint damping (N·s/m) of the stick in
   * `row`; use this rather than writing the columns (see {@link setKind}).
   */
  setCompliance(row: number, compliance: number, damping: number): void {
    this.compliance[row] = compliance;
    this.damping[row] = damping;
    if (compliance !== 0) this.compliant = true;
    this.demote(row, stickLoop(this.kind[row]!, this.stiffness[row]!, compliance, damping));
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

  /** Loads a snapshot's sticks; the XPBD multipliers start from zero (they restart every substep anyway). */
  override load(snap: TableSnapshot): void {
    super.load(snap);
    this.lambda = new Float64Array(this.capacity);
    this.compliant = this.compliance.subarray(0, this.count).some((alpha) => alpha !== 0);
  }

  protected growColumns(capacity: number): void {
    this.a = widen(this.a, capacity);
    this.b = widen(this.b, capacity);
    this.rest = widen(this.rest, capacity);
    this.stiffness = widen(this.stiffness, capacity);
    this.compliance = widen(this.compliance, capacity);
    this.damping = widen(this.damping, capacity);
    this.lambda = widen(this.lambda, capacity);
    this.kind = widen(this.kind, capacity);
  }

  protected copyRow(from: number, to: number): void {
    this.a[to] = this.a[from]!;
    this.b[to] = this.b[from]!;
    this.rest[to] = this.rest[from]!;
    this.stiffness[to] = this.stiffness[from]!;
    this.compliance[to] = this.compliance[from]!;
    this.damping[to] = this.damping[from]!;
    this.lambda[to] = this.lambda[from]!;
    this.kind[to] = this.kind[from]!;
  }
}

/**
 * Starts a substep for the compliant sticks: XPBD accumulates each constraint's
 * multiplier over the passes of one substep and starts again from zero at the
 * next ("Small Steps in Physics Simulation", Macklin et al. 2019). Zeroes nothing
 * when no stick is compliant, so rigid cloths pay nothing. Also counts the
 * substep ({@link StickTable.substepSerial}) and keeps its 1/h and 1/h², which
 * the compliant user constraints (angles, volumes, planes) read as well.
 */
export function resetMultipliers(sticks: StickTable, substep: { readonly h: number; readonly h2: number }): void {
  sticks.substepSerial++;
  sticks.invH = 1 / substep.h;
  sticks.invH2 = 1 / substep.h2;
  if (sticks.compliant) sticks.lambda.fill(0, 0, sticks.count);
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
  if (kernel !== null && loop !== SegmentLoop.General) solveWithKernel(kernel, sticks, particles, from, to, loop === SegmentLoop.Rigid ? 0 : loop === SegmentLoop.Equal ? 1 : 2, random);
  else if (loop === SegmentLoop.Rigid) solveRigidSticks(sticks, particles, from, to, random);
  else if (loop === SegmentLoop.Equal) solveEqualSticks(sticks, particles, from, to, random);
  else if (loop === SegmentLoop.Compliant) solveCompliantSticks(sticks, particles, from, to, random);
  else solveSticks(sticks, particles, from, to, sqrtApprox, random);
}

/**
 * {@link solveRigidSticks} (`soft` 0), {@link solveEqualSticks} (`soft` 1) or
 * {@link solveCompliantSticks} (`soft` 2) in WebAssembly. The kernel stops at each stick it cannot do (coincident ends, two
 * immovable ends), which goes to {@link solveSticks} alone, as in those loops.
 */
function solveWithKernel(kernel: WasmStickKernel, sticks: StickTable, particles: ParticleStore, from: number, to: number, soft: number, random: SeededRandom): void {
  if (soft === 2) kernel.setSubstep(sticks);
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
 * {@link solveEqualSticks} with XPBD compliance: each stick is a spring of
 * k = 1/α (α = `compliance`, m/N), whatever the substeps and passes (Macklin,
 * Müller, Chentanez 2016, eq. 18 with α̃ = α/h²). Per pass the multiplier grows by
 * Δμ = (C·s − α̃·μ) / (Σw + α̃), C = |d| − r, s the legacy stiffness (1 unless
 * set), and the ends move by Δμ along the stick, shared by inverse mass. With
 * α = 0 this is {@link solveEqualSticks} bit for bit. `lambda` holds μ (zeroed
 * every substep by {@link resetMultipliers}). No constraint damping here: that
 * needs the previous positions and is done by {@link solveSticks}.
 */
export function solveCompliantSticks(sticks: StickTable, particles: ParticleStore, from: number, to: number, random: SeededRandom): void {
  const pos = particles.position;
  const w = particles.inverseMass;
  const sa = sticks.a;
  const sb = sticks.b;
  const rest = sticks.rest;
  const stiffness = sticks.stiffness;
  const compliance = sticks.compliance;
  const lambda = sticks.lambda;
  const invH2 = sticks.invH2;
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
    const at = compliance[s]! * invH2;
    const f = ((d - rest[s]!) * stiffness[s]! - at * lambda[s]!) / (d * (wa + wb + at));
    lambda[s] = lambda[s]! + f * d;
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
 * A stick with a compliance is solved the XPBD way (see {@link solveCompliantSticks},
 * always with the exact square root), and with a constraint damping c (N·s/m)
 * as in the XPBD paper's eq. 26: γ = α·c/h, Δμ = (C·s − α̃·μ + γ·n·(Δx_b − Δx_a))
 * / ((1 + γ)·Σw + α̃), Δx the motion since the substep began.
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
  const compliance = sticks.compliance;
  const damping = sticks.damping;
  const lambda = sticks.lambda;
  const prev = particles.previous;
  const invH2 = sticks.invH2;
  const invH = sticks.invH;
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
    const c = compliance[s]!;
    if (c !== 0) {
      // Inline rather than a helper: doubles passed to a call V8 does not inline are boxed.
      const d = Math.sqrt(d2);
      const at = c * invH2;
      let num = (d - r) * stiffness[s]! - at * lambda[s]!;
      let wEff = wSum;
      const cd = damping[s]!;
      if (cd !== 0) {
        const gamma = c * cd * invH;
        // Relative motion of the ends along the stick since the substep began.
        const along =
          (dx * (pos[b]! - prev[b]! - pos[a]! + prev[a]!) + dy * (pos[b + 1]! - prev[b + 1]! - pos[a + 1]! + prev[a + 1]!) + dz * (pos[b + 2]! - prev[b + 2]! - pos[a + 2]! + prev[a + 2]!)) / d;
        num += gamma * along;
        wEff = (1 + gamma) * wSum;
      }
      f = num / (d * (wEff + at));
      lambda[s] = lambda[s]! + f * d;
    } else if (sqrtApprox && r > 0) {
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
