import { useStore } from 'zustand';
import { useSinew } from '../context.js';
import type { WorldState, WorldStore } from '../store.js';

/**
 * Selects from the nearest `<World>`'s store; the component re-renders only when
 * the selected value changes. Stats are published a few times a second, never
 * per frame, and positions are never in the store.
 *
 * @example
 * ```tsx
 * function PauseButton() {
 *   const paused = useWorldStore((s) => s.settings.paused);
 *   const toggle = useWorldStore((s) => (paused ? s.resume : s.pause));
 *   return <Html><button onClick={toggle}>{paused ? 'play' : 'pause'}</button></Html>;
 * }
 * ```
 */
export function useWorldStore<T>(selector: (state: WorldState) => T): T {
  return useStore(useSinew('useWorldStore()').store, selector);
}

/**
 * The nearest `<World>`'s store itself, for reading without subscribing
 * (`store.getState().step()`) or subscribing outside React's render.
 *
 * @example
 * ```ts
 * const store = useWorldStoreApi();
 * useEffect(() => store.subscribe((s) => console.log(s.stats.msPerStep)), [store]);
 * ```
 */
export function useWorldStoreApi(): WorldStore {
  return useSinew('useWorldStoreApi()').store;
}
