import ReactThreeTestRenderer from '@react-three/test-renderer';
import { createRef, StrictMode, useEffect, useLayoutEffect, type ReactNode } from 'react';
import type { World as CoreWorld } from '../../src/core/world.js';
import { World, type WorldProps } from '../../src/react/World.js';
import type { WorldStore } from '../../src/react/store.js';

export type Renderer = Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>;

/** A mounted `<World>` under the test renderer, with its store and core world at hand. */
export interface Mounted {
  renderer: Renderer;
  store: WorldStore;
  world: CoreWorld;
  /** Re-renders the same `<World>` with new children (and props). */
  update(children: ReactNode, props?: Omit<WorldProps, 'children' | 'ref'>): Promise<void>;
  /** Runs `n` frames of `delta` seconds (60 Hz by default). */
  frames(n: number, delta?: number): Promise<void>;
  unmount(): Promise<void>;
}

/**
 * Mounts `<World {...props}>{children}</World>`. The world mounts empty first and
 * the children arrive in an update: React's StrictMode double-invokes effects of
 * components mounted by an update, not of the very first render of a root, so
 * this is what exercises StrictMode when `strict` is set.
 */
export async function mountWorld(children: ReactNode, props: Omit<WorldProps, 'children' | 'ref'> = {}, strict = false): Promise<Mounted> {
  const ref = createRef<WorldStore>();
  const wrap = (node: ReactNode, p: Omit<WorldProps, 'children' | 'ref'>) => {
    const tree = (
      <World ref={ref} {...p}>
        {node}
      </World>
    );
    return strict ? <StrictMode>{tree}</StrictMode> : tree;
  };
  let current = props;
  const renderer = await ReactThreeTestRenderer.create(wrap(null, props));
  await renderer.update(wrap(children, props));
  const store = ref.current!;
  return {
    renderer,
    store,
    world: store.getState().world,
    update: (node, p) => {
      current = p ?? current;
      return renderer.update(wrap(node, current));
    },
    frames: async (n, delta = 1 / 60) => {
      // One call per frame: advanceFrames(n) runs each useFrame subscriber n times in a row (the
      // stepping <World> n times, then each renderer n times), not n real frames.
      for (let i = 0; i < n; i++) await renderer.advanceFrames(1, delta);
    },
    unmount: () => renderer.unmount(),
  };
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
