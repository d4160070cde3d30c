/**
 * A 3D vector as sinew's API accepts it: an `[x, y, z]` tuple or an `{x, y, z}` object
 * (a three.js `Vector3` qualifies).
 */
export type Vec3Like = readonly [number, number, number] | { readonly x: number; readonly y: number; readonly z: number };

/** A mutable `[x, y, z]` tuple; getters write into one when given it, so hot code allocates nothing. */
export type Vec3 = [number, number, number];

/** Reads component `i` (0, 1, 2) of a {@link Vec3Like}. */
export function component(v: Vec3Like, i: 0 | 1 | 2): number {
  if (Array.isArray(v)) return (v as readonly number[])[i] as number;
  const o = v as { x: number; y: number; z: number };
  return i === 0 ? o.x : i === 1 ? o.y : o.z;
}

/**
 * Checks that `v` is a vector of three finite numbers and returns it as a fresh tuple.
 * `what` names the argument in the error, e.g. `"addParticle: position"`.
 */
export function toVec3(v: Vec3Like | undefined, what: string): Vec3 {
  if (v === null || typeof v !== 'object') {
    throw new TypeError(`${what} must be [x, y, z] or {x, y, z}, got ${String(v)}`);
  }
  if (Array.isArray(v) && v.length !== 3) {
    throw new TypeError(`${what} must have 3 components, got ${v.length}`);
  }
  const out: Vec3 = [component(v, 0), component(v, 1), component(v, 2)];
  for (const c of out) {
    if (typeof c !== 'number' || !Number.isFinite(c)) {
      throw new RangeError(`${what} must be finite numbers, got [${out.join(', ')}]`);
    }
  }
  return out;
}

/** Checks that `o` is an options object (not null, an array or a primitive) and returns it; `what` names it in the error. */
export function checkOptions<T extends object>(o: T | undefined, what: string): T | undefined {
  if (o !== undefined && (o === null || typeof o !== 'object' || Array.isArray(o))) {
    throw new TypeError(`${what} must be an options object, got ${Array.isArray(o) ? `[${String(o)}]` : String(o)}`);
  }
  return o;
}

/** Checks that `b` is true or false (not a truthy string) and returns it; `what` names it in the error. */
export function checkBoolean(b: unknown, what: string): boolean {
  if (typeof b !== 'boolean') throw new TypeError(`${what} must be true or false, got ${typeof b === 'string' ? `'${b}'` : String(b)}`);
  return b;
}

/** Checks that `n` is a finite number within [min, max]; `what` names it in the error. */
export function checkNumber(n: unknown, what: string, min = -Infinity, max = Infinity): number {
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) {
    const range = min === -Infinity && max === Infinity ? 'a finite number' : `a finite number in [${min}, ${max}]`;
    throw new RangeError(`${what} must be ${range}, got ${String(n)}`);
  }
  return n;
}

/** Checks that `n` is an integer of at least `min`. */
export function checkInteger(n: unknown, what: string, min = 0): number {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min) {
    throw new RangeError(`${what} must be an integer >= ${min}, got ${String(n)}`);
  }
  return n;
}
