import type { BodyRecord } from './bodies/body.js';
import type { Force } from './forces/force.js';
import type { CallbackId, ForceId, RemovableId } from './ids.js';
import type { World } from './world.js';
import { removeBody } from './worldBodies.js';
import { removeCollider, removeConstraint } from './worldConstraints.js';

// The one way to undo an add: `world.remove(what the add returned)`. Constraints of
// every kind, colliders, forces and step callbacks have ids from the registry's one
// counter, so an id alone says what it names; bodies and the handles builders return
// are objects. Particles are indices, not registry ids: `removeParticle` takes them.

/**
 * What `world.remove` takes: an id an add returned, a body record, a handle a
 * builder returned, or a feature an `enable…`/`protect…` call returned (anything
 * with its own `remove()`).
 */
export type Removable = RemovableId | BodyRecord | { readonly body: BodyRecord } | { remove(): void };

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
  if (typeof target !== 'object' || target === null) throw new TypeError(`remove: expected an id, a body or a handle, got ${String(target)}`);
  if (isBodyRecord(target)) return removeBody(world, target);
  if ('body' in target && isBodyRecord(target.body)) return removeBody(world, target.body);
  if ('remove' in target && typeof target.remove === 'function') return target.remove();
  throw new TypeError('remove: expected an id, a body or a handle, got an object with neither a body nor a remove()');
}

function removeById(world: World, id: number): void {
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
