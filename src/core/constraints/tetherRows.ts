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

  /** Puts the tethers back in particle order (the heavy anchors' were appended after the fixed ones'), keeping each particle's in the order added. */
  sortByParticle(): void {
    const order = Array.from({ length: this.count }, (_, r) => r).sort((x, y) => this.particle[x]! - this.particle[y]! || x - y);
    for (const column of [this.particle, this.slot, this.rest]) {
      const sorted = order.map((r) => column[r]!);
      column.set(sorted);
    }
  }

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
