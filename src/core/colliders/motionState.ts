/**
 * Packs a part's motion state for a snapshot: its `columns` one after another,
 * then its `scalars`, in one array (plain data that survives `structuredClone`).
 * {@link unpackState} reads it back into the same columns.
 */
export function packState(columns: readonly Float64Array[], scalars: readonly number[]): Float64Array {
  let size = scalars.length;
  for (const column of columns) size += column.length;
  const out = new Float64Array(size);
  let at = 0;
  for (const column of columns) {
    out.set(column, at);
    at += column.length;
  }
  out.set(scalars, at);
  return out;
}

/**
 * Copies what {@link packState} made back into `columns` and returns the
 * scalars after them; undefined `data` (a snapshot taken before the part
 * existed) changes nothing and returns undefined. Throws, naming `what`, when
 * `data` is not such an array of the right length.
 */
export function unpackState(data: unknown, columns: readonly Float64Array[], scalarCount: number, what: string): Float64Array | undefined {
  if (data === undefined) return undefined;
  let size = scalarCount;
  for (const column of columns) size += column.length;
  if (!(data instanceof Float64Array) || data.length !== size) {
    throw new TypeError(`restore: the snapshot's ${what} state must be a Float64Array of ${size} numbers, got ${data instanceof Float64Array ? `${data.length} numbers` : String(data)}`);
  }
  let at = 0;
  for (const column of columns) {
    column.set(data.subarray(at, at + column.length));
    at += column.length;
  }
  return data.subarray(at);
}
