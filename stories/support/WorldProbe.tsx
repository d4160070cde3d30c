import { useThree } from '@react-three/fiber';
import { useEffect } from 'react';
import type { Camera } from 'three';
import type { World } from '../../src/core/world.js';
import { useWorld } from '../../src/react/index.js';

/** What a {@link WorldProbe} publishes. */
export interface Probe {
  world: World;
  camera: Camera;
  canvas: HTMLCanvasElement;
}

declare global {
  interface Window {
    /** Worlds of the stories on the page, by probe name: for play functions and the devtools console. */
    sinewProbes?: Record<string, Probe>;
  }
}

/**
 * Publishes the surrounding `<World>`'s core world, the camera and the canvas as
 * `window.sinewProbes[name]`, so a story's play function (and you, in the
 * devtools console) can read particle positions and aim the mouse at them.
 * Renders nothing.
 */
export function WorldProbe({ name = 'main' }: { name?: string }) {
  const world = useWorld();
  const camera = useThree((three) => three.camera);
  const canvas = useThree((three) => three.gl.domElement);
  useEffect(() => {
    const probes = (window.sinewProbes ??= {});
    const probe = { world, camera, canvas };
    probes[name] = probe;
    return () => {
      if (probes[name] === probe) delete probes[name];
    };
  }, [world, camera, canvas, name]);
  return null;
}
