/**
 * Which worlds are a RemoteWorld's recording proxy, so code that builds on a world it was
 * handed (a React hook, `ParticleDrag`) runs engine builders the way that world needs:
 * directly on a main-thread `World`, through `remote.call` / `remote.construct` on a remote
 * one. This module imports nothing, so the layers that use it (three, React) pull in no worker
 * code for it.
 */

/** What {@link buildOn} and {@link makeOn} need of a remote world. */
export interface RemoteBuilder {
  /** Runs a replayable engine function on the shadow and records it for the worker. */
  call<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R;
  /** Constructs a replayable engine class on the shadow and records it for the worker. */
  construct<A extends unknown[], T>(Class: new (...args: A) => T, ...args: A): T;
  /** The shadow world the proxy records for (read it, never change it). */
  readonly shadow: object;
}

const remotes = new WeakMap<object, RemoteBuilder>();

/** @internal Marks `world` (a RemoteWorld's proxy) as built through `remote`. */
export function registerRemote(world: object, remote: RemoteBuilder): void {
  remotes.set(world, remote);
}

/**
 * What to read `world` through: the shadow world behind a RemoteWorld's proxy (reads through
 * the proxy are not recorded but cost a proxy trap each, and an object read through it is
 * recorded once as a reference), `world` itself otherwise. Never change what it returns.
 *
 * @example
 * ```ts
 * const positions = readable(world).particles.position;
 * ```
 */
export function readable<T extends object>(world: T): T {
  const remote = remotes.get(world);
  return remote === undefined ? world : (remote.shadow as T);
}

/**
 * Calls engine builder `fn` with `args` as `world` needs it: `fn(...args)` on a main-thread
 * world, `remote.call(fn, ...args)` (recorded for the worker) on a RemoteWorld's `world`.
 *
 * @example
 * ```ts
 * const cloth = buildOn(world, createCloth, world, { width: 10, height: 10, spacing: 0.1 });
 * ```
 */
export function buildOn<A extends unknown[], R>(world: object, fn: (...args: A) => R, ...args: A): R {
  const remote = remotes.get(world);
  return remote === undefined ? fn(...args) : remote.call(fn, ...args);
}

/**
 * Constructs engine class `Class` with `args` as `world` needs it: `new Class(...args)` on a
 * main-thread world, `remote.construct(Class, ...args)` on a RemoteWorld's `world`.
 *
 * @example
 * ```ts
 * const attractor = makeOn(world, Attractor, { position: [0, 1, 0], strength: 5 });
 * world.addForce(attractor);
 * ```
 */
export function makeOn<A extends unknown[], T>(world: object, Class: new (...args: A) => T, ...args: A): T {
  const remote = remotes.get(world);
  return remote === undefined ? new Class(...args) : remote.construct(Class, ...args);
}
