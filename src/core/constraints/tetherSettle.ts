import type { World } from '../world.js';
import type { Tethers } from './tethers.js';

/**
 * Taut tethers whose directions sum to less than this share of their number
 * pull against each other (a drum's skin, a hammock's middle): the particle
 * cannot move in any direction without stretching one of them.
 */
export const LOCKED = 0.5;

/** Most two anchors' moves in a substep may differ (m) for them to count as moving together: rounding of a carried frame's targets. */
const TOGETHER = 1e-12;
/** `Tethers.settle` over the particles `[from, to)`: only those with two taut tethers or more are looked at. */
export function settleRows(world: World, tethers: Tethers, from: number, to: number): void {
  const particles = world.particles;
  const pos = particles.position;
  const prev = particles.previous;
  const taut = tethers.taut;
  const pull = tethers.pull;
  const slot = tethers.slot;
  const anchor = tethers.slotParticle;
  const firstRow = tethers.firstRow;
  for (let i = from; i < to; i++) {
    const n = taut[i]!;
    if (n < 2) continue;
    const first = firstRow[i]!;
    const r = firstRow[i + 1]!;
    const p = i * 3;
    const sx = pull[p]!;
    const sy = pull[p + 1]!;
    const sz = pull[p + 2]!;
    if (sx * sx + sy * sy + sz * sz >= LOCKED * LOCKED * n * n) continue;
    // The anchors' common move this substep, when they have one.
    const a0 = anchor[slot[first]!]! * 3;
    const mx = pos[a0]! - prev[a0]!;
    const my = pos[a0 + 1]! - prev[a0 + 1]!;
    const mz = pos[a0 + 2]! - prev[a0 + 2]!;
    let together = true;
    for (let k = first + 1; k < r && together; k++) {
      const a = anchor[slot[k]!]! * 3;
      together = Math.abs(pos[a]! - prev[a]! - mx) <= TOGETHER && Math.abs(pos[a + 1]! - prev[a + 1]! - my) <= TOGETHER && Math.abs(pos[a + 2]! - prev[a + 2]! - mz) <= TOGETHER;
    }
    if (!together) continue;
    prev[p] = pos[p]! - mx;
    prev[p + 1] = pos[p + 1]! - my;
    prev[p + 2] = pos[p + 2]! - mz;
  }
}
