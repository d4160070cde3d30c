import { particleSlot } from './ids.js';
import type { BodyRecord } from './bodies/body.js';
import { ParticleFlag, type ParticleStore } from './particles.js';

// The particle scans sleeping decides with: has a body come to rest (`resting`,
// `drifted`), is a particle on the move (`moving`), where are the awake
// particles (`boxAwake`), was a sleeper pushed (`pushed`). Limits and boxes come
// in a Float64Array, not as numbers: a double argument to a call V8 does not
// inline is boxed, an allocation per step.

/** True when the particle at position offset `p` moved more than √limit[0] in the latest substep. */
export function moving(particles: ParticleStore, p: number, limit: Float64Array): boolean {
  const pos = particles.position;
  const prev = particles.previous;
  const dx = pos[p]! - prev[p]!;
  const dy = pos[p + 1]! - prev[p + 1]!;
  const dz = pos[p + 2]! - prev[p + 2]!;
  return dx * dx + dy * dy + dz * dz > limit[0]!;
}

/**
 * True when a particle of `[from, to)` is farther than √limit[7] from where its
 * rest period began. On the way it writes the particles' bounds, grown by their
 * radii, into `bounds[o..o+5]`: a body falls asleep right after a full check.
 */
export function drifted(particles: ParticleStore, from: number, to: number, anchor: Float64Array, limit: Float64Array, bounds: Float64Array, o: number): boolean {
  const pos = particles.position;
  const radius = particles.radius;
  const max = limit[7]!;
  let x0 = Infinity;
  let y0 = Infinity;
  let z0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let z1 = -Infinity;
  for (let i = from, p = from * 3; i < to; i++, p += 3) {
    const x = pos[p]!;
    const y = pos[p + 1]!;
    const z = pos[p + 2]!;
    const dx = x - anchor[p]!;
    const dy = y - anchor[p + 1]!;
    const dz = z - anchor[p + 2]!;
    if (dx * dx + dy * dy + dz * dz > max) return true;
    const r = radius[i]!;
    if (x - r < x0) x0 = x - r;
    if (x + r > x1) x1 = x + r;
    if (y - r < y0) y0 = y - r;
    if (y + r > y1) y1 = y + r;
    if (z - r < z0) z0 = z - r;
    if (z + r > z1) z1 = z + r;
  }
  bounds[o] = x0;
  bounds[o + 1] = y0;
  bounds[o + 2] = z0;
  bounds[o + 3] = x1;
  bounds[o + 4] = y1;
  bounds[o + 5] = z1;
  return false;
}

/** True when every particle of `[from, to)` moved less than √limit[0] in the latest substep. */
export function resting(particles: ParticleStore, from: number, to: number, limit: Float64Array): boolean {
  const pos = particles.position;
  const max = limit[0]!;
  const prev = particles.previous;
  for (let p = from * 3; p < to * 3; p += 3) {
    const dx = pos[p]! - prev[p]!;
    const dy = pos[p + 1]! - prev[p + 1]!;
    const dz = pos[p + 2]! - prev[p + 2]!;
    if (dx * dx + dy * dy + dz * dz > max) return false;
  }
  return true;
}

/**
 * Writes the bounds of the live awake particles of `[from, to)` (only loose ones
 * unless `inBody`), grown by their radii, into `out[1..6]`; false when there are none.
 */
export function boxAwake(particles: ParticleStore, from: number, to: number, inBody: boolean, out: Float64Array): boolean {
  const pos = particles.position;
  let x0 = Infinity;
  let y0 = Infinity;
  let z0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let z1 = -Infinity;
  for (let i = from; i < to; i++) {
    if ((particles.flags[i]! & (ParticleFlag.Alive | ParticleFlag.Asleep)) !== ParticleFlag.Alive) continue;
    if (!inBody && particles.body[i]! >= 0) continue;
    const r = particles.radius[i]!;
    const p = i * 3;
    if (pos[p]! - r < x0) x0 = pos[p]! - r;
    if (pos[p]! + r > x1) x1 = pos[p]! + r;
    if (pos[p + 1]! - r < y0) y0 = pos[p + 1]! - r;
    if (pos[p + 1]! + r > y1) y1 = pos[p + 1]! + r;
    if (pos[p + 2]! - r < z0) z0 = pos[p + 2]! - r;
    if (pos[p + 2]! + r > z1) z1 = pos[p + 2]! + r;
  }
  out[1] = x0;
  out[2] = y0;
  out[3] = z0;
  out[4] = x1;
  out[5] = y1;
  out[6] = z1;
  return x0 <= x1;
}

/** True when a force was applied to a particle of the body since the last step. */
export function pushed(particles: ParticleStore, body: BodyRecord): boolean {
  const force = particles.force;
  for (let p = particleSlot(body.first) * 3; p < (particleSlot(body.first) + body.count) * 3; p++) if (force[p] !== 0) return true;
  return false;
}
