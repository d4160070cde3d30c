import type { BodyRecord } from '../bodies/body.js';
import type { BodyId } from '../ids.js';
import type { World } from '../world.js';

/**
 * Which bodies a body collides with, packed as @react-three/rapier and Rapier's
 * `collisionGroups` are: the upper 16 bits are the groups the body is a member
 * of, the lower 16 bits the groups it collides with (its filter). Two bodies
 * collide when each is a member of a group in the other's filter. The default,
 * {@link ALL_GROUPS}, is a member of every group and collides with every group.
 */
export type CollisionGroups = number;

/** Member of every group, colliding with every group: what a body has unless told otherwise. */
export const ALL_GROUPS: CollisionGroups = 0xffff_ffff;

/** What a body builder takes to opt a body out of collisions with some other bodies. */
export interface CollisionGroupOptions {
  /**
   * Which other bodies this one collides with (see {@link collisionGroups});
   * default every body. Static colliders are not filtered: they always collide.
   */
  collisionGroups?: CollisionGroups;
}

/**
 * Packs 16-bit masks into a {@link CollisionGroups} value: `memberships` is the
 * groups the body belongs to, `filter` the groups it collides with (default all
 * 16). Masks, not group numbers: group 3 is `1 << 3`. Throws a RangeError naming
 * the value when either is not an integer in [0, 0xffff].
 *
 * @example
 * ```ts
 * const PLAYER = 1 << 0;
 * const DEBRIS = 1 << 1;
 * createRagdoll(world, { collisionGroups: collisionGroups(PLAYER, ~DEBRIS & 0xffff) }); // walks through debris
 * createBox(world, { collisionGroups: collisionGroups(DEBRIS) });
 * ```
 */
export function collisionGroups(memberships: number, filter = 0xffff): CollisionGroups {
  checkMask(memberships, 'collisionGroups: memberships');
  checkMask(filter, 'collisionGroups: filter');
  return ((memberships << 16) | filter) >>> 0;
}

/** The 16-bit membership mask of packed `groups`. */
export function membershipsOf(groups: CollisionGroups): number {
  return groups >>> 16;
}

/** The 16-bit filter mask of packed `groups`. */
export function filterOf(groups: CollisionGroups): number {
  return groups & 0xffff;
}

/**
 * True when bodies with groups `a` and `b` collide: each is a member of a group in the other's filter (Rapier's rule).
 *
 * @example
 * ```ts
 * groupsInteract(collisionGroups(1, 2), collisionGroups(2, 1)); // true
 * groupsInteract(collisionGroups(1, 2), collisionGroups(2, 2)); // false: the second does not collide with group 1
 * ```
 */
export function groupsInteract(a: CollisionGroups, b: CollisionGroups): boolean {
  return ((a >>> 16) & b & 0xffff) !== 0 && ((b >>> 16) & a & 0xffff) !== 0;
}

/**
 * Checks a packed {@link CollisionGroups} value (an integer in [0, 0xffffffff],
 * 16-bit memberships above a 16-bit filter) and returns it; `undefined` gives
 * {@link ALL_GROUPS}. `what` names the value in the error.
 */
export function checkCollisionGroups(groups: unknown, what: string): CollisionGroups {
  if (groups === undefined) return ALL_GROUPS;
  if (typeof groups !== 'number' || !Number.isInteger(groups) || groups < 0 || groups > 0xffff_ffff) {
    throw new RangeError(`${what} must be 16-bit memberships and a 16-bit filter packed into an integer in [0, 0xffffffff] (see collisionGroups()), got ${String(groups)}`);
  }
  return groups;
}

/**
 * Sets which bodies `body` collides with (see {@link collisionGroups}); takes
 * effect at the next step. Throws naming the body when it is not a live body of
 * `world`, and naming the value when it is not a packed pair of 16-bit masks.
 *
 * @example
 * ```ts
 * setCollisionGroups(world, cloth.body, collisionGroups(0x0002, 0xfffd)); // the cloth no longer catches group 1
 * ```
 */
export function setCollisionGroups(world: World, body: BodyRecord | BodyId, groups: CollisionGroups): void {
  const record = liveBody(world, body, 'setCollisionGroups');
  record.collisionGroups = checkCollisionGroups(groups, 'setCollisionGroups: groups');
}

/**
 * The packed collision groups of `body` ({@link ALL_GROUPS} unless set). Throws naming the body when it is not a live body of `world`.
 *
 * @example
 * ```ts
 * const filter = getCollisionGroups(world, box.body) & 0xffff; // the groups it collides with
 * ```
 */
export function getCollisionGroups(world: World, body: BodyRecord | BodyId): CollisionGroups {
  return liveBody(world, body, 'getCollisionGroups').collisionGroups ?? ALL_GROUPS;
}

function liveBody(world: World, body: BodyRecord | BodyId, what: string): BodyRecord {
  const record = typeof body === 'number' ? (Number.isInteger(body) ? world.bodies[body] : undefined) : body;
  if (record === null || typeof record !== 'object' || world.bodies[record.id] !== record || !record.alive) {
    const name = typeof body === 'number' ? String(body) : body && typeof body === 'object' ? `${String(body.id)} (a ${String(body.kind)}${body.alive === false ? ', removed' : ''})` : String(body);
    throw new RangeError(`${what}: no live body ${name} in this world`);
  }
  return record;
}

function checkMask(mask: unknown, what: string): void {
  if (typeof mask !== 'number' || !Number.isInteger(mask) || mask < 0 || mask > 0xffff) {
    throw new RangeError(`${what} must be a 16-bit mask, an integer in [0, 0xffff], got ${String(mask)}`);
  }
}
