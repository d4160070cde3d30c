// Mounting an R3F scene into the page for browser tests, and waiting on it.
import { Canvas } from '@react-three/fiber';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { World as CoreWorld } from '../../src/core/world.js';
import { useWorld } from '../../src/react/index.js';

/** What goes in the `<Canvas>`, given a `<WorldHandle>` to put inside its `<World>`. */
export type SceneContent = (handle: ReactNode) => ReactNode;

/** A scene mounted into the page; `render` replaces its content and waits a few frames, `unmount` removes it. */
export interface PageScene {
  /** The core world `<WorldHandle>` published, once it has mounted. */
  world(): CoreWorld;
  render(content: SceneContent): Promise<void>;
  unmount(): void;
}

/** Publishes the surrounding `<World>`'s core world to `into`. */
export function WorldHandle({ into }: { into: { world?: CoreWorld } }) {
  const world = useWorld();
  useEffect(() => {
    into.world = world;
  }, [into, world]);
  return null;
}

/** Renders `children` in a `<Canvas>` (in StrictMode if `strict`) into a new element of the page. */
export async function mountPage(content: SceneContent, strict = false): Promise<PageScene> {
  const element = document.createElement('div');
  element.style.cssText = 'width: 400px; height: 300px';
  document.body.append(element);
  const root: Root = createRoot(element);
  const into: { world?: CoreWorld } = {};
  const render = async (next: SceneContent) => {
    const canvas = <Canvas camera={{ position: [0, 1.5, 4] }}>{next(<WorldHandle into={into} />)}</Canvas>;
    root.render(strict ? <StrictMode>{canvas}</StrictMode> : canvas);
    await frames(5);
  };
  await render(content);
  await until(() => into.world !== undefined, 'the <World> mounted');
  return {
    world: () => into.world!,
    render,
    unmount: () => {
      root.unmount();
      element.remove();
    },
  };
}

/** Waits `n` animation frames. */
export async function frames(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
}

/** Waits until `condition()` holds, or fails naming `what`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
