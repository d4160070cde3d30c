import type { ParticleStore } from '../particles.js';
import { keepFront, restoreFront, type SavedFront } from './savedArrays.js';

/**
 * The pairs of a surface's self-contact picked for the passes (by
 * `SurfaceSelfContact`), with what the passes keep of each: the side of its
 * triangle a particle started the step on, and when a pass must look at it
 * again; and, per particle in some pair, an odometer of its moves since the
 * pick. `SelfContactProjection` projects them.
 */
export class ActiveSelfPairs {
  /** The pairs the passes project, picked by `SurfaceSelfContact.activate`: particle, then the three corners (-1 -1 after a second particle). */
  protected active = new Int32Array(64);
  /**
   * Per active particle–triangle pair, the side of the triangle's plane (+1 or -1) a particle
   * over the triangle started the step on; 0 for one beside it (see {@link ActiveSelfPairs.refreshSides}).
   */
  protected sides = new Int8Array(16);
  /**
   * Per active pair, when a pass must look at it again: its clearance beyond `thickness` when
   * a pass last looked at it, plus its particles' credit then (see
   * {@link ActiveSelfPairs.travel}, `SelfContactProjection.lookAgain`). Until their
   * `travel` sums to it they cannot have closed that clearance, so the passes skip it: a cloth
   * lying in layers looks at its few real contacts, not at every pair the pick let through.
   * -Infinity: at the next pass.
   */
  protected due = new Float64Array(16);
  /** Per active pair, 1 once a pass has looked at it since its side was last read (see {@link ActiveSelfPairs.refreshSides}). */
  protected looked = new Uint8Array(16);
  /** Per particle of the body, where it was at the start of the latest pass (xyz). */
  protected readonly lastPass: Float64Array;
  /** Per particle of the body, an odometer (m): the sum of its moves from the start of one pass to the start of the next, since the pick. */
  protected readonly odometer: Float64Array;
  /**
   * Per particle of the body, its `odometer` plus its pushes in this pass so far (m). Between
   * a moment in one pass and a later one a particle has moved no further than its `travel` at
   * the later less its credit at the earlier, 2 · odometer - travel (its pushes before the
   * earlier moment are counted in both its pass's move and `travel`). (Measured against a
   * distance from an anchor moved only every 0.1 mm, which left a particle at rest a little
   * credit: the odometer looks at 13% fewer pairs in the draped 64² cloth, 15% fewer over six
   * drops onto a ball.)
   */
  protected readonly travel: Float64Array;
  /** The clearance a look at a pair found, for `SelfContactProjection.lookAgain` (a double in an array, so that none crosses a call). */
  /** Pairs picked. */
  protected activeCount = 0;
  /** Per particle of the body, how many active pairs it is in. */
  protected readonly activeIn: Int32Array;
  /** The particles of the body in some active pair (body-relative), the only ones whose `travel` a pass reads. */
  protected readonly tracked: Int32Array;
  protected trackedCount = 0;
  /** Whether `tracked` must be made again from `activeIn` before the next pass. */
  protected trackedStale = false;
  /** Looks at pairs in this step's passes so far, summed over the passes (the rest were skipped, too far apart to touch: see {@link ActiveSelfPairs.due}). */
  examined = 0;

  /**
   * @param first,count the particle range of the body.
   * @param thickness least distance kept (m).
   */
  constructor(
    protected readonly first: number,
    protected readonly count: number,
    readonly thickness: number,
  ) {
    this.lastPass = new Float64Array(count * 3);
    this.odometer = new Float64Array(count);
    this.travel = new Float64Array(count);
    this.activeIn = new Int32Array(count);
    this.tracked = new Int32Array(count);
  }

  /** Pairs projected in this step's passes. */
  get activePairs(): number {
    return this.activeCount;
  }

  /** The picked pairs and what the passes keep of them, for snapshots: plain data (copies). */
  saveState(): ActiveSelfPairsState {
    return {
      active: keepFront(this.active, this.activeCount * 4),
      sides: keepFront(this.sides, this.activeCount),
      due: keepFront(this.due, this.activeCount),
      looked: keepFront(this.looked, this.activeCount),
      lastPass: this.lastPass.slice(),
      odometer: this.odometer.slice(),
      travel: this.travel.slice(),
      activeCount: this.activeCount,
      activeIn: this.activeIn.slice(),
      tracked: this.tracked.slice(),
      trackedCount: this.trackedCount,
      trackedStale: this.trackedStale,
      examined: this.examined,
    };
  }

  /** Returns to {@link ActiveSelfPairs.saveState}'s copy (copied again). */
  loadState(state: ActiveSelfPairsState): void {
    this.active = restoreFront(state.active);
    this.sides = restoreFront(state.sides);
    this.due = restoreFront(state.due);
    this.looked = restoreFront(state.looked);
    this.lastPass.set(state.lastPass);
    this.odometer.set(state.odometer);
    this.travel.set(state.travel);
    this.activeCount = state.activeCount;
    this.activeIn.set(state.activeIn);
    this.tracked.set(state.tracked);
    this.trackedCount = state.trackedCount;
    this.trackedStale = state.trackedStale;
    this.examined = state.examined;
  }

  /** Empties the pairs for a new pick, the particles' odometers started from where they are (`pos`). */
  clear(pos: Float64Array): void {
    const first = this.first;
    this.activeCount = 0;
    this.activeIn.fill(0);
    this.trackedStale = true;
    this.examined = 0;
    const lastPass = this.lastPass;
    for (let k = 0; k < this.count * 3; k++) lastPass[k] = pos[first * 3 + k]!;
    this.odometer.fill(0);
    this.travel.fill(0);
  }

  /** For a repick: drops the pairs a particle marked in `mark` (per particle of the body, 1 if stale) is in, keeping the others' state. */
  dropMarked(mark: Uint8Array): void {
    const first = this.first;
    const active = this.active;
    let kept = 0;
    for (let k = 0; k < this.activeCount; k++) {
      const c = active[k * 4 + 3]!;
      const touched = mark[active[k * 4]! - first] === 1 || mark[active[k * 4 + 1]! - first] === 1 || (c >= 0 && (mark[active[k * 4 + 2]! - first] === 1 || mark[c - first] === 1));
      if (touched) {
        this.leave(active[k * 4]!);
        this.leave(active[k * 4 + 1]!);
        if (c >= 0) {
          this.leave(active[k * 4 + 2]!);
          this.leave(c);
        }
        continue;
      }
      if (kept !== k) {
        for (let v = 0; v < 4; v++) active[kept * 4 + v] = active[k * 4 + v]!;
        this.sides[kept] = this.sides[k]!;
        this.due[kept] = this.due[k]!;
        this.looked[kept] = this.looked[k]!;
      }
      kept++;
    }
    this.activeCount = kept;
  }

  /**
   * Before a step that keeps the latest pick: sets the side of each active particle–triangle
   * pair a pass has looked at since to the one the particle starts the step on if it is over
   * the triangle, else 0, as a pick does, so that where a pass could not keep a particle on
   * its side (sticks pressing a crumple thinner than the thickness) the new side is taken at
   * the next step, as before, not fought at the push-out speed until the next pick. A pair no
   * pass has looked at was never within the thickness since, so it cannot have changed sides;
   * one found over its triangle with no side yet takes the side it is on then (see
   * `SelfContactProjection.holdOff`). Allocates nothing.
   */
  refreshSides(particles: ParticleStore): void {
    const pos = particles.position;
    const pairs = this.active;
    const sides = this.sides;
    const looked = this.looked;
    this.examined = 0;
    for (let k = 0; k < this.activeCount; k++) {
      const c = pairs[k * 4 + 3]!;
      if (c < 0 || looked[k] === 0) continue;
      looked[k] = 0;
      const i = pairs[k * 4]!;
      const a = pairs[k * 4 + 1]!;
      const b = pairs[k * 4 + 2]!;
      const ax = pos[a * 3]!;
      const ay = pos[a * 3 + 1]!;
      const az = pos[a * 3 + 2]!;
      const e1x = pos[b * 3]! - ax;
      const e1y = pos[b * 3 + 1]! - ay;
      const e1z = pos[b * 3 + 2]! - az;
      const e2x = pos[c * 3]! - ax;
      const e2y = pos[c * 3 + 1]! - ay;
      const e2z = pos[c * 3 + 2]! - az;
      const nx = e1y * e2z - e1z * e2y;
      const ny = e1z * e2x - e1x * e2z;
      const nz = e1x * e2y - e1y * e2x;
      const len2 = nx * nx + ny * ny + nz * nz;
      const px = pos[i * 3]! - ax;
      const py = pos[i * 3 + 1]! - ay;
      const pz = pos[i * 3 + 2]! - az;
      // The foot's weights on b and c: ((e2 × n) · p) / |n|² and ((n × e1) · p) / |n|².
      const v = ((e2y * nz - e2z * ny) * px + (e2z * nx - e2x * nz) * py + (e2x * ny - e2y * nx) * pz) / len2;
      const u = ((ny * e1z - nz * e1y) * px + (nz * e1x - nx * e1z) * py + (nx * e1y - ny * e1x) * pz) / len2;
      const above = px * nx + py * ny + pz * nz;
      const side = len2 > 0 && v >= 0 && u >= 0 && u + v <= 1 ? (above > 0 ? 1 : above < 0 ? -1 : 0) : 0;
      // A new side is a new constraint: looked at in the next pass.
      if (side !== sides[k]) this.due[k] = -Infinity;
      sides[k] = side;
    }
  }

  add(i: number, a: number, b: number, c: number, side: number): void {
    const k = this.activeCount++;
    if (k * 4 + 4 > this.active.length) {
      const grown = new Int32Array(this.active.length * 2);
      grown.set(this.active);
      this.active = grown;
    }
    if (k >= this.sides.length) {
      const grown = new Int8Array(this.sides.length * 2);
      grown.set(this.sides);
      this.sides = grown;
      const dueGrown = new Float64Array(this.due.length * 2);
      dueGrown.set(this.due);
      this.due = dueGrown;
      const lookedGrown = new Uint8Array(this.looked.length * 2);
      lookedGrown.set(this.looked);
      this.looked = lookedGrown;
    }
    this.active[k * 4] = i;
    this.active[k * 4 + 1] = a;
    this.active[k * 4 + 2] = b;
    this.active[k * 4 + 3] = c;
    this.sides[k] = side;
    this.due[k] = -Infinity;
    this.looked[k] = 0;
    this.enter(i);
    this.enter(a);
    if (c >= 0) {
      this.enter(b);
      this.enter(c);
    }
  }

  /** Lists in `tracked` the particles in some active pair. */
  protected track(): void {
    let n = 0;
    for (let k = 0; k < this.count; k++) if (this.activeIn[k]! > 0) this.tracked[n++] = k;
    this.trackedCount = n;
    this.trackedStale = false;
  }

  /** Particle `i` joins an active pair. */
  private enter(i: number): void {
    const k = i - this.first;
    const n = this.activeIn[k]!;
    this.activeIn[k] = n + 1;
    if (n === 0) this.trackedStale = true;
  }

  /** Particle `i` leaves an active pair. */
  private leave(i: number): void {
    const k = i - this.first;
    const n = this.activeIn[k]! - 1;
    this.activeIn[k] = n;
    if (n === 0) this.trackedStale = true;
  }
}

/** What a snapshot keeps of {@link ActiveSelfPairs} (plain data). */
export interface ActiveSelfPairsState {
  active: SavedFront<Int32Array>;
  sides: SavedFront<Int8Array>;
  due: SavedFront<Float64Array>;
  looked: SavedFront<Uint8Array>;
  lastPass: Float64Array;
  odometer: Float64Array;
  travel: Float64Array;
  activeCount: number;
  activeIn: Int32Array;
  tracked: Int32Array;
  trackedCount: number;
  trackedStale: boolean;
  examined: number;
}
