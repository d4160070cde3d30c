// The box arithmetic of the broad phase between bodies (bodyBroadPhase.ts): boxes
// are six numbers (min xyz, max xyz) at an offset in a Float64Array, and the
// amounts they are grown by travel in a typed array too, because a double passed
// to or returned from a call V8 does not inline is boxed.

/** Grows the box at `o` in `box` to hold the box at `q` in `from`. */
export function grow(box: Float64Array, o: number, from: Float64Array, q: number): void {
  for (let a = 0; a < 3; a++) {
    if (from[q + a]! < box[o + a]!) box[o + a] = from[q + a]!;
    if (from[q + 3 + a]! > box[o + 3 + a]!) box[o + 3 + a] = from[q + 3 + a]!;
  }
}

/** Widens the box at `q` by `by[2]` on every side. */
export function widenBox(box: Float64Array, q: number, by: Float64Array): void {
  const d = by[2]!;
  for (let a = 0; a < 3; a++) {
    box[q + a] = box[q + a]! - d;
    box[q + 3 + a] = box[q + 3 + a]! + d;
  }
}

/** Raises `most[2]` to how far the particle at `p` moved along any axis this substep. */
export function farther(pos: Float64Array, prev: Float64Array, p: number, most: Float64Array): void {
  for (let a = 0; a < 3; a++) {
    const d = pos[p + a]! - prev[p + a]!;
    if (d > most[2]!) most[2] = d;
    else if (-d > most[2]!) most[2] = -d;
  }
}

/** Grows the box at `q` to hold the point at `p` grown by `m`. */
export function corner(box: Float64Array, q: number, pos: Float64Array, p: number, m: number): void {
  for (let a = 0; a < 3; a++) {
    const x = pos[p + a]!;
    if (x - m < box[q + a]!) box[q + a] = x - m;
    if (x + m > box[q + 3 + a]!) box[q + 3 + a] = x + m;
  }
}

export function widen8(a: Uint8Array, n: number): Uint8Array {
  const b = new Uint8Array(n);
  b.set(a);
  return b;
}

export function widen32(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
