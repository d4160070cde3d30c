// Shared pieces of the "soft" stories (cloth, ropes, soft bodies, plants): the floor,
// particle–particle collisions, a seeded random generator for scene layouts, and
// helpers for play functions.
import { useEffect, useMemo, type ComponentType, type ReactNode } from 'react';
import { CanvasTexture, Raycaster, SRGBColorSpace, Vector2, Vector3 } from 'three';
import type { BodyRecord } from '../../src/core/index.js';
import { Ground } from '../../src/react/index.js';
import { pointer } from './interaction.js';
import type { Probe } from './WorldProbe.js';

/** Warm and cool accents, alternating. */
export const SOFT_PALETTE = ['#f08a4b', '#4fb3c4', '#f2c14e', '#7a8fe8', '#e8605c', '#72cfa0', '#d98bd0', '#9fc4d8'] as const;

/**
 * The floor: an infinite `<Ground>` drawn as a large plane that receives shadows.
 * `height` is the collision height; the plane is drawn at `drawnAt` (default the
 * same), so bodies whose particles have a radius can be drawn resting on it:
 * collide at `-radius`, draw at 0.
 */
export function Floor({
  height = 0,
  drawnAt = height,
  size = 30,
  color = '#2a2e36',
  friction = 1,
  grid = true,
}: {
  height?: number;
  drawnAt?: number;
  size?: number;
  color?: string;
  friction?: number;
  grid?: boolean;
}) {
  return (
    <>
      <Ground height={height} friction={friction} visible={false} />
      <group position={[0, drawnAt, 0]}>
        <mesh rotation-x={-Math.PI / 2} receiveShadow>
          <planeGeometry args={[size, size]} />
          <meshStandardMaterial color={color} roughness={0.95} />
        </mesh>
        {grid && <gridHelper args={[size, size * 2, '#3a404b', '#30353e']} position={[0, 0.002, 0]} />}
      </group>
    </>
  );
}

/**
 * The sinew component a story file documents, typed for a story whose args are
 * the scene's own controls: autodocs lists the component's props, the story renders
 * its own scene.
 */
export function documents<Args>(component: ComponentType<never>): ComponentType<Args> {
  return component as unknown as ComponentType<Args>;
}

/**
 * A texture painted once on a 2D canvas of `width` × `height` pixels by `paint`
 * (which must be a stable function), disposed on unmount.
 */
export function useCanvasTexture(paint: (g: CanvasRenderingContext2D, width: number, height: number) => void, width = 256, height = 256): CanvasTexture {
  const texture = useMemo(() => {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    paint(canvas.getContext('2d')!, width, height);
    const map = new CanvasTexture(canvas);
    map.colorSpace = SRGBColorSpace;
    map.anisotropy = 4;
    return map;
  }, [paint, width, height]);
  useEffect(() => () => texture.dispose(), [texture]);
  return texture;
}

/** A small seeded generator (mulberry32), so scene layouts are the same on every load. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Text over the canvas: a one-line hint of what to try. */
export function Hint({ children }: { children: ReactNode }) {
  return <span style={{ opacity: 0.75 }}>{children}</span>;
}

// ---- play-function helpers ----

/** The live bodies of `kind` in the probe's world, in creation order. */
export function bodiesOf(probe: Probe, kind: string): BodyRecord[] {
  return probe.world.bodies.filter((body) => body.alive && body.kind === kind);
}

/** Waits until the world has a live body of `kind` and returns the first. */
export async function waitForBody(probe: Probe, kind: string, timeoutMs = 10_000): Promise<BodyRecord> {
  const start = Date.now();
  for (;;) {
    const body = bodiesOf(probe, kind)[0];
    if (body) return body;
    if (Date.now() - start > timeoutMs) throw new Error(`no ${kind} body appeared in the world`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The point under canvas pixel (x, y) on the plane through `through` that faces
 * the camera: where `<DragControls>` holds a particle grabbed at `through` while
 * the pointer is at (x, y).
 */
export function pointOnDragPlane(probe: Probe, x: number, y: number, through: readonly [number, number, number]): [number, number, number] {
  const rect = probe.canvas.getBoundingClientRect();
  const raycaster = new Raycaster();
  raycaster.setFromCamera(new Vector2((x / rect.width) * 2 - 1, -(y / rect.height) * 2 + 1), probe.camera);
  const normal = probe.camera.getWorldDirection(new Vector3());
  const { origin, direction } = raycaster.ray;
  const t = (normal.x * (through[0] - origin.x) + normal.y * (through[1] - origin.y) + normal.z * (through[2] - origin.z)) / normal.dot(direction);
  return [origin.x + direction.x * t, origin.y + direction.y * t, origin.z + direction.z * t];
}

/**
 * Resolves once the probe's world has run `steps` more steps (or after `timeoutMs`):
 * headless Chromium draws a few frames a second, slower still when other tests
 * run beside it, so wall-clock waits alone do not say how far the simulation got.
 */
export function waitForSteps(probe: Probe, steps: number, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      probe.world.remove(counting);
      resolve();
    };
    const timer = setTimeout(finish, timeoutMs);
    const counting = probe.world.onAfterStep(() => {
      if (++seen >= steps) finish();
    });
  });
}

/**
 * Presses at canvas pixel `from` and moves to `to` in `moves` pointer moves, each
 * after `stepsPerMove` world steps, and keeps holding. Paced by the simulation
 * rather than the clock, so the grabbed particle never jumps far in one step
 * however slowly the browser draws (a pinned particle teleported half a metre
 * in one step yanks a tearable cloth apart).
 */
export async function pacedDrag(probe: Probe, from: [number, number], to: [number, number], moves = 24, stepsPerMove = 2): Promise<void> {
  pointer(probe.canvas, 'pointerdown', from[0], from[1]);
  for (let i = 1; i <= moves; i++) {
    await waitForSteps(probe, stepsPerMove);
    pointer(probe.canvas, 'pointermove', from[0] + ((to[0] - from[0]) * i) / moves, from[1] + ((to[1] - from[1]) * i) / moves);
  }
}

/** Distance between two points. */
export function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

/** Mean position of particles `[first, first + count)`. */
export function centroid(probe: Probe, first: number, count: number): [number, number, number] {
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = first; i < first + count; i++) {
    const [px, py, pz] = probe.world.getPosition(i);
    x += px;
    y += py;
    z += pz;
  }
  return [x / count, y / count, z / count];
}
