import { particleSlot } from '../ids.js';
import { checkInteger, checkNumber } from '../math.js';
import type { World } from '../world.js';

/**
 * Hands an animated pose over to the simulation (Jakobsen, section 7: "record the
 * positions of the particles for two frames and then give them to the Verlet
 * integrator, which then automatically continues the motion").
 *
 * `previousPose` and `currentPose` are xyz-interleaved positions of particles
 * `first, first + 1, …`, recorded `dtBetweenPoses` seconds apart (default: one world
 * step, `world.timeStep`). The particles are placed at `currentPose` and their
 * previous positions are set so that their velocity is the poses' mean velocity
 * (current − previous) / dtBetweenPoses: the displacement is rescaled to the
 * world's substep, so poses sampled at 30 Hz continue at the same speed in a world
 * stepping at 600 Hz. Wakes every particle set.
 *
 * @example
 * ```ts
 * // Poses from the animation's last two frames, 1/30 s apart.
 * inheritAnimation(world, ragdoll.first, frameBefore, frameNow, 1 / 30);
 * ```
 */
export function inheritAnimation(world: World, first: number, previousPose: ArrayLike<number>, currentPose: ArrayLike<number>, dtBetweenPoses: number = world.timeStep): void {
  checkInteger(first, 'inheritAnimation: first');
  checkPose(previousPose, 'previousPose');
  checkPose(currentPose, 'currentPose');
  if (previousPose.length !== currentPose.length) {
    throw new RangeError(`inheritAnimation: previousPose and currentPose must have the same length, got ${previousPose.length} and ${currentPose.length}`);
  }
  checkNumber(dtBetweenPoses, 'inheritAnimation: dtBetweenPoses', 0);
  if (dtBetweenPoses === 0) throw new RangeError('inheritAnimation: dtBetweenPoses must be > 0, got 0');
  const count = currentPose.length / 3;
  for (let i = first; i < first + count; i++) world.checkParticle(i, `inheritAnimation: particle ${i} (first + ${i - first})`);
  const slot = particleSlot(first);
  const ratio = world.substep / dtBetweenPoses;
  const pos = world.particles.position;
  const prev = world.particles.previous;
  for (let k = 0; k < currentPose.length; k++) {
    const now = currentPose[k]!;
    pos[slot * 3 + k] = now;
    prev[slot * 3 + k] = now - (now - previousPose[k]!) * ratio;
  }
  for (let i = first; i < first + count; i++) world.wake(i);
}

function checkPose(pose: ArrayLike<number>, name: string): void {
  if (!pose || typeof pose.length !== 'number') throw new TypeError(`inheritAnimation: ${name} must be an array of numbers, got ${String(pose)}`);
  if (pose.length === 0 || pose.length % 3 !== 0) throw new RangeError(`inheritAnimation: ${name} must hold x, y, z per particle (a non-zero multiple of 3 values), got ${pose.length}`);
  for (let k = 0; k < pose.length; k++) {
    const v = pose[k];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`inheritAnimation: ${name}[${k}] must be a finite number, got ${String(v)}`);
  }
}
