/** A typed column of a table. */
export type Column = Float64Array | Int32Array | Uint32Array | Uint8Array;

/** A table's rows as a snapshot holds them: the row count, the ids and a copy of each saved column. */
export interface TableSnapshot {
  count: number;
  ids: Int32Array;
  [column: string]: number | Column | undefined;
}

/**
 * A dense table of constraints of one kind, stored column-wise in typed arrays.
 * Rows are removed by moving the last row into the hole, so solving walks a packed
 * range with no gaps. Each row remembers the public constraint id it belongs to.
 * A table saves and loads its own rows for snapshots ({@link save}, {@link load}):
 * a new column joins the snapshot by being named in {@link savedColumns}.
 */
export abstract class ConstraintTable {
  /** Rows in use. */
  count = 0;
  /** Rows the columns can hold. */
  capacity: number;
  /** Public id of the constraint in each row. */
  ids: Int32Array;
  /** Counts rows added, removed and loaded: what was built from the rows (long-range attachments) is stale when it moved. */
  changes = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.ids = new Int32Array(capacity);
  }

  /** Appends a row for constraint `id` and returns the row index. */
  protected addRow(id: number): number {
    if (this.count === this.capacity) this.growTo(this.capacity * 2);
    const row = this.count++;
    this.ids[row] = id;
    this.changes++;
    return row;
  }

  /**
   * Removes `row` by moving the last row into it. Returns the id of the row that
   * moved (so the caller can update its id-to-row map), or -1 when none moved.
   */
  removeRow(row: number): number {
    const last = --this.count;
    this.changes++;
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

  /**
   * The columns a snapshot copies, besides `ids`. None by default: a table whose
   * rows only change when the scene is edited (angle limits, capsule edges) holds
   * configuration, which a snapshot of the same scene does not restore; sticks
   * (cloth tears) and pins (IK targets) change while it runs.
   */
  protected readonly savedColumns: readonly string[] = [];
  /** Saved columns (one value per row) an older snapshot may lack: restored as zeros. */
  protected readonly optionalColumns: readonly string[] = [];

  /** A copy of the rows, for a snapshot. */
  save(): TableSnapshot {
    const snap: TableSnapshot = { count: this.count, ids: this.ids.slice() };
    for (const name of this.savedColumns) snap[name] = this.column(name).slice();
    return snap;
  }

  /** Throws, naming the part of `what` that is wrong, unless `snap` holds every column {@link load} reads. */
  checkSnapshot(snap: TableSnapshot | undefined, what: string): void {
    if (!snap || typeof snap !== 'object' || !ArrayBuffer.isView(snap.ids)) throw new TypeError(`restore: the snapshot's ${what}.ids is missing`);
    for (const name of this.savedColumns) {
      const column = snap[name];
      if (column === undefined && this.optionalColumns.includes(name)) continue;
      if (!ArrayBuffer.isView(column)) throw new TypeError(`restore: the snapshot's ${what}.${name} is ${column === undefined ? 'missing' : 'not a typed array'}`);
    }
  }

  /** Replaces the rows with copies of a snapshot's (check it first with {@link checkSnapshot}). */
  load(snap: TableSnapshot): void {
    const rows = snap.ids.length;
    for (const name of this.savedColumns) {
      const saved = snap[name] as Column | undefined;
      const current = this.column(name);
      (this as unknown as Record<string, Column>)[name] = saved ? saved.slice() : new (current.constructor as new (n: number) => Column)(rows);
    }
    this.capacity = rows;
    this.count = snap.count;
    this.changes++;
    this.ids = snap.ids.slice();
  }

  private column(name: string): Column {
    return (this as unknown as Record<string, Column>)[name]!;
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
