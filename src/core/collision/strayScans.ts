import { ParticleFlag, type ParticleStore } from '../particles.js';

/**
 * The scans over a body behind `SelfContactList.findStrays`. Each is a loop
 * with nothing after it but its return, and writes what it finds into a typed
 * array after each block of particles. V8 compiles a long loop while it runs
 * (on-stack replacement) from the feedback gathered so far; an operation after
 * the loop that had not run when that compile began made the compiled loop
 * bail out at its end on nearly every later call (the draped cloth: about a
 * thousand bail-outs in 300 steps, the scan taking twice as long). For the
 * same reason every branch in the loops runs on ties too (`>=`), so that a
 * body at rest takes each branch on its first call.
 */

/** Particles a scan takes between two writes of what it found. */
const BLOCK = 256;

/** What {@link boxMoves} writes: the box of every live particle's place less its listed one (m). */
export const enum Box {
  LowX,
  LowY,
  LowZ,
  HighX,
  HighY,
  HighZ,
  Size,
}

/** What {@link sumBody} writes: the sums of the live particles' positions and of their moves this substep (m). */
export const enum Sums {
  X,
  Y,
  Z,
  MoveX,
  MoveY,
  MoveZ,
  Size,
}

/** What {@link gatherStrays} writes: the largest and the next largest squared move since listing, and the largest squared move this substep relative to the body's mean move (m²). */
export const enum Farthest {
  Most,
  Next,
  Step,
  Size,
}

/**
 * The box of `pos − at` (`at` per body-relative particle, xyz) over the live
 * particles of slots `[first, first + count)`, into `box` (see {@link Box});
 * returns how many are live. Two particles have closed on each other since
 * they were listed by at most its diagonal. Allocates nothing.
 */
export function boxMoves(particles: ParticleStore, first: number, count: number, at: Float64Array, box: Float64Array): number {
  const pos = particles.position;
  const flags = particles.flags;
  let lx = Infinity;
  let ly = Infinity;
  let lz = Infinity;
  let hx = -Infinity;
  let hy = -Infinity;
  let hz = -Infinity;
  let live = 0;
  for (let start = 0; start < count; start += BLOCK) {
    const end = start + BLOCK < count ? start + BLOCK : count;
    for (let k = start; k < end; k++) {
      const o = (first + k) * 3;
      if ((flags[first + k]! & ParticleFlag.Alive) === 0) continue;
      const ox = pos[o]! - at[k * 3]!;
      const oy = pos[o + 1]! - at[k * 3 + 1]!;
      const oz = pos[o + 2]! - at[k * 3 + 2]!;
      if (ox < lx) lx = ox;
      if (ox > hx) hx = ox;
      if (oy < ly) ly = oy;
      if (oy > hy) hy = oy;
      if (oz < lz) lz = oz;
      if (oz > hz) hz = oz;
      live++;
    }
    box[Box.LowX] = lx;
    box[Box.LowY] = ly;
    box[Box.LowZ] = lz;
    box[Box.HighX] = hx;
    box[Box.HighY] = hy;
    box[Box.HighZ] = hz;
  }
  return live;
}

/** Sums the positions and the moves this substep of the live particles of slots `[first, first + count)` into `sums` (see {@link Sums}); returns how many are live. Allocates nothing. */
export function sumBody(particles: ParticleStore, first: number, count: number, sums: Float64Array): number {
  const pos = particles.position;
  const prev = particles.previous;
  const flags = particles.flags;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let mx = 0;
  let my = 0;
  let mz = 0;
  let live = 0;
  for (let start = 0; start < count; start += BLOCK) {
    const end = start + BLOCK < count ? start + BLOCK : count;
    for (let k = start; k < end; k++) {
      const o = (first + k) * 3;
      if ((flags[first + k]! & ParticleFlag.Alive) === 0) continue;
      live++;
      sx += pos[o]!;
      sy += pos[o + 1]!;
      sz += pos[o + 2]!;
      mx += pos[o]! - prev[o]!;
      my += pos[o + 1]! - prev[o + 1]!;
      mz += pos[o + 2]! - prev[o + 2]!;
    }
    sums[Sums.X] = sx;
    sums[Sums.Y] = sy;
    sums[Sums.Z] = sz;
    sums[Sums.MoveX] = mx;
    sums[Sums.MoveY] = my;
    sums[Sums.MoveZ] = mz;
  }
  return live;
}

/**
 * Over the live particles of slots `[first, first + count)`: each one's move
 * since it was listed, `pos − centre − at` (`centre` xyz), and, `withMoves`,
 * its move this substep less the body's mean move (`meanMove[0..3)`); the
 * largest of these into `farthest` (see {@link Farthest}). Those that moved
 * farther than `√meanMove[3]` are gathered into `strays` (slots) and marked in `strayed`
 * (body-relative); returns how many. Allocates nothing.
 */
export function gatherStrays(
  particles: ParticleStore,
  first: number,
  count: number,
  at: Float64Array,
  centre: Float64Array,
  meanMove: Float64Array,
  withMoves: boolean,
  strays: Int32Array,
  strayed: Uint8Array,
  farthest: Float64Array,
): number {
  const pos = particles.position;
  const prev = particles.previous;
  const flags = particles.flags;
  const cx = centre[0]!;
  const cy = centre[1]!;
  const cz = centre[2]!;
  const mx = meanMove[0]!;
  const my = meanMove[1]!;
  const mz = meanMove[2]!;
  const far = meanMove[3]!;
  let most = 0;
  let next = 0;
  let step = 0;
  let n = 0;
  for (let start = 0; start < count; start += BLOCK) {
    const end = start + BLOCK < count ? start + BLOCK : count;
    for (let k = start; k < end; k++) {
      const i = first + k;
      if ((flags[i]! & ParticleFlag.Alive) === 0) continue;
      if (withMoves) {
        const ux = pos[i * 3]! - prev[i * 3]! - mx;
        const uy = pos[i * 3 + 1]! - prev[i * 3 + 1]! - my;
        const uz = pos[i * 3 + 2]! - prev[i * 3 + 2]! - mz;
        const u2 = ux * ux + uy * uy + uz * uz;
        if (u2 >= step) step = u2;
      }
      const dx = pos[i * 3]! - cx - at[k * 3]!;
      const dy = pos[i * 3 + 1]! - cy - at[k * 3 + 1]!;
      const dz = pos[i * 3 + 2]! - cz - at[k * 3 + 2]!;
      const moved2 = dx * dx + dy * dy + dz * dz;
      if (moved2 > far) {
        strays[n++] = i;
        strayed[k] = 1;
      }
      if (moved2 < next) continue;
      if (moved2 >= most) {
        next = most;
        most = moved2;
      } else next = moved2;
    }
    farthest[Farthest.Most] = most;
    farthest[Farthest.Next] = next;
    farthest[Farthest.Step] = step;
  }
  return n;
}
