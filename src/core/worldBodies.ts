import { particleSlot } from './ids.js';
import type { BodyOptions, BodyRecord } from './bodies/body.js';
import { checkInteger } from './math.js';
import { copyValues } from './particles.js';
import type { World } from './world.js';
import { checkParticleOptions, type CheckedParticle, type ParticleOptions } from './worldOptions.js';
import { detachRange } from './worldConstraints.js';

// Adding and removing particles and bodies: the bodies of World's methods of the
// same names, which stay there as the public API.

/**
 * Adds particles in one contiguous id range (a body) and returns the first id;
 * the i-th particle gets id `first + i`.
 */
export function addParticles(world: World, list: readonly ParticleOptions[]): number {
  if (!Array.isArray(list) || list.length === 0) throw new RangeError('addParticles: list must be a non-empty array');
  const checked = list.map((o, i) => checkParticleOptions(o, list.length === 1 ? 'addParticle' : `addParticles[${i}]`));
  const first = world.particles.allocate(list.length);
  // The slots may be free ones inside the solver's ranges, which skip free slots.
  world.sleep.invalidate();
  world.syncCapacity();
  world.placeKernelColumns();
  checked.forEach((o, i) => writeParticle(world, first + i, o));
  // Interpolated rendering blends from here: a new particle starts where it is, not where the slot's last owner was.
  copyValues(world.particles.position, world.stepStartPositions, first * 3, (first + list.length) * 3);
  return world.particles.idOf(first);
}

/** Writes checked options into slot `id`, with the previous position that starts it at `o.velocity`. */
export function writeParticle(world: World, id: number, o: CheckedParticle): void {
  const particles = world.particles;
  particles.inverseMass[id] = o.inverseMass;
  particles.freeInverseMass[id] = o.inverseMass;
  particles.radius[id] = o.radius;
  particles.friction[id] = o.friction;
  particles.restitution[id] = o.restitution;
  const h = world.substep;
  const g = world.gravityValue;
  for (let k = 0; k < 3; k++) {
    particles.position[id * 3 + k] = o.position[k]!;
    // x* = x0 - v0·h + ½·a·h² makes Verlet reproduce the closed-form parabola exactly.
    const a = o.inverseMass === 0 ? 0 : g[k]!;
    particles.previous[id * 3 + k] = o.position[k]! - o.velocity[k]! * h + 0.5 * a * h * h;
  }
}

/**
 * Registers particles `[first, first + count)` as one body and returns its
 * record. Builders call this after `addParticles`; push the ids of the body's
 * constraints into `record.constraints` so `world.remove(record)` takes them along.
 */
export function addBody(world: World, first: number, count: number, options: BodyOptions = {}): BodyRecord {
  checkInteger(count, 'addBody: count', 1);
  const from = world.checkParticle(first, 'addBody: first');
  for (let k = 0; k < count; k++) {
    const i = first + k;
    if (!world.particles.isAlive(from + k)) throw new RangeError(`addBody: first + ${k} (${i}) names no live particle; a body's range [first, first + count) must hold live particles`);
    const id = world.particles.idOf(from + k);
    if (id !== i) throw new RangeError(`addBody: first + ${k} is ${i}, but the particle in its slot is ${id}; a body's particles must come from one addParticles call (one generation of ids)`);
    // Removing this body would delete the owner's particles.
    const owner = world.bodyOf(i);
    if (owner !== undefined) throw new RangeError(`addBody: particle ${i} belongs to body ${owner.id} (a ${owner.kind}); a body's range must hold particles of no other body`);
  }
  const iterations = options.iterations === undefined ? undefined : checkInteger(options.iterations, 'addBody: iterations', 1);
  const slot = takeBodySlot(world);
  // Every field present from the start, set or not: records of one shape keep the step's property reads monomorphic.
  const record: BodyRecord = {
    id: slot,
    serial: world.nextBodySerial++,
    kind: options.kind ?? 'body',
    first,
    count,
    iterations,
    constraints: [],
    alive: true,
    onRemove: [],
    restLayout: undefined,
    tearStrain: undefined,
    surface: undefined,
    collisionGroups: undefined,
    collideAs: undefined,
    hull: undefined,
  };
  world.bodies[slot] = record;
  // The body's sticks move to its own segment (own iteration count, sleep) at the next step.
  for (let i = from; i < from + count; i++) world.particles.body[i] = record.id;
  world.sticks.ordered = false;
  world.sleep.invalidate();
  return record;
}

/** Removes a body: its constraints, then its particles (with anything else attached to them). */
export function removeBody(world: World, record: BodyRecord): void {
  if (!record.alive) throw new RangeError(`remove: the ${record.kind} (body ${record.id}) was removed already`);
  record.alive = false;
  for (const cleanup of record.onRemove) cleanup();
  world.features.bodyRemoved(record);
  for (const id of record.constraints) if (world.hasConstraint(id)) world.removeConstraint(id);
  // One pass over the tables for the whole range, not one per particle.
  const end = particleSlot(record.first) + record.count;
  detachRange(world, particleSlot(record.first), end);
  for (let i = particleSlot(record.first); i < end; i++) if (world.particles.isAlive(i)) world.particles.release(i);
  // The dead record lets go of what it held; its slot goes to the next body added.
  record.constraints.length = 0;
  record.onRemove.length = 0;
  record.surface = undefined;
  world.sleep.forgetBody(record.id);
  world.freeBodySlots.push(record.id);
  trimBodies(world);
}

/** The lowest free body slot, or a new one: the list stays as short as the live bodies allow. */
function takeBodySlot(world: World): number {
  const free = world.freeBodySlots;
  if (free.length === 0) return world.bodies.length;
  let k = 0;
  for (let i = 1; i < free.length; i++) if (free[i]! < free[k]!) k = i;
  const slot = free[k]!;
  free[k] = free[free.length - 1]!;
  free.pop();
  return slot;
}

/**
 * Drops the dead records at the end of `world.bodies`, so that the loops over
 * bodies in every step cost what the live bodies need, not what the world once held.
 */
function trimBodies(world: World): void {
  const bodies = world.bodies;
  let n = bodies.length;
  while (n > 0 && !bodies[n - 1]!.alive) n--;
  if (n === bodies.length) return;
  bodies.length = n;
  world.freeBodySlots = world.freeBodySlots.filter((slot) => slot < n);
}

/** Removes a particle and every stick and pin attached to it. Its id becomes invalid (and may be reused). */
export function removeParticle(world: World, particle: number): void {
  const id = world.checkParticle(particle, 'removeParticle: id');
  // A body owns its range: a freed slot inside it would be reused by a stranger
  // that removing the body would then delete too.
  const owner = world.particles.body[id]!;
  if (owner >= 0 && world.bodies[owner]!.alive)
    throw new Error(`removeParticle: particle ${particle} belongs to body ${owner} (a ${world.bodies[owner]!.kind}); remove the whole body with world.remove(body)`);
  detachRange(world, id, id + 1);
  world.particles.release(id);
  world.sleep.invalidate();
}
