import { PIN_DEFAULTS, STICK_DEFAULTS } from './defaults.js';
import { makeCollider, type ColliderShape } from './colliderFactory.js';
import { trackKinematic, untrackKinematic } from './kinematicColliders.js';
import { stickKindCode } from './constraints/sticks.js';
import { checkCompliance, checkDamping } from './materials.js';
import { checkNumber, checkOptions, toVec3, type Vec3Like } from './math.js';
import { ParticleFlag } from './particles.js';
import type { ColliderId, ConstraintId, ParticleId } from './ids.js';
import type { World } from './world.js';
import type { PinOptions, StickOptions } from './worldOptions.js';

// Adding and removing constraints and colliders: the bodies of World's methods of
// the same names, which stay there as the public API. Ids come from the world's
// registry; the world's own tables keep id-to-row maps, other tables own theirs.

/** Adds a stick between particles `a` and `b`; returns its constraint id. */
export function addStick(world: World, idA: ParticleId, idB: ParticleId, options: StickOptions = {}): ConstraintId {
  checkOptions(options, 'addStick: options');
  const a = world.checkParticle(idA, 'addStick: a');
  const b = world.checkParticle(idB, 'addStick: b');
  if (a === b) throw new RangeError(`addStick: a and b must differ, both are particle ${idA}`);
  const p = world.particles.position;
  const length = options.length ?? Math.hypot(p[b * 3]! - p[a * 3]!, p[b * 3 + 1]! - p[a * 3 + 1]!, p[b * 3 + 2]! - p[a * 3 + 2]!);
  checkNumber(length, 'addStick: length', 0);
  const stiffness = checkNumber(options.stiffness ?? STICK_DEFAULTS.stiffness, 'addStick: stiffness', 0, 1);
  if (stiffness === 0) throw new RangeError('addStick: stiffness must be in (0, 1], got 0');
  const kind = stickKindCode(options.kind ?? STICK_DEFAULTS.kind, 'addStick: kind');
  const compliance = checkCompliance(options.compliance ?? STICK_DEFAULTS.compliance, 'addStick: compliance');
  const damping = checkDamping(options.damping ?? STICK_DEFAULTS.damping, 'addStick: damping');
  const id = world.registry.issue();
  world.stickRows.set(id, world.sticks.add(id, a, b, length, stiffness, kind, compliance, damping));
  world.placeKernelColumns();
  return id;
}

/** Changes a stick's rest length, stiffness or kind in place. */
export function setStick(world: World, id: number, options: StickOptions): void {
  const row = world.stickRows.get(id);
  if (row === undefined) throw new RangeError(`setStick: no stick with id ${id}`);
  if (checkOptions(options, 'setStick: options') === undefined) throw new TypeError('setStick: options must be an options object, got undefined');
  if (options.length !== undefined) world.sticks.rest[row] = checkNumber(options.length, 'setStick: length', 0);
  if (options.stiffness !== undefined) world.sticks.setStiffness(row, checkNumber(options.stiffness, 'setStick: stiffness', Number.MIN_VALUE, 1));
  if (options.kind !== undefined) world.sticks.setKind(row, stickKindCode(options.kind, 'setStick: kind'));
  if (options.compliance !== undefined || options.damping !== undefined)
    world.sticks.setCompliance(
      row,
      checkCompliance(options.compliance ?? world.sticks.compliance[row]!, 'setStick: compliance'),
      checkDamping(options.damping ?? world.sticks.damping[row]!, 'setStick: damping'),
    );
  world.sticks.changes++;
  world.wake(world.sticks.a[row]!);
  world.wake(world.sticks.b[row]!);
}

/**
 * Pins particle `id` at `target` (default: where it is) and returns the pin's
 * constraint id. While rigidly pinned (compliance 0, the default) the particle
 * is immovable to sticks; with a compliance it keeps its mass and hangs on a
 * zero-length spring to the target.
 */
export function addPin(world: World, particle: ParticleId, target?: Vec3Like, options: PinOptions = {}): ConstraintId {
  const id = world.checkParticle(particle, 'addPin: particle');
  const t = target === undefined ? world.getPosition(particle) : toVec3(target, 'addPin: target');
  checkOptions(options, 'addPin: options');
  const compliance = checkCompliance(options.compliance ?? PIN_DEFAULTS.compliance, 'addPin: compliance');
  const damping = checkDamping(options.damping ?? PIN_DEFAULTS.damping, 'addPin: damping');
  const maxForce = checkMaxForce(options.maxForce, 'addPin: maxForce');
  if (compliance === 0) holdPinned(world, id);
  world.wake(id);
  const pin = world.registry.issue();
  world.pinRows.set(pin, world.pins.add(pin, id, t[0], t[1], t[2], compliance, damping, maxForce));
  return pin;
}

/**
 * Changes pin `pin`'s compliance (m/N) or damping (N·s/m) in place. Turning a
 * rigid pin compliant gives the particle its mass back (unless another rigid pin
 * holds it); turning it rigid makes the particle immovable again.
 */
export function setPin(world: World, pin: number, options: PinOptions): void {
  const row = world.pinRows.get(pin);
  if (row === undefined) throw new RangeError(`setPin: no pin with id ${pin}`);
  if (checkOptions(options, 'setPin: options') === undefined) throw new TypeError('setPin: options must be an options object, got undefined');
  const pins = world.pins;
  const compliance = checkCompliance(options.compliance ?? pins.compliance[row]!, 'setPin: compliance');
  const damping = checkDamping(options.damping ?? pins.damping[row]!, 'setPin: damping');
  const particle = pins.particle[row]!;
  pins.setCompliance(row, compliance, damping);
  if (options.maxForce !== undefined) {
    const maxForce = checkMaxForce(options.maxForce, 'setPin: maxForce');
    pins.maxForce[row] = maxForce === Infinity ? 0 : maxForce;
  }
  if (compliance === 0) holdPinned(world, particle);
  else unpinIfFree(world, particle);
  world.wake(particle);
}

/** Makes `particle` immovable while a rigid pin holds it, keeping its own inverse mass for the release. */
function holdPinned(world: World, particle: number): void {
  const particles = world.particles;
  if ((particles.flags[particle]! & ParticleFlag.Pinned) !== 0) return;
  particles.freeInverseMass[particle] = particles.inverseMass[particle]!;
  particles.inverseMass[particle] = 0;
  particles.flags[particle]! |= ParticleFlag.Pinned;
}

/** Moves pin `pin` to `target`; the particle follows inside the next relaxation passes. */
export function setPinTarget(world: World, pin: number, target: Vec3Like): void {
  const row = world.pinRows.get(pin);
  if (row === undefined) throw new RangeError(`setPinTarget: no pin with id ${pin}`);
  // Called every frame while dragging, so it reads the target without copying it.
  if (typeof target !== 'object' || target === null) throw new TypeError(`setPinTarget: target must be [x, y, z] or {x, y, z}, got ${String(target)}`);
  const isArray = Array.isArray(target);
  // The same vectors addPin takes (toVec3), checked without a copy.
  if (isArray && (target as readonly number[]).length !== 3) throw new TypeError(`setPinTarget: target must have 3 components, got ${(target as readonly number[]).length}`);
  const v = target as { x: number; y: number; z: number };
  const x = isArray ? (target as readonly number[])[0]! : v.x;
  const y = isArray ? (target as readonly number[])[1]! : v.y;
  const z = isArray ? (target as readonly number[])[2]! : v.z;
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || !Number.isFinite(x + y + z))
    throw new RangeError(`setPinTarget: target must be finite numbers, got [${x}, ${y}, ${z}]`);
  const out = world.pins.target;
  out[row * 3] = x;
  out[row * 3 + 1] = y;
  out[row * 3 + 2] = z;
  world.wake(world.pins.particle[row]!);
}

/** Adds a static collider and returns its id. Sleeping bodies wake (one may now be inside it). */
export function addCollider(world: World, shape: ColliderShape): ColliderId {
  const collider = makeCollider(shape);
  const id = world.registry.issue();
  world.colliderIds.set(id, collider);
  world.colliders.push(collider);
  trackKinematic(world, collider);
  world.wakeAll();
  return id;
}

/** Removes a collider. Sleeping bodies wake (one may have rested on it). */
export function removeCollider(world: World, id: number): void {
  const c = world.colliderIds.get(id);
  if (!c) throw new RangeError(`removeCollider: no collider with id ${id}`);
  world.colliderIds.delete(id);
  world.colliders.splice(world.colliders.indexOf(c), 1);
  untrackKinematic(world, c);
  world.features.colliderRemoved(c);
  world.wakeAll();
}

/** Removes a stick, pin, user constraint, or any constraint a table registered (angle, plane, capsule edge, face, spring). */
export function removeConstraint(world: World, id: number): void {
  const stick = world.stickRows.get(id);
  if (stick !== undefined) {
    world.wake(world.sticks.a[stick]!);
    world.wake(world.sticks.b[stick]!);
    world.stickRows.delete(id);
    // Rows that move report themselves through the table's onMove.
    world.sticks.removeRow(stick);
    return;
  }
  const pin = world.pinRows.get(id);
  if (pin !== undefined) {
    const particle = world.pins.particle[pin]!;
    const rigid = world.pins.isRigid(pin);
    world.pinRows.delete(id);
    const moved = world.pins.removeRow(pin);
    if (moved >= 0) world.pinRows.set(moved, pin);
    unpinIfFree(world, particle);
    world.wake(particle);
    // A rigid pin may have held its particle where its body could not follow (inside a collider, far
    // from its sticks' reach): the launch guard bounds what the body gains in the step it is let go.
    if (rigid) world.particles.flags[particle] = world.particles.flags[particle]! | ParticleFlag.Pushed;
    return;
  }
  const custom = world.customIds.get(id);
  if (custom) {
    world.customIds.delete(id);
    world.lists.removeConstraint(custom);
    return;
  }
  // Angle and plane constraints, capsule edges, solid faces, springs: their table removes the row.
  const owner = world.registry.ownerOf(id);
  if (owner !== undefined) {
    owner.remove(id);
    return;
  }
  throw new RangeError(`removeConstraint: no constraint with id ${id}`);
}

/** Removes every stick and pin with an end among particles `[first, end)`, and tells the world's features (see `Features.particlesRemoved`). */
export function detachRange(world: World, first: number, end: number): void {
  const inside = (id: number) => id >= first && id < end;
  // Backwards: a removed row is filled from the end, which was already looked at.
  for (let row = world.sticks.count - 1; row >= 0; row--) {
    if (inside(world.sticks.a[row]!) || inside(world.sticks.b[row]!)) world.removeConstraint(world.sticks.ids[row]!);
  }
  for (let row = world.pins.count - 1; row >= 0; row--) {
    if (inside(world.pins.particle[row]!)) world.removeConstraint(world.pins.ids[row]!);
  }
  // Every other kind that names particles (angles, planes, capsule edges, faces, attachments…).
  world.features.particlesRemoved(first, end);
}

/** Gives `particle` its own mass back once no rigid pin holds it any more (a compliant pin leaves it its mass). */
export function unpinIfFree(world: World, particle: number): void {
  const pins = world.pins;
  for (let row = 0; row < pins.count; row++) if (pins.particle[row] === particle && pins.isRigid(row)) return;
  const particles = world.particles;
  if ((particles.flags[particle]! & ParticleFlag.Pinned) === 0) return;
  particles.inverseMass[particle] = particles.freeInverseMass[particle]!;
  particles.flags[particle]! &= ~ParticleFlag.Pinned;
}

/** `force` as a pin's force limit in N: above 0, Infinity (no limit, the default) allowed; an error naming it otherwise. */
function checkMaxForce(force: number | undefined, what: string): number {
  if (force === undefined || force === Infinity) return Infinity;
  if (typeof force !== 'number' || !(force > 0) || !Number.isFinite(force)) throw new RangeError(`${what} must be a force in N above 0 (or Infinity), got ${String(force)}`);
  return force;
}
