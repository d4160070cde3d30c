/** Small 3-vector helpers for tests, on plain arrays (the engine's are in src/core/math.ts, on tuples). */
export type V = readonly number[];
export const sub = (a: V, b: V) => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];
export const add = (a: V, b: V) => [a[0]! + b[0]!, a[1]! + b[1]!, a[2]! + b[2]!];
export const scale = (a: V, k: number) => a.map((x) => x * k);
export const dot = (a: V, b: V) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
export const cross = (a: V, b: V) => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
export const norm = (a: V) => Math.hypot(a[0]!, a[1]!, a[2]!);
export const unit = (a: V) => scale(a, 1 / norm(a));
