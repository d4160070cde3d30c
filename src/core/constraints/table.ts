/**
 * A dense table of constraints of one kind, stored column-wise in typed arrays.
 * Rows are removed by moving the last row into the hole, so solving walks a packed
 * range with no gaps. Each row remembers the public constraint id it belongs to.
 */
export abstract class ConstraintTable {
  /** Rows in use. */
  count = 0;
  /** Rows the columns can hold. */
  capacity: number;
  /** Public id of the constraint in each row. */
  ids: Int32Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.ids = new Int32Array(capacity);
  }

  /** Appends a row for constraint `id` and returns the row index. */
  protected addRow(id: number): number {
    if (this.count === this.capacity) this.growTo(this.capacity * 2);
    const row = this.count++;
    this.ids[row] = id;
    return row;
  }

  /**
   * Removes `row` by moving the last row into it. Returns the id of the row that
   * moved (so the caller can update its id-to-row map), or -1 when none moved.
   */
  removeRow(row: number): number {
    const last = --this.count;
    if (row === last) return -1;
    this.copyRow(last, row);
    this.ids[row] = this.ids[last]!;
    return this.ids[row]!;
  }

  private growTo(capacity: number): void {
    this.ids = widen(this.ids, capacity);
    this.growColumns(capacity);
    this.capacity = capacity;
  }

  /** Replace every column with a copy of `capacity` rows (use {@link widen}). */
  protected abstract growColumns(capacity: number): void;
  /** Copy every column's row `from` onto row `to`. */
  protected abstract copyRow(from: number, to: number): void;
}

/** A copy of `old` with room for `rows` rows of `perRow` values. */
export function widen<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(old: T, rows: number, perRow = 1): T {
  const next = new (old.constructor as new (n: number) => T)(rows * perRow);
  next.set(old.subarray(0, Math.min(old.length, rows * perRow)));
  return next;
}
