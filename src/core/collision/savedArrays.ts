/** The typed arrays whose used front a snapshot keeps. */
type Typed = Int32Array | Float64Array | Uint8Array | Int8Array;

/** The kind of array {@link restoreFront} makes for a saved `T` (one on its own buffer). */
type Fresh<T extends Typed> = T extends Int32Array
  ? Int32Array<ArrayBuffer>
  : T extends Float64Array
    ? Float64Array<ArrayBuffer>
    : T extends Uint8Array
      ? Uint8Array<ArrayBuffer>
      : Int8Array<ArrayBuffer>;

/**
 * A growable typed array as a snapshot keeps it: a copy of its used front and its
 * length. {@link restoreFront} gives back an array as long, so that a restored
 * run grows its arrays when the original did, without the snapshot carrying
 * the room a busy moment left behind (a flung cloth's pair lists reach tens of
 * megabytes).
 */
export interface SavedFront<T extends Typed> {
  /** The array's length when saved. */
  length: number;
  /** A copy of its first elements, those in use. */
  front: T;
}

/** Keeps `array`'s first `used` elements and its length. */
export function keepFront<T extends Typed>(array: T, used: number): SavedFront<T> {
  return { length: array.length, front: array.slice(0, used) as T };
}

/** A new array as long as the one saved, its front as saved and the rest zero. */
export function restoreFront<T extends Typed>(saved: SavedFront<T>): Fresh<T> {
  const out = new (saved.front.constructor as new (length: number) => Fresh<T>)(saved.length);
  out.set(saved.front as never);
  return out;
}
