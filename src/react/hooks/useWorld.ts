import type { World } from '../../core/world.js';
import { useSinew } from '../context.js';

/**
 * The core `World` of the nearest `<World>`, for anything the components do not
 * cover (custom constraints, forces, reading positions in your own `useFrame`).
 *
 * @example
 * ```tsx
 * function Lamp() {
 *   const world = useWorld();
 *   useEffect(() => {
 *     const id = world.addCollider({ type: 'sphere', position: [0, 1, 0], radius: 0.3 });
 *     return () => world.remove(id);
 *   }, [world]);
 *   return null;
 * }
 * ```
 */
export function useWorld(): World {
  return useSinew('useWorld()').world;
}
