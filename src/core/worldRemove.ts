import type { BodyRecord } from './bodies/body.js';
import type { Force } from './forces/force.js';
import type { CallbackId, ForceId, ParticleId, RemovableId } from './ids.js';
import { FIRST_REGISTRY_ID } from './registry.js';
import type { World } from './world.js';
import { removeBody, removeParticle } from './worldBodies.js';
import { removeCollider, removeConstraint } from './worldConstraints.js';

// The one way to undo an add: `world.remove(what the add returned)`. Constraints of
// every kind, colliders, forces and step callbacks have ids from the registry's one
// counter, which starts above every particle index, so a number alone says what it
// names; bodies and the handles builders return are objects.

/**
 * What `world.remove` takes: whatever an `add…`, `create…`, `enable…` or
 * `protect…` call returned. A number is a particle id (`addParticle`) or an id
 * from the registry (`addStick`, `addPin`, `addConstraint`, `addCollider`,
 * `addForce`, `onBeforeStep`, `onAfterStep`, `addAngleConstraint`,
 * `addPlaneConstraint`, `addCapsuleEdge`, `addCollisionTriangle`,
 * `Springs.add`); an object is a body record (`addBody`) or a handle with its own
 * `remove()` (`createCloth`, `createBox`, `createRagdoll`, `createWind`,
 * `enableSelfCollision`, `protectFromTunnelling`, `new Attachment(…)`…).
 */
export type Removable = ParticleId | RemovableId | BodyRecord | { remove(): void };

/** Adds a force generator (the body of `World.addForce`). */
export function addForce(world: World, force: Force): ForceId {
  if (!force || typeof force.apply !== 'function') throw new TypeError(`addForce: force must have an apply(world) method, got ${String(force)}`);
  const id = world.registry.issue();
  world.forceIds.set(id, force);
  world.lists.addForce(force);
  return id;
}

/** Adds a callback to the world's before- or after-step list (the body of `onBeforeStep` / `onAfterStep`). */
export function addStepCallback(world: World, when: 'before' | 'after', callback: (world: World) => void): CallbackId {
  const list = when === 'before' ? world.beforeStep : world.afterStep;
  world.lists.subscribe(list, callback, when === 'before' ? 'onBeforeStep' : 'onAfterStep');
  const id = world.registry.issue();
  world.callbackIds.set(id, { list, callback });
  return id;
}

/** Undoes an add (the body of `World.remove`); throws a RangeError naming `target` when it names nothing live. */
export function removeFromWorld(world: World, target: Removable): void {
  if (typeof target === 'number') {
    removeById(world, target);
    return;
  }
  if (typeof target !== 'object' || target === null) throw new TypeError(`remove: expected an id, a body or a handle, got ${describe(target)}`);
  if (isBodyRecord(target)) return removeBody(world, target);
  // A handle's own remove() first: it may hold more than its body (a tearing hook, a pin).
  if ('remove' in target && typeof target.remove === 'function') return target.remove();
  throw new TypeError(`remove: expected an id, a body or a handle, got an object with no remove() (keys: ${Object.keys(target).join(', ') || 'none'})`);
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

function removeById(world: World, id: number): void {
  if (Number.isInteger(id) && id >= 0 && id < FIRST_REGISTRY_ID) {
    if (world.particles.slotOf(id) >= 0) return removeParticle(world, id);
    return void world.checkParticle(id, 'remove');
  }
  if (world.colliderIds.has(id)) return removeCollider(world, id);
  const force = world.forceIds.get(id);
  if (force !== undefined) {
    world.forceIds.delete(id);
    world.lists.removeForce(force);
    return;
  }
  const callback = world.callbackIds.get(id);
  if (callback !== undefined) {
    world.callbackIds.delete(id);
    world.lists.unsubscribe(callback.list, callback.callback);
    return;
  }
  if (world.hasConstraint(id)) return removeConstraint(world, id);
  throw new RangeError(`remove: nothing in this world has id ${String(id)} (removed already, or from another world?)`);
}

function isBodyRecord(x: unknown): x is BodyRecord {
  return typeof x === 'object' && x !== null && typeof (x as BodyRecord).serial === 'number' && typeof (x as BodyRecord).first === 'number' && Array.isArray((x as BodyRecord).constraints);
}
