import { checkNumber } from '../core/math.js';
import type { SlowerThanRealTimeReport } from '../core/realTime.js';
import type { WorldOptions } from '../core/worldOptions.js';
import { DeferredEndpoint, WorkerLink } from './link.js';
import { RemoteWorld, startWorker, type WorkerEndpoint } from './remoteWorld.js';

/** What {@link physicsWorker} takes. */
export interface PhysicsWorkerOptions {
  /** How positions come back: `'shared'` (SharedArrayBuffer; the page must be cross-origin isolated), `'transfer'`, or `'auto'` (the default: shared where possible). */
  transport?: 'auto' | 'shared' | 'transfer';
  /** Opens the worker; default: sinew's module worker (`startWorker`). Tests pass `() => connectInProcess().endpoint` to run it on this thread. */
  endpoint?: () => WorkerEndpoint;
  /** How long (ms) the worker may leave an advance unanswered before frames hold theirs back (default 250; `Infinity`: never): see `RemoteWorldOptions.maxLagMs`. */
  maxLagMs?: number;
}

/** The `worker` prop of a `<World>`, made by {@link physicsWorker}: opens a remote world for each `<World>` that mounts with it. */
export interface PhysicsWorker {
  /** The options it was made with. */
  readonly options: Readonly<PhysicsWorkerOptions>;
  /**
   * @internal Builds a RemoteWorld with `world` as its options (its worker starts when the
   * link's `mount()` runs) and the link a `<World>` provides in its context; `onError` hears the
   * worker's errors, `onSlow` its world's word that it runs slower than real time.
   */
  open(world: WorldOptions, onError: (error: Error) => void, onSlow?: (report: SlowerThanRealTimeReport) => void): WorkerLink;
}

/**
 * The `worker` prop of a `<World>`: its physics runs in a module Web Worker, with the same
 * components, hooks and props (see the README's "Physics in a worker"). It lives in
 * `sinew-physics/worker`, so an app that never uses it does not carry it.
 *
 * @example
 * ```tsx
 * import { physicsWorker } from 'sinew-physics/worker';
 * const worker = physicsWorker();
 * <World worker={worker} substeps={10}>…</World>
 * ```
 */
export function physicsWorker(options: PhysicsWorkerOptions = {}): PhysicsWorker {
  if (options === null || typeof options !== 'object') throw new TypeError(`physicsWorker: options must be an object, got ${String(options)}`);
  const { transport, endpoint, maxLagMs } = options;
  if (endpoint !== undefined && typeof endpoint !== 'function') throw new TypeError(`physicsWorker: endpoint must be a function that opens the worker, got ${String(endpoint)}`);
  if (maxLagMs !== undefined && maxLagMs !== Infinity) checkNumber(maxLagMs, 'physicsWorker: maxLagMs', 0);
  return {
    options: { transport, endpoint, maxLagMs },
    open(world, onError, onSlow) {
      const deferred = new DeferredEndpoint(endpoint ?? startWorker);
      // The link needs the remote world, and the remote world's break events go to the link.
      const linked: { link?: WorkerLink } = {};
      const remote = new RemoteWorld({ world, transport, endpoint: deferred, maxLagMs, onError, onSlow, onBreak: (attachment, particles) => linked.link?.broke(attachment, particles) });
      return (linked.link = new WorkerLink(remote, deferred));
    },
  };
}
