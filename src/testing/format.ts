/**
 * A number as the helpers' messages print it: three significant digits
 * (`0.423`, `1.5e-7`), or `NaN` / `Infinity` as they are.
 *
 * @example
 * ```ts
 * format(0.123456); // '0.123'
 * ```
 */
export function format(n: number): string {
  return Number.isFinite(n) ? String(Number(n.toPrecision(3))) : String(n);
}
