import { keepFront, restoreFront, type SavedFront } from './savedArrays.js';

/**
 * The pairs a self-contact search (`SelfContactSearch`) listed, indexed by
 * particle: particle–triangle pairs, particle–particle pairs, and apart from them
 * the particle–triangle pairs whose particle a stick joins to a corner (see
 * {@link ListedSelfPairs.neighbourPairs}). A local search drops the pairs of
 * the particles it searches again in place and adds their new ones at the end,
 * indexed under each of their particles too; the lists are packed again once
 * the dropped outnumber the rest. Allocates only when more pairs are listed
 * than ever before.
 */
export class ListedSelfPairs {
  /**
   * Listed pairs, but for {@link ListedSelfPairs.neighbourPairs}: particle, then triangle's three
   * corners and the triangle's index (a particle pair has -1 -1 -1 after the second particle). A
   * pair a local search dropped stays in place with particle -1, so that the numbers of the others
   * hold, until so many are dropped that the lists are packed again.
   */
  pairs = new Int32Array(80);
  pairCount = 0;
  /**
   * Listed particle–triangle pairs whose particle a stick joins to a corner: the particle, the
   * triangle's three corners and index, particle by particle (those of the body's particle
   * first + k from {@link ListedSelfPairs.neighbourStart}[k] to [k + 1]), then those local
   * searches added since, up to `neighbourCount`, in no order. Kept apart because they count
   * only where the sheet bends, and most of a sheet is flat: three in four pairs of a draped 64²
   * cloth at rest, each of them read every step while they were in one list. Dropped ones as
   * in `pairs`.
   */
  neighbourPairs = new Int32Array(80);
  readonly neighbourStart: Int32Array;
  neighbourCount = 0;
  /** Where the neighbour pairs local searches added begin. */
  neighbourRowsEnd = 0;
  /** Pairs dropped in place since the lists were last packed. */
  dropped = 0;
  /**
   * Per particle of the body (first + k), the listed pairs it is in, as the particle or a
   * corner, as the lists were last packed: touching[touchStart[k] .. touchStart[k + 1]), a pair
   * of `pairs` by its index k, one of `neighbourPairs` by ~k (-1 - k); then, from `alsoStart[k]`
   * through `alsoNext`, those added since (`alsoPair`, numbered alike). Some may have been
   * dropped since.
   */
  touching = new Int32Array(0);
  readonly touchStart: Int32Array;
  private readonly touchCursor: Int32Array;
  readonly alsoStart: Int32Array;
  alsoNext = new Int32Array(64);
  alsoPair = new Int32Array(64);
  private alsoCount = 0;
  /** While a local search lists pairs: they are added to `alsoStart` too. */
  adding = false;

  /** @param first,count the particle range of the body. */
  constructor(
    private readonly first: number,
    private readonly count: number,
  ) {
    this.neighbourStart = new Int32Array(count + 1);
    this.touchStart = new Int32Array(count + 1);
    this.touchCursor = new Int32Array(count);
    this.alsoStart = new Int32Array(count).fill(-1);
  }

  /** Pairs listed (particle–triangle and particle–particle). */
  get candidates(): number {
    return this.pairCount + this.neighbourCount - this.dropped;
  }

  /** The lists and their index, for snapshots: plain data (copies). */
  saveState(): ListedSelfPairsState {
    return {
      pairs: keepFront(this.pairs, this.pairCount * 5),
      pairCount: this.pairCount,
      neighbourPairs: keepFront(this.neighbourPairs, this.neighbourCount * 5),
      neighbourStart: this.neighbourStart.slice(),
      neighbourCount: this.neighbourCount,
      neighbourRowsEnd: this.neighbourRowsEnd,
      dropped: this.dropped,
      touching: keepFront(this.touching, this.touchStart[this.count]!),
      touchStart: this.touchStart.slice(),
      alsoStart: this.alsoStart.slice(),
      alsoNext: keepFront(this.alsoNext, this.alsoCount),
      alsoPair: keepFront(this.alsoPair, this.alsoCount),
      alsoCount: this.alsoCount,
    };
  }

  /** Returns to {@link ListedSelfPairs.saveState}'s copy (copied again). */
  loadState(state: ListedSelfPairsState): void {
    this.pairs = restoreFront(state.pairs);
    this.pairCount = state.pairCount;
    this.neighbourPairs = restoreFront(state.neighbourPairs);
    this.neighbourStart.set(state.neighbourStart);
    this.neighbourCount = state.neighbourCount;
    this.neighbourRowsEnd = state.neighbourRowsEnd;
    this.dropped = state.dropped;
    this.touching = restoreFront(state.touching);
    this.touchStart.set(state.touchStart);
    this.alsoStart.set(state.alsoStart);
    this.alsoNext = restoreFront(state.alsoNext);
    this.alsoPair = restoreFront(state.alsoPair);
    this.alsoCount = state.alsoCount;
  }

  /** Empties the lists, for a whole search. */
  clear(): void {
    this.pairCount = 0;
    this.neighbourCount = 0;
    this.neighbourRowsEnd = 0;
    this.dropped = 0;
    this.forgetAdded();
    this.neighbourStart.fill(0);
    this.touchStart.fill(0);
  }

  /** Packs the lists once the dropped pairs outnumber the rest (after a local search). */
  packIfSparse(): void {
    if (this.dropped > this.pairCount + this.neighbourCount - this.dropped) this.pack();
  }

  /** Drops in place every listed pair particle `k` (body-relative) is in. */
  dropTouching(k: number): void {
    const touching = this.touching;
    for (let e = this.touchStart[k]!; e < this.touchStart[k + 1]!; e++) this.drop(touching[e]!);
    for (let e = this.alsoStart[k]!; e >= 0; e = this.alsoNext[e]!) this.drop(this.alsoPair[e]!);
  }

  /** Drops listed pair `id` (numbered as in `touching`) in place, unless it is already. */
  private drop(id: number): void {
    const list = id >= 0 ? this.pairs : this.neighbourPairs;
    const o = (id >= 0 ? id : ~id) * 5;
    if (list[o]! < 0) return;
    list[o] = -1;
    this.dropped++;
  }

  /** Lists pair `id` (numbered as in `touching`) under particle `i` in the pairs added since the lists were packed. */
  private addTouching(i: number, id: number): void {
    const e = this.alsoCount++;
    if (e === this.alsoPair.length) {
      const pair = new Int32Array(e * 2);
      pair.set(this.alsoPair);
      this.alsoPair = pair;
      const next = new Int32Array(e * 2);
      next.set(this.alsoNext);
      this.alsoNext = next;
    }
    const k = i - this.first;
    this.alsoPair[e] = id;
    this.alsoNext[e] = this.alsoStart[k]!;
    this.alsoStart[k] = e;
  }

  /** Empties the pairs added since the lists were packed (`alsoStart`). */
  forgetAdded(): void {
    this.alsoStart.fill(-1);
    this.alsoCount = 0;
  }

  /** Packs the lists: drops the dropped pairs for good, sorts the neighbour pairs into rows again and indexes them all afresh. */
  pack(): void {
    this.dropListed();
    this.sortNeighbourRows();
    this.neighbourRowsEnd = this.neighbourCount;
    this.dropped = 0;
    this.forgetAdded();
    this.indexTouching();
  }

  /** Removes the dropped pairs from the lists, keeping the others' order. */
  private dropListed(): void {
    for (let pass = 0; pass < 2; pass++) {
      const list = pass === 0 ? this.pairs : this.neighbourPairs;
      const count = pass === 0 ? this.pairCount : this.neighbourCount;
      let kept = 0;
      for (let k = 0; k < count; k++) {
        const o = k * 5;
        if (list[o]! < 0) continue;
        if (kept !== k) for (let v = 0; v < 5; v++) list[kept * 5 + v] = list[o + v]!;
        kept++;
      }
      if (pass === 0) this.pairCount = kept;
      else this.neighbourCount = kept;
    }
  }

  /** Sorts the neighbour pairs back into rows by particle (new ones were added at the end). */
  private sortNeighbourRows(): void {
    const first = this.first;
    const start = this.neighbourStart;
    const nearby = this.neighbourPairs;
    const count = this.neighbourCount;
    start.fill(0);
    for (let e = 0; e < count; e++) {
      const q = nearby[e * 5]! - first + 1;
      start[q] = start[q]! + 1;
    }
    for (let k = 0; k < this.count; k++) start[k + 1] = start[k + 1]! + start[k]!;
    // Into the spare half of a buffer twice the size, then back.
    if (this.neighbourPairs.length < count * 10) {
      const grown = new Int32Array(count * 10);
      grown.set(nearby.subarray(0, count * 5));
      this.neighbourPairs = grown;
    }
    const rows = this.neighbourPairs;
    const cursor = this.touchCursor;
    for (let k = 0; k < this.count; k++) cursor[k] = start[k]!;
    const spare = count * 5;
    for (let e = 0; e < count; e++) {
      const q = rows[e * 5]! - first;
      const to = spare + cursor[q]! * 5;
      for (let v = 0; v < 5; v++) rows[to + v] = rows[e * 5 + v]!;
      cursor[q] = cursor[q]! + 1;
    }
    rows.copyWithin(0, spare, spare + count * 5);
  }

  /**
   * Lists, per particle of the body, the listed pairs it is in (as the particle or a corner):
   * {@link ListedSelfPairs.touching}. Allocates only when the lists are longer than ever.
   */
  indexTouching(): void {
    const first = this.first;
    const start = this.touchStart;
    start.fill(0);
    const pairs = this.pairs;
    const nearby = this.neighbourPairs;
    // Counts (shifted by one), then where each particle's entries start, then the entries.
    for (let k = 0; k < this.pairCount; k++) {
      const width = pairs[k * 5 + 4]! < 0 ? 2 : 4;
      for (let v = 0; v < width; v++) {
        const q = pairs[k * 5 + v]! - first + 1;
        start[q] = start[q]! + 1;
      }
    }
    for (let e = 0; e < this.neighbourCount; e++) {
      for (let v = 0; v < 4; v++) {
        const q = nearby[e * 5 + v]! - first + 1;
        start[q] = start[q]! + 1;
      }
    }
    for (let k = 0; k < this.count; k++) start[k + 1] = start[k + 1]! + start[k]!;
    const total = start[this.count]!;
    if (this.touching.length < total) this.touching = new Int32Array(total * 2);
    const touching = this.touching;
    const cursor = this.touchCursor;
    for (let k = 0; k < this.count; k++) cursor[k] = start[k]!;
    for (let k = 0; k < this.pairCount; k++) {
      const width = pairs[k * 5 + 4]! < 0 ? 2 : 4;
      for (let v = 0; v < width; v++) {
        const q = pairs[k * 5 + v]! - first;
        touching[cursor[q]!] = k;
        cursor[q] = cursor[q]! + 1;
      }
    }
    for (let e = 0; e < this.neighbourCount; e++) {
      for (let v = 0; v < 4; v++) {
        const q = nearby[e * 5 + v]! - first;
        touching[cursor[q]!] = ~e;
        cursor[q] = cursor[q]! + 1;
      }
    }
  }

  addPair(i: number, a: number, b: number, c: number, t: number): void {
    const k = this.pairCount++;
    if (k * 5 + 5 > this.pairs.length) {
      const grown = new Int32Array(this.pairs.length * 2);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[k * 5] = i;
    this.pairs[k * 5 + 1] = a;
    this.pairs[k * 5 + 2] = b;
    this.pairs[k * 5 + 3] = c;
    this.pairs[k * 5 + 4] = t;
    if (this.adding) {
      this.addTouching(i, k);
      this.addTouching(a, k);
      if (t >= 0) {
        this.addTouching(b, k);
        this.addTouching(c, k);
      }
    }
  }

  addNeighbourPair(i: number, a: number, b: number, c: number, t: number): void {
    const k = this.neighbourCount++;
    if (k * 5 + 5 > this.neighbourPairs.length) {
      const grown = new Int32Array(this.neighbourPairs.length * 2);
      grown.set(this.neighbourPairs);
      this.neighbourPairs = grown;
    }
    this.neighbourPairs[k * 5] = i;
    this.neighbourPairs[k * 5 + 1] = a;
    this.neighbourPairs[k * 5 + 2] = b;
    this.neighbourPairs[k * 5 + 3] = c;
    this.neighbourPairs[k * 5 + 4] = t;
    if (this.adding) {
      this.addTouching(i, ~k);
      this.addTouching(a, ~k);
      this.addTouching(b, ~k);
      this.addTouching(c, ~k);
    }
  }
}

/** What a snapshot keeps of {@link ListedSelfPairs} (plain data). */
export interface ListedSelfPairsState {
  pairs: SavedFront<Int32Array>;
  pairCount: number;
  neighbourPairs: SavedFront<Int32Array>;
  neighbourStart: Int32Array;
  neighbourCount: number;
  neighbourRowsEnd: number;
  dropped: number;
  touching: SavedFront<Int32Array>;
  touchStart: Int32Array;
  alsoStart: Int32Array;
  alsoNext: SavedFront<Int32Array>;
  alsoPair: SavedFront<Int32Array>;
  alsoCount: number;
}
