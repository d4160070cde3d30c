import { MAX_PARTICLES, PARTICLE_GENERATIONS, particleSlot } from './ids.js';
import { ParticleFlag } from './particles.js';
import { toVec3, type Vec3, type Vec3Like } from './math.js';
import type { World } from './world.js';
import { inverseMassOf } from './worldOptions.js';

// Reading and writing one particle's state with the course notes' formulas: the
// bodies of World's particle methods, which stay there as the public API.

/** Position of particle `id`, written into `out` when given. */
export function getPosition(world: World, id: number, out: Vec3 = [0, 0, 0]): Vec3 {
  const i = world.checkParticle(id, 'getPosition: id');
  const p = world.particles.position;
  out[0] = p[i * 3]!;
  out[1] = p[i * 3 + 1]!;
  out[2] = p[i * 3 + 2]!;
  return out;
}

/** Position of particle `id` blended between the last two steps by `alpha`, for rendering. */
export function getInterpolatedPosition(world: World, id: number, out: Vec3 = [0, 0, 0]): Vec3 {
  const i = world.checkParticle(id, 'getInterpolatedPosition: id');
  const p = world.particles.position;
  const s = world.stepStartPositions;
  for (let k = 0; k < 3; k++) out[k] = s[i * 3 + k]! + (p[i * 3 + k]! - s[i * 3 + k]!) * world.alpha;
  return out;
}

/** Velocity of particle `id`: (x - x*) / h, the mean over the latest substep h. */
export function getVelocity(world: World, id: number, out: Vec3 = [0, 0, 0]): Vec3 {
  const i = world.checkParticle(id, 'getVelocity: id');
  const p = world.particles.position;
  const q = world.particles.previous;
  const h = world.substep;
  for (let k = 0; k < 3; k++) out[k] = (p[i * 3 + k]! - q[i * 3 + k]!) / h;
  return out;
}

/**
 * Moves particle `id` to `position`. With `keepVelocity` (default true) it is a
 * teleport: x* moves along, x' - x*' = x - x* (course notes). With
 * `keepVelocity: false` x* stays, so the move becomes velocity, which is how the
 * paper sets bodies in motion ("move the shoulder particle backwards").
 */
export function setPosition(world: World, id: number, position: Vec3Like, options: { keepVelocity?: boolean } = {}): void {
  const i = world.checkParticle(id, 'setPosition: id');
  const t = toVec3(position, 'setPosition: position');
  const keep = options.keepVelocity ?? true;
  const p = world.particles.position;
  const q = world.particles.previous;
  for (let k = 0; k < 3; k++) {
    if (keep) q[i * 3 + k] = t[k]! - (p[i * 3 + k]! - q[i * 3 + k]!);
    p[i * 3 + k] = t[k]!;
  }
  world.wake(i);
}

/** Sets the velocity of particle `id`: x* = x - v·h (course notes). */
export function setVelocity(world: World, id: number, velocity: Vec3Like): void {
  const i = world.checkParticle(id, 'setVelocity: id');
  const v = toVec3(velocity, 'setVelocity: velocity');
  const p = world.particles.position;
  const q = world.particles.previous;
  for (let k = 0; k < 3; k++) q[i * 3 + k] = p[i * 3 + k]! - v[k]! * world.substep;
  world.wake(i);
}

/** Applies impulse `j` (N·s): v += j / m, i.e. x* -= j·w·h (course notes). Immovable particles ignore it. */
export function applyImpulse(world: World, id: number, impulse: Vec3Like): void {
  const i = world.checkParticle(id, 'applyImpulse: id');
  const j = toVec3(impulse, 'applyImpulse: impulse');
  const w = world.particles.inverseMass[i]!;
  const q = world.particles.previous;
  for (let k = 0; k < 3; k++) q[i * 3 + k] = q[i * 3 + k]! - j[k]! * w * world.substep;
  world.wake(i);
}

/**
 * Adds force `f` (N) to particle `id` for the next step only, over all its
 * substeps. Called from a force generator's `apply` (which runs every substep)
 * it adds to the current substep only, as writing `particles.force` does.
 */
export function applyForce(world: World, id: number, force: Vec3Like): void {
  const i = world.checkParticle(id, 'applyForce: id');
  const f = toVec3(force, 'applyForce: force');
  // Generators run again every substep: holding their force too would add it up substep after substep.
  if (world.applyingForces) {
    const now = world.particles.force;
    for (let k = 0; k < 3; k++) now[i * 3 + k] = now[i * 3 + k]! + f[k]!;
    return;
  }
  const acc = world.particles.heldForce;
  for (let k = 0; k < 3; k++) acc[i * 3 + k] = acc[i * 3 + k]! + f[k]!;
  world.wake(i);
}

/** Mass of particle `id` in kg (Infinity when immovable; a pinned particle reports its own mass). */
export function getMass(world: World, id: number): number {
  const i = world.checkParticle(id, 'getMass: id');
  const pinned = (world.particles.flags[i]! & ParticleFlag.Pinned) !== 0;
  const w = pinned ? world.particles.freeInverseMass[i]! : world.particles.inverseMass[i]!;
  return w === 0 ? Infinity : 1 / w;
}

/** Sets the mass of particle `id` (0 or Infinity = immovable). */
export function setMass(world: World, id: number, mass: number): void {
  const i = world.checkParticle(id, 'setMass: id');
  const w = inverseMassOf(mass, 'setMass: mass');
  if ((world.particles.flags[i]! & ParticleFlag.Pinned) !== 0) world.particles.freeInverseMass[i] = w;
  else world.particles.inverseMass[i] = w;
  // Whether a loose particle is an anchor decides which segment its sticks go to, and which particles are tethered.
  world.sticks.ordered = false;
  world.particles.massChanges++;
  world.wake(i);
}

/** @internal Why `id` names no particle: never one, or one removed (its slot now empty or holding another). */
export function particleError(world: World, id: number, what: string): string {
  const particles = world.particles;
  const slot = Number.isInteger(id) && id >= 0 ? particleSlot(id) : -1;
  if (slot < 0 || slot >= particles.end || id >= MAX_PARTICLES * PARTICLE_GENERATIONS) return `${what}: no particle with id ${String(id)} in this world`;
  if (!particles.isAlive(slot)) return `${what}: particle ${id} was removed`;
  return `${what}: particle ${id} was removed (its slot now holds particle ${particles.idOf(slot)})`;
}
