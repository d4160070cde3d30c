import ReactThreeTestRenderer from '@react-three/test-renderer';
import { useEffect, useLayoutEffect, type ReactNode } from 'react';
import { mountWorld as mount, type MountedWorld, type WorldSceneProps } from '../../src/testing/index.js';

// The repository's React tests use the harness users get from `sinew/testing`;
// what is left here is only for testing sinew itself.

/** A mounted `<World>` (see `MountedWorld` in src/testing/mountWorld.tsx). */
export type Mounted = MountedWorld;

/** `mountWorld` of `sinew/testing`, with StrictMode as a third argument as these tests have always called it. */
export function mountWorld(children: ReactNode, props: WorldSceneProps = {}, strict = false): Promise<Mounted> {
  return mount(children, { ...props, strict });
}

/** Records effect mounts and unmounts, to prove StrictMode double-invoked them. */
export function EffectLog({ log }: { log: string[] }) {
  useLayoutEffect(() => {
    log.push('mount');
    return () => void log.push('unmount');
  }, [log]);
  useEffect(() => undefined, []);
  return null;
}

/** Expects `renderer.create`/`update` of `node` to fail with `message`. */
export async function expectRenderError(node: ReactNode, message: string | RegExp): Promise<void> {
  // React reports the error to the console as well; keep test output readable.
  const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await expect(ReactThreeTestRenderer.create(node)).rejects.toThrow(message);
  } finally {
    spy.mockRestore();
  }
}
