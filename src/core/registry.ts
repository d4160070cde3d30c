/** A table that holds rows named by registry ids and can remove one: what `world.remove(id)` hands the id to. */
export interface IdOwner {
  /** Removes what `id` names (the registry already knows this owner has it). */
  remove(id: number): unknown;
}

/**
 * The first id the registry hands out. Particle ids are below it (a slot under
 * 2^20 with a generation under 2^10 above it, see `ParticleId`), so
 * `world.remove(id)` tells a particle from everything else by the number alone;
 * registry ids stay below 2^31 for the Int32Array columns that hold them.
 */
export const FIRST_REGISTRY_ID = 2 ** 30;

/**
 * The one counter behind every id a world hands out for something removable:
 * sticks, pins, user constraints, colliders, forces, step callbacks, angle and
 * plane constraints, capsule edges, solid faces and springs. Ids never collide
 * across tables, so `world.remove(id)` can always tell whose row `id` is: the world's own
 * tables look theirs up, and a table elsewhere registers itself as the owner of the
 * ids it is given (before, an angle constraint and a stick could both be id 3, and
 * removing the angle removed the stick).
 *
 * @example
 * ```ts
 * const id = world.registry.issue(myTable); // myTable.remove(id) runs on world.remove(id)
 * world.registry.release(id);               // when myTable drops the row itself
 * ```
 */
export class Registry {
  /** The next id to hand out; snapshots carry it, so a restored world never hands out an id twice. */
  next = FIRST_REGISTRY_ID;
  private readonly owners = new Map<number, IdOwner>();

  /** A new id; with `owner`, `world.remove(id)` is passed on to `owner.remove(id)`. */
  issue(owner?: IdOwner): number {
    const id = this.next++;
    if (owner !== undefined) this.owners.set(id, owner);
    return id;
  }

  /** The owner `id` was issued to, or undefined (the world's own tables, or an id no longer in use). */
  ownerOf(id: number): IdOwner | undefined {
    return this.owners.get(id);
  }

  /** Forgets the owner of `id` once its row is gone. */
  release(id: number): void {
    this.owners.delete(id);
  }
}
