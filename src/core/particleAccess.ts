import { ParticleFlag } from './particles.js';
import { toVec3, type Vec3, type Vec3Like } from './math.js';
import type { World } from './world.js';
import { inverseMassOf } from './worldOptions.js';

// Reading and writing one particle's state with the course notes' formulas: the
// bodies of World's particle methods, which stay there as the public API.

/** Position of particle `id`, written into `out` when given. */
export function getPosition(world: World, id: number, out: Vec3 = [0, 0, 0]): Vec3 {
  world.checkParticle(id, 'getPosition: id');
  const p = world.particles.position;
  out[0] = p[id * 3]!;
  out[1] = p[id * 3 + 1]!;
  out[2] = p[id * 3 + 2]!;
  return out;
}

/** Position of particle `id` blended between the last two steps by `alpha`, for rendering. */
export function getInterpolatedPosition(world: World, id: number, out: Vec3 = [0, 0, 0]): Vec3 {
  world.checkParticle(id, 'getInterpolatedPosition: id');
  const p = world.particles.position;
  const s = world.stepStartPositions;
  for (let k = 0; k < 3; k++) out[k] = s[id * 3 + k]! + (p[id * 3 + k]! - s[id * 3 + k]!) * world.alpha;
  return out;
}

/** Velocity of particle `id`: (x - x*) / h, the mean over the latest substep h. */
export function getVelocity(world: World, id: number, out: Vec3 = [0, 0, 0]): Vec3 {
  world.checkParticle(id, 'getVelocity: id');
  const p = world.particles.position;
  const q = world.particles.previous;
  const h = world.substep;
  for (let k = 0; k < 3; k++) out[k] = (p[id * 3 + k]! - q[id * 3 + k]!) / h;
  return out;
}

/**
 * Moves particle `id` to `position`. With `keepVelocity` (default true) it is a
 * teleport: x* moves along, x' - x*' = x - x* (course notes). With
 * `keepVelocity: false` x* stays, so the move becomes velocity, which is how the
 * paper sets bodies in motion ("move the shoulder particle backwards").
 */
export function setPosition(world: World, id: number, position: Vec3Like, options: { keepVelocity?: boolean } = {}): void {
  world.checkParticle(id, 'setPosition: id');
  const t = toVec3(position, 'setPosition: position');
  const keep = options.keepVelocity ?? true;
  const p = world.particles.position;
  const q = world.particles.previous;
  for (let k = 0; k < 3; k++) {
    if (keep) q[id * 3 + k] = t[k]! - (p[id * 3 + k]! - q[id * 3 + k]!);
    p[id * 3 + k] = t[k]!;
  }
  world.wake(id);
}

/** Sets the velocity of particle `id`: x* = x - v·h (course notes). */
export function setVelocity(world: World, id: number, velocity: Vec3Like): void {
  world.checkParticle(id, 'setVelocity: id');
  const v = toVec3(velocity, 'setVelocity: velocity');
  const p = world.particles.position;
  const q = world.particles.previous;
  for (let k = 0; k < 3; k++) q[id * 3 + k] = p[id * 3 + k]! - v[k]! * world.substep;
  world.wake(id);
}

/** Applies impulse `j` (N·s): v += j / m, i.e. x* -= j·w·h (course notes). Immovable particles ignore it. */
export function applyImpulse(world: World, id: number, impulse: Vec3Like): void {
  world.checkParticle(id, 'applyImpulse: id');
  const j = toVec3(impulse, 'applyImpulse: impulse');
  const w = world.particles.inverseMass[id]!;
  const q = world.particles.previous;
  for (let k = 0; k < 3; k++) q[id * 3 + k] = q[id * 3 + k]! - j[k]! * w * world.substep;
  world.wake(id);
}

/**
 * Adds force `f` (N) to particle `id` for the next step only, over all its
 * substeps. Called from a force generator's `apply` (which runs every substep)
 * it adds to the current substep only, as writing `particles.force` does.
 */
export function applyForce(world: World, id: number, force: Vec3Like): void {
  world.checkParticle(id, 'applyForce: id');
  const f = toVec3(force, 'applyForce: force');
  // Generators run again every substep: holding their force too would add it up substep after substep.
  if (world.applyingForces) {
    const now = world.particles.force;
    for (let k = 0; k < 3; k++) now[id * 3 + k] = now[id * 3 + k]! + f[k]!;
    return;
  }
  const acc = world.particles.heldForce;
  for (let k = 0; k < 3; k++) acc[id * 3 + k] = acc[id * 3 + k]! + f[k]!;
  world.wake(id);
}

/** Mass of particle `id` in kg (Infinity when immovable; a pinned particle reports its own mass). */
export function getMass(world: World, id: number): number {
  world.checkParticle(id, 'getMass: id');
  const pinned = (world.particles.flags[id]! & ParticleFlag.Pinned) !== 0;
  const w = pinned ? world.particles.freeInverseMass[id]! : world.particles.inverseMass[id]!;
  return w === 0 ? Infinity : 1 / w;
}

/** Sets the mass of particle `id` (0 or Infinity = immovable). */
export function setMass(world: World, id: number, mass: number): void {
  world.checkParticle(id, 'setMass: id');
  const w = inverseMassOf(mass, 'setMass: mass');
  if ((world.particles.flags[id]! & ParticleFlag.Pinned) !== 0) world.particles.freeInverseMass[id] = w;
  else world.particles.inverseMass[id] = w;
  // Whether a loose particle is an anchor decides which segment its sticks go to, and which particles are tethered.
  world.sticks.ordered = false;
  world.particles.massChanges++;
  world.wake(id);
}
