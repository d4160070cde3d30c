/** What `cleanup` can unmount: every world `mountWorld` or `mountHook` mounted and nobody unmounted yet. */
const mounted = new Set<{ unmount(): Promise<unknown> }>();

/** @internal Called by a mount when it mounts (`true`) and when it unmounts (`false`). */
export function track(mount: { unmount(): Promise<unknown> }, live: boolean): void {
  if (live) mounted.add(mount);
  else mounted.delete(mount);
}

/**
 * Unmounts every world {@link mountWorld} and {@link mountHook} mounted that is
 * still mounted, so that a test which failed half-way does not leave its scene
 * running into the next test. Call it after each test (a setup file).
 *
 * @example
 * ```ts
 * // vitest.setup.ts
 * import { afterEach } from 'vitest';
 * import { cleanup } from 'sinew-physics/testing';
 *
 * afterEach(cleanup);
 * ```
 */
export async function cleanup(): Promise<void> {
  for (const mount of [...mounted]) await mount.unmount();
}
