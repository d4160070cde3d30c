import { createContext, useContext } from 'react';
import type { World } from '../core/world.js';
import type { FrameInfo, WorldStore } from './store.js';
import type { WorkerLink } from '../worker/link.js';

/** What a `<World>` provides to everything inside it. */
export interface SinewContextValue {
  /** The core world the `<World>` steps. */
  readonly world: World;
  /** The `<World>`'s store: settings, stats, pause and stepping. */
  readonly store: WorldStore;
  /** The store's per-frame info (`store.getState().frame`), handed out directly for read-back loops. */
  readonly frame: FrameInfo;
  /**
   * In a `<World worker>`: the link to its `RemoteWorld` (`worker.remote`), whose recording
   * proxy `world` is; null in a main-thread `<World>`. Build on `world` with `buildOn` and
   * `makeOn` (`sinew-physics/worker`), which work in either.
   */
  readonly worker: WorkerLink | null;
}

/**
 * The nearest `<World>`; null outside one. Each `<World>` provides its own, so
 * several can share a page. Prefer the hooks; read it directly to bridge a
 * world into another renderer's tree.
 *
 * @example
 * ```tsx
 * const value = useContext(SinewContext);
 * return <Html><SinewContext.Provider value={value}><Panel /></SinewContext.Provider></Html>;
 * ```
 */
export const SinewContext = createContext<SinewContextValue | null>(null);

/**
 * @internal The nearest `<World>`'s context, or an error that names the caller
 * (`<Stick> must be inside a <World>`).
 */
export function useSinew(who: string): SinewContextValue {
  const value = useContext(SinewContext);
  if (!value) throw new Error(`${who} must be inside a <World>`);
  return value;
}
