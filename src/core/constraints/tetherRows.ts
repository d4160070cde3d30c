import { widen } from './table.js';
import type { TetherSink } from './tetherBuild.js';

/**
 * A tether counts as taut when its particle is within this share of its length
 * from the end: a hanging cloth's particles sit a little short of their
 * tethers (the sticks curve), and are still held by them.
 */
export const TAUT = 0.002;

/**
 * The rows of the long-range attachments (`Tethers`): one per tether
 * (its particle, its anchor's slot, its rest length and its length now) and one
 * per anchor slot, grown as a build adds them (`buildTethers` writes them
 * through {@link TetherSink}).
 */
export class TetherRows implements TetherSink {
  /** Tethers in use. */
  count = 0;
  /** Per tether: its particle, its anchor's slot, its rest length and its length now (m, at least the rest length), grouped by particle. */
  particle: Int32Array = new Int32Array(64);
  slot: Int32Array = new Int32Array(64);
  rest: Float64Array = new Float64Array(64);
  length: Float64Array = new Float64Array(64);
  /** Per tether: the squared distance beyond which it counts as taut, and 1 / its length. */
  protected slack2: Float64Array = new Float64Array(64);
  protected inverse: Float64Array = new Float64Array(64);
  /** Tethers longer than their rest length (still shortening): while there are none, a pass reads no lengths but the taut ones'. */
  protected longRows = 0;
  /** Anchor slots in use. */
  slotCount = 0;
  /** Per slot: the anchor particle, its rigid pin's row (-1: none), whether its tethers rest, and its pin's target as of the last step. */
  slotParticle: Int32Array = new Int32Array(16);
  protected slotPin: Int32Array = new Int32Array(16);
  paused: Uint8Array = new Uint8Array(16);
  protected lastTarget: Float64Array = new Float64Array(48);
  /** Per slot: where the anchor is in the current pass (its pin's target, or its position). */
  protected where: Float64Array = new Float64Array(48);

  /** Forgets every tether and slot (the start of a build). */
  reset(): void {
    this.count = 0;
    this.slotCount = 0;
  }

  /** Adds an anchor slot for particle `anchor`, held by rigid pin row `pin` (-1: none); returns the slot. */
  addSlot(anchor: number, pin: number): number {
    const s = this.slotCount;
    if (s === this.slotParticle.length) {
      this.slotParticle = widen(this.slotParticle, s * 2);
      this.slotPin = widen(this.slotPin, s * 2);
      this.paused = widen(this.paused, s * 2);
      this.lastTarget = widen(this.lastTarget, s * 6);
      this.where = widen(this.where, s * 6);
    }
    this.slotParticle[s] = anchor;
    this.slotPin[s] = pin;
    this.paused[s] = 0;
    this.slotCount++;
    return s;
  }

  /** Adds a tether from `particle` to slot `slot` of rest length `rest` (m); its length is set when the build ends. */
  add(particle: number, slot: number, rest: number): void {
    if (this.count === this.particle.length) {
      const n = this.count * 2;
      this.particle = widen(this.particle, n);
      this.slot = widen(this.slot, n);
      this.rest = widen(this.rest, n);
      this.length = widen(this.length, n);
      this.slack2 = widen(this.slack2, n);
      this.inverse = widen(this.inverse, n);
    }
    this.particle[this.count] = particle;
    this.slot[this.count] = slot;
    this.rest[this.count] = rest;
    this.count++;
  }

  /**
   * Puts the tethers back in particle order (the heavy anchors' were appended after the fixed ones'),
   * keeping each particle's in the order added: a counting sort by particle. It runs inside a
   * step when the links change (a cloth tearing), so it allocates only when the rows or the
   * particles outgrow every earlier sort.
   */
  sortByParticle(): void {
    const n = this.count;
    if (n < 2) return;
    const particle = this.particle;
    let most = 0;
    for (let r = 0; r < n; r++) if (particle[r]! > most) most = particle[r]!;
    if (this.sortStart.length < most + 2) this.sortStart = new Int32Array(most + 2);
    if (this.sortOrder.length < n) {
      this.sortOrder = new Int32Array(particle.length);
      this.sortInts = new Int32Array(particle.length);
      this.sortReals = new Float64Array(particle.length);
    }
    const start = this.sortStart;
    const order = this.sortOrder;
    start.fill(0, 0, most + 2);
    for (let r = 0; r < n; r++) start[particle[r]! + 1]!++;
    for (let i = 0; i <= most; i++) start[i + 1] = start[i + 1]! + start[i]!;
    for (let r = 0; r < n; r++) order[start[particle[r]!]!++] = r;
    const ints = this.sortInts;
    for (let k = 0; k < n; k++) ints[k] = particle[order[k]!]!;
    for (let k = 0; k < n; k++) particle[k] = ints[k]!;
    const slot = this.slot;
    for (let k = 0; k < n; k++) ints[k] = slot[order[k]!]!;
    for (let k = 0; k < n; k++) slot[k] = ints[k]!;
    const reals = this.sortReals;
    const rest = this.rest;
    for (let k = 0; k < n; k++) reals[k] = rest[order[k]!]!;
    for (let k = 0; k < n; k++) rest[k] = reals[k]!;
  }

  /** Scratch of {@link TetherRows.sortByParticle}: where each particle's rows go, the new order, a column's new values. */
  private sortStart = new Int32Array(0);
  private sortOrder = new Int32Array(0);
  private sortInts = new Int32Array(0);
  private sortReals = new Float64Array(0);

  /** Counts the tethers longer than their rest length into `longRows`. */
  protected countLong(): void {
    let long = 0;
    for (let r = 0; r < this.count; r++) if (this.length[r]! > this.rest[r]!) long++;
    this.longRows = long;
  }

  protected setLength(r: number, length: number): void {
    const t = length * (1 - TAUT);
    this.length[r] = length;
    this.slack2[r] = t * t;
    this.inverse[r] = length > 0 ? 1 / length : 0;
  }
}
