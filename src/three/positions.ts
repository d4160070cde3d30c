import { MAX_PARTICLES, particleSlot } from '../core/ids.js';
import type { Vector3 } from 'three';
import type { World } from '../core/world.js';

/**
 * How far between the last two steps to draw: `alpha` 0 is the start of the
 * latest step, 1 its end (the current positions). The store's `frame` object
 * is one. An object rather than a number: a double passed to a call V8 does
 * not inline is boxed, an allocation per call in the per-frame read-back,
 * while reading it from an object field inside the callee is free.
 */
export interface Blend {
  /** Blend factor in [0, 1]: 0 draws the start of the latest step, 1 the current positions. */
  readonly alpha: number;
}

/** Current positions, no blending: `{ alpha: 1 }`. */
export const CURRENT: Blend = { alpha: 1 };

/**
 * Writes particles `[first, first + count)` into `target` (xyz interleaved from
 * `offset`), blended by `blend.alpha` between the positions at the start of the
 * latest step and the current ones. Alpha 1 copies the current positions exactly.
 * A body's particles are contiguous, so this is one pass over one range: the
 * core keeps Float64Array positions and a geometry wants Float32, so a copy is
 * needed anyway and the blend rides along for free. Allocates nothing.
 *
 * @example
 * ```ts
 * readRange(world, cloth.first, cloth.count, world, geometry.attributes.position.array as Float32Array); // the world has `alpha` too
 * ```
 */
export function readRange(world: World, first: number, count: number, blend: Blend, target: Float32Array | Float64Array | number[], offset = 0): void {
  const alpha = blend.alpha;
  const p = world.positions;
  const start = particleSlot(first) * 3;
  const n = count * 3;
  if (alpha >= 1) {
    for (let i = 0; i < n; i++) target[offset + i] = p[start + i]!;
    return;
  }
  const s = world.stepStartPositions;
  for (let i = 0; i < n; i++) {
    const a = s[start + i]!;
    target[offset + i] = a + (p[start + i]! - a) * alpha;
  }
}

/**
 * Position of particle `id` blended by `blend.alpha` (see {@link readRange}), written
 * into `out`. Does not check `id`: callers hold live ids.
 *
 * @example
 * ```ts
 * readPosition(world, hand.id, frame, group.position);
 * ```
 */
export function readPosition(world: World, id: number, blend: Blend, out: Vector3): Vector3 {
  const alpha = blend.alpha;
  const p = world.positions;
  // The columns are indexed by slot, an id's low bits (`particleSlot`, written out: one call more and V8 no
  // longer inlines this into a frame's read-back, and the doubles it hands `out.set` are boxed).
  const k = (id & (MAX_PARTICLES - 1)) * 3;
  if (alpha >= 1) return out.set(p[k]!, p[k + 1]!, p[k + 2]!);
  const s = world.stepStartPositions;
  return out.set(s[k]! + (p[k]! - s[k]!) * alpha, s[k + 1]! + (p[k + 1]! - s[k + 1]!) * alpha, s[k + 2]! + (p[k + 2]! - s[k + 2]!) * alpha);
}

/**
 * Copies the current positions of `[first, first + count)` into
 * `world.stepStartPositions`. Call it after adding particles between steps:
 * the core fills that array only when it steps, so a new particle would
 * otherwise be drawn blended from wherever its slot was before.
 *
 * @example
 * ```ts
 * const first = world.addParticles(list);
 * settleRange(world, first, list.length);
 * ```
 */
export function settleRange(world: World, first: number, count: number): void {
  const p = world.positions;
  const s = world.stepStartPositions;
  for (let i = particleSlot(first) * 3; i < (particleSlot(first) + count) * 3; i++) s[i] = p[i]!;
}
