import { useState } from 'react';
import { useLayoutEffect } from './effects.js';
import type { Collider } from '../../core/colliders/collider.js';
import type { ColliderShape, World } from '../../core/world.js';
import { useSinew } from '../context.js';

/** A stable handle on a collider a component owns. */
export interface ColliderHandle {
  /** Collider id in the core world; -1 while it does not exist. */
  readonly id: number;
  /** The core collider (mutable fields such as `friction`), or null while it does not exist. */
  readonly collider: Collider | null;
}

class LiveCollider implements ColliderHandle {
  id = -1;
  constructor(private readonly world: World) {}
  get collider(): Collider | null {
    return this.id < 0 ? null : this.world.getCollider(this.id);
  }
}

/**
 * Adds a static collider to the nearest `<World>` while mounted. A new `shape`
 * object replaces the collider (memoise it); colliders hold no simulation
 * state, so nothing is reset. To move a collider every frame, mutate
 * `handle.collider` instead (then call `world.wakeAll()` if bodies may be
 * asleep: they do not notice colliders moved in place).
 *
 * @example
 * ```tsx
 * function Ball({ r }: { r: number }) {
 *   const shape = useMemo(() => ({ type: 'sphere', position: [0, 1, 0], radius: r }) as const, [r]);
 *   useCollider(shape);
 *   return <mesh position={[0, 1, 0]}><sphereGeometry args={[r]} /></mesh>;
 * }
 * ```
 */
export function useCollider(shape: ColliderShape): ColliderHandle {
  return useColliderAs('useCollider()', shape);
}

/**
 * @internal {@link useCollider} with errors that name `who`, the component using it. A
 * component that builds its collider object itself (to check its props while rendering)
 * passes the plain `spec` it describes too: in a `<World worker>` that is what is added,
 * since only plain data reaches the worker.
 */
export function useColliderAs(who: string, shape: ColliderShape, spec?: ColliderShape): ColliderHandle {
  const { world, store, worker } = useSinew(who);
  const [handle] = useState(() => new LiveCollider(world));
  const added = worker !== null && spec !== undefined ? spec : shape;
  useLayoutEffect(() => {
    let id: number;
    try {
      id = world.addCollider(added);
    } catch (error) {
      // The core's message names the shape's field; prefix the component.
      throw new RangeError(`${who}: ${(error as Error).message}`, { cause: error });
    }
    handle.id = id;
    store.getState().refreshStats();
    return () => {
      handle.id = -1;
      world.removeCollider(id);
      store.getState().refreshStats();
    };
  }, [world, store, handle, added, who]);
  return handle;
}
