import type { ReactNode } from 'react';
import { mountScene, WorldMount, type MountedWorld, type MountOptions, type WorldSceneProps } from './mountWorld.js';

/**
 * Options of {@link mountHook}: those of `mountWorld`, the hook's first props, and a scene to render beside it.
 *
 * @example
 * ```tsx
 * await mountHook((target: Vec3) => usePin('rope.end', target), { initialProps: [1, 2, 0], scene: <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={8} />, strict: true });
 * ```
 */
export interface MountHookOptions<Props> extends MountOptions {
  /** The argument of the hook's first render; `rerender(props)` passes the next ones. */
  initialProps?: Props;
  /**
   * Components rendered in the same `<World>` before the hook's component, for
   * hooks that refer to them by name (`usePin('rope.end')` needs a `<Rope name="rope">`).
   */
  scene?: ReactNode;
}

/**
 * A hook rendered by {@link mountHook}: the mounted world, and what the hook returned.
 *
 * @example
 * ```ts
 * const hook: MountedHook<RopeApi, number> = await mountHook((segments: number) => useRope({ from: [0, 2, 0], to: [1, 2, 0], segments }), { initialProps: 4 });
 * await hook.rerender(8);
 * hook.result.current.count; // 9
 * ```
 */
export interface MountedHook<Result, Props> extends MountedWorld {
  /** What the hook returned at its latest render. */
  readonly result: { readonly current: Result };
  /** Renders the hook again, with `props` (the previous ones when not given). */
  rerender(props?: Props): Promise<void>;
  /** Renders new `scene` components beside the hook (and new `<World>` props when given); the hook stays mounted. */
  update(scene: ReactNode, props?: WorldSceneProps): Promise<void>;
}

/**
 * Renders `hook` in a component inside a `<World>` (what `renderHook` of Testing
 * Library does, for sinew): `result.current` is what it returned, and the world
 * is there to step and read as with {@link mountWorld}.
 *
 * @example
 * ```tsx
 * const bob = await mountHook(() => useParticle({ position: [0, 2, 0] }));
 * await bob.seconds(0.5);
 * expect(bob.result.current.position()[1]).toBeCloseTo(2 - 0.5 * 9.81 * 0.25, 2);
 *
 * const pin = await mountHook((y: number) => usePin('rope.end', [1, y, 0]), { initialProps: 2, scene: <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={8} pinStart /> });
 * await pin.rerender(1.5); // the pin moves to y = 1.5
 * ```
 */
export async function mountHook<Result, Props = undefined>(hook: (props: Props) => Result, options: MountHookOptions<Props> = {}): Promise<MountedHook<Result, Props>> {
  if (typeof hook !== 'function') throw new TypeError(`mountHook: hook must be a function that calls hooks, got ${String(hook)}`);
  const { initialProps, scene, ...mountOptions } = options ?? {};
  let props = initialProps as Props;
  const result = { current: undefined as Result };
  // A new component type per mount, so a hook's state never carries over between mounts.
  function HookProbe({ args }: { args: Props }) {
    result.current = hook(args);
    return null;
  }
  const wrap = (node: ReactNode) => (
    <>
      {node}
      <HookProbe args={props} />
    </>
  );
  const mount = await mountScene(scene ?? null, mountOptions, wrap, 'mountHook');
  let current: ReactNode = scene ?? null;
  return Object.assign(mount, {
    result,
    async rerender(next?: Props) {
      if (next !== undefined) props = next;
      await mount.update(current);
    },
    async update(node: ReactNode, worldProps?: WorldSceneProps) {
      current = node;
      await WorldMount.prototype.update.call(mount, node, worldProps);
    },
  });
}
