import ReactThreeTestRenderer from '@react-three/test-renderer';
import { useEffect, useLayoutEffect, type ReactNode } from 'react';
import { mountWorld as mount, type MountedWorld, type WorldSceneProps } from '../../src/testing/index.js';

// The repository's React tests use the harness users get from `sinew-physics/testing`;
// what is left here is only for testing sinew itself.

/** A mounted `<World>` (see `MountedWorld` in src/testing/mountWorld.tsx). */
export type Mounted = MountedWorld;

/** `mountWorld` of `sinew-physics/testing`, with StrictMode as a third argument as these tests have always called it. */
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

/**
 * Expects rendering `node` to fail with `message`: either the render throws (a
 * hook in the test's own component, a bad `<World>`), or a sinew component
 * inside a `<World>` without `onError` logs the error and renders nothing.
 */
export async function expectRenderError(node: ReactNode, message: string | RegExp): Promise<void> {
  // React reports the error to the console as well; keep test output readable.
  const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  let renderer: Awaited<ReturnType<typeof ReactThreeTestRenderer.create>> | undefined;
  try {
    try {
      renderer = await ReactThreeTestRenderer.create(node);
    } catch (error) {
      expect(() => {
        throw error;
      }).toThrow(message);
      return;
    }
    const logged = spy.mock.calls.map(([first]) => first).filter((first): first is Error => first instanceof Error);
    expect(logged.map((error) => error.message)).toContainEqual(typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message));
  } finally {
    await renderer?.unmount();
    spy.mockRestore();
  }
}
