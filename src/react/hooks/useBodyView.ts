import { useFrame } from '@react-three/fiber';
import { useRef, type RefObject } from 'react';
import { useLayoutEffect } from './effects.js';
import { BufferGeometry, type Mesh } from 'three';
import type { World } from '../../core/world.js';
import type { Blend } from '../../three/positions.js';
import type { FrameInfo } from '../store.js';
import { useLatest } from './useLatest.js';
import type { BodyHandle, CoreBody } from './useBody.js';

/** A geometry drawn from a body: {@link BodyGeometry} or {@link TubeGeometry}. */
export interface BodyView {
  readonly geometry: BufferGeometry;
  update(world: World, blend: Blend): void;
  dispose(): void;
}

/**
 * Keeps `mesh.geometry` drawing the body behind `api`: builds a view with
 * `make` whenever the body is (re-)created, updates it in `useFrame` after the
 * step, and disposes it on unmount. A view is built only when the body changes,
 * never per frame; no React state is involved.
 *
 * @example
 * ```ts
 * const mesh = useRef<Mesh>(null);
 * useBodyView(cloth, mesh, world, frame, (c) => new BodyGeometry({ first: c.first, count: c.count, surface: c.surface, uvs: c.uvs }));
 * ```
 */
export function useBodyView<H extends CoreBody>(api: BodyHandle<H>, mesh: RefObject<Mesh | null>, world: World, frame: FrameInfo, make: (core: H) => BodyView): RefObject<BodyView | null> {
  const view = useRef<BodyView | null>(null);
  const source = useRef<H | null>(null);
  const makeRef = useLatest(make);

  // Runs after every commit (cheap when nothing changed), so the first frame already has geometry.
  useLayoutEffect(() => {
    sync(api, mesh, view, source, makeRef.current, world, frame);
  });
  useLayoutEffect(
    () => () => {
      view.current?.dispose();
      view.current = null;
      source.current = null;
    },
    [],
  );
  useFrame(() => {
    sync(api, mesh, view, source, makeRef.current, world, frame);
    view.current?.update(world, frame);
  });
  return view;
}

const EMPTY = new BufferGeometry();

function sync<H extends CoreBody>(
  api: BodyHandle<H>,
  mesh: RefObject<Mesh | null>,
  view: RefObject<BodyView | null>,
  source: RefObject<H | null>,
  make: (core: H) => BodyView,
  world: World,
  frame: FrameInfo,
): void {
  // No mesh mounted (a <RigidBody> drawing its children instead): nothing to build.
  const core = mesh.current ? api.current : null;
  if (source.current !== core || (core && !view.current)) {
    view.current?.dispose();
    view.current = core ? make(core) : null;
    source.current = core;
    view.current?.update(world, frame);
  }
  const geometry = view.current?.geometry ?? EMPTY;
  if (mesh.current && mesh.current.geometry !== geometry) mesh.current.geometry = geometry;
}
