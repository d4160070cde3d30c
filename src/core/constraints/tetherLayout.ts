import { particleSlot } from '../ids.js';
import type { World } from '../world.js';

/**
 * How far (as a share of their distance in the rest layout) a flat body's
 * anchors may be held from where its layout puts them, relative to each
 * other, for straight distances to bound its tethers.
 */
const HELD_AS_LAID_OUT = 0.01;

/**
 * Marks in `flat` (one entry per body slot, `world.bodies`) the bodies with a
 * flat rest layout whose anchors are held as that layout places them: every
 * anchor as far from the body's first anchor as in the layout, within
 * {@link HELD_AS_LAID_OUT}. Only there does a tether take the straight
 * distance of the layout. Anchors held closer together (a curtain gathered on
 * hooks 0.18 m apart where its cloth spans 0.24 m) make the cloth fold, which a
 * grid does by bending its rows; bound by straight distances, the curtain's
 * sticks beside its hooks were held 29% long at rest, by path lengths 3%.
 *
 * `sources` lists the anchors (`count` of them), `pinOf` each particle's rigid
 * pin row (-1: none; a pinned anchor is held at its pin's target). `firstOf`
 * is scratch of the same length as `flat`. Allocates nothing.
 */
export function markBodiesHeldAsLaidOut(world: World, sources: Int32Array, count: number, pinOf: Int32Array, flat: Uint8Array, firstOf: Int32Array): void {
  const bodies = world.bodies;
  flat.fill(0, 0, bodies.length);
  firstOf.fill(-1, 0, bodies.length);
  const body = world.particles.body;
  for (let k = 0; k < count; k++) {
    const i = sources[k]!;
    const b = body[i]!;
    if (b < 0 || b >= bodies.length) continue;
    const record = bodies[b]!;
    const layout = record.restLayout;
    if (layout === undefined) continue;
    const first = firstOf[b]!;
    if (first < 0) {
      firstOf[b] = i;
      flat[b] = 1;
      continue;
    }
    if (flat[b] === 0) continue;
    const f = (first - particleSlot(record.first)) * 3;
    const j = (i - particleSlot(record.first)) * 3;
    const laid = Math.hypot(layout[f]! - layout[j]!, layout[f + 1]! - layout[j + 1]!, layout[f + 2]! - layout[j + 2]!);
    const held = heldDistance(world, first, i, pinOf);
    if (Math.abs(held - laid) > HELD_AS_LAID_OUT * laid) flat[b] = 0;
  }
}

/** Distance (m) between anchors `a` and `b` where they are held: a rigid pin's target, else where they are. */
function heldDistance(world: World, a: number, b: number, pinOf: Int32Array): number {
  const pos = world.particles.position;
  const target = world.pins.target;
  const pa = pinOf[a]!;
  const pb = pinOf[b]!;
  const from = pa >= 0 ? target : pos;
  const to = pb >= 0 ? target : pos;
  const ka = (pa >= 0 ? pa : a) * 3;
  const kb = (pb >= 0 ? pb : b) * 3;
  return Math.hypot(from[ka]! - to[kb]!, from[ka + 1]! - to[kb + 1]!, from[ka + 2]! - to[kb + 2]!);
}
