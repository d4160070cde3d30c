import { STICK_DEFAULTS } from '../defaults.js';
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
  /** Any kind, stiffness, compliance and damping: `solveSticks` (stickSolve.ts). */
  General = 0,
  /** Every stick of kind 'equal' without constraint damping: `solveCompliantSticks` (stickSolve.ts). */
  Compliant = 1,
  /** Every stick of kind 'equal' with compliance 0: `solveEqualSticks` (stickSolve.ts). */
  Equal = 2,
  /** Every stick of kind 'equal' with compliance 0 and stiffness 1: `solveRigidSticks` (stickSolve.ts). */
  Rigid = 3,
}

/** The loop a single stick allows (a segment takes the lowest of its sticks'). */
export function stickLoop(kind: number, stiffness: number, compliance: number, damping: number): SegmentLoop {
  if (kind !== StickKindCode.Equal || damping !== 0) return SegmentLoop.General;
  if (compliance !== 0) return SegmentLoop.Compliant;
  return stiffness === 1 ? SegmentLoop.Rigid : SegmentLoop.Equal;
}

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
   * Below 1 the softness depends on the substeps and iterations; a
   * {@link compliance} does not.
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
   * zeroed every substep by `resetMultipliers` (stickSolve.ts).
   */
  lambda: Float64Array;
  /** True while some stick has a compliance > 0: then the solver zeroes {@link lambda} every substep. */
  compliant = false;
  /**
   * Substeps begun so far (incremented by `resetMultipliers` (stickSolve.ts)): compliant
   * constraints outside this table (angles, volumes, planes) zero their own
   * multipliers when it differs from the value they last saw.
   */
  substepSerial = 0;
  /** 1/h² of the current substep (h the substep length), set by `resetMultipliers` (stickSolve.ts): compliance α acts as α/h². */
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
  add(id: number, a: number, b: number, rest: number, stiffness: number, kind: StickKindCode, compliance: number = STICK_DEFAULTS.compliance, damping: number = STICK_DEFAULTS.damping): number {
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
