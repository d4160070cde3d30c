// Shared pieces of the "bodies" stories (rigid bodies, articulated bodies, ragdolls, IK):
// the floor, particle–particle collisions, rounded hulls that show a body's true
// collision shape, and a few helpers for play functions.
import { useFrame } from '@react-three/fiber';
import { useContext, useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { type BufferGeometry, IcosahedronGeometry, Vector3, type Group } from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import { FrameTrack, Ground, settleRange, SinewContext, useWorld, writeTransform, type BodyRecord, type CoreRigidBody, type CoreWorld, type RagdollPart } from 'sinew-physics';
import { ragdollParts } from 'sinew-physics/core';
import type { Probe } from './WorldProbe.js';

/** Warm and cool accents for bodies, in an order that alternates between the two. */
export const PALETTE = ['#e8894a', '#4fb3c4', '#f2c14e', '#6c8fe0', '#e0605a', '#7ccfa8', '#d98bd0', '#9fb4c8'] as const;

/** The floor: an infinite `<Ground>` drawn as a large dark plane that receives shadows. */
export function Floor({ size = 30, color = '#2a2e36', children }: { size?: number; color?: string; children?: ReactNode }) {
  return (
    <Ground friction={1}>
      <mesh rotation-x={-Math.PI / 2} receiveShadow>
        <planeGeometry args={[size, size]} />
        <meshStandardMaterial color={color} roughness={0.95} />
      </mesh>
      <gridHelper args={[size, size * 2, '#3a404b', '#30353e']} position={[0, 0.002, 0]} />
      {children}
    </Ground>
  );
}

/** The surrounding `<World>`'s context (world, store, per-frame blend). */
function useSinewContext() {
  const value = useContext(SinewContext);
  if (!value) throw new Error('bodies stories: this component must be inside a <World>');
  return value;
}

/**
 * Builds something with the core API in the surrounding `<World>` in a layout effect
 * (for what the components do not cover, such as joints between rigid bodies) and
 * tears it down on unmount or when `key` changes. Returns a ref that holds what was
 * built (null before the build and after the teardown); read it in `useFrame`.
 */
export function useCoreBuild<T extends { ranges: readonly (readonly [number, number])[] }>(
  key: string,
  build: (world: CoreWorld) => T,
  teardown: (built: T, world: CoreWorld) => void,
): { readonly current: T | null } {
  const world = useWorld();
  const holder = useRef<T | null>(null);
  const recipe = useRef({ build, teardown });
  useLayoutEffect(() => {
    recipe.current = { build, teardown };
  });
  useLayoutEffect(() => {
    const { build: make, teardown: undo } = recipe.current;
    const built = make(world);
    // Draw the new particles where they are, not blended from their slots' old positions.
    for (const [first, count] of built.ranges) settleRange(world, first, count);
    holder.current = built;
    return () => {
      holder.current = null;
      undo(built, world);
    };
  }, [world, key]);
  return holder;
}

/**
 * Its children follow a core rigid body (one built with the core API), with the
 * transform interpolated between steps like `<RigidBody>` does. `body` is read
 * every frame, so it may return null until the body exists.
 */
export function FollowRigid({ body, children }: { body: () => CoreRigidBody | null | undefined; children: ReactNode }) {
  const { world, frame } = useSinewContext();
  const group = useRef<Group>(null);
  const tracked = useRef<CoreRigidBody | null>(null);
  const track = useMemo(
    () =>
      new FrameTrack((out) => {
        const t = tracked.current?.update();
        if (!t) return;
        for (let k = 0; k < 3; k++) out.position[k] = t.origin[k]!;
        for (let k = 0; k < 4; k++) out.quaternion[k] = t.quaternion[k]!;
      }),
    [],
  );
  useEffect(() => {
    const capture = world.onBeforeStep(() => tracked.current && track.capture());
    return () => world.remove(capture);
  }, [world, track]);
  useFrame(() => {
    const b = body() ?? null;
    if (b !== tracked.current) {
      tracked.current = b;
      track.reset();
    }
    if (!b || !group.current) return;
    const drawn = track.sample(frame);
    writeTransform(group.current, drawn.position, drawn.quaternion);
  });
  return <group ref={group}>{children}</group>;
}

/**
 * The exact outline of a rigid body made of particle spheres: the convex hull of
 * a sphere of `radius` around every point (the Minkowski sum of the points' hull
 * and the sphere), so what is drawn is what collides with the static colliders.
 */
export function roundedHull(points: readonly (readonly [number, number, number])[], radius: number, detail = 1): BufferGeometry {
  const directions = new IcosahedronGeometry(1, detail).getAttribute('position');
  const cloud: Vector3[] = [];
  for (const [x, y, z] of points) {
    for (let i = 0; i < directions.count; i++) {
      cloud.push(new Vector3(x + directions.getX(i) * radius, y + directions.getY(i) * radius, z + directions.getZ(i) * radius));
    }
  }
  return new ConvexGeometry(cloud);
}

/**
 * Collision points of a box of outer size `size` whose particles have `radius`: the
 * eight corners and six face centres of the box shrunk by `radius` on every side,
 * so the particles' spheres touch the faces of the drawn box.
 */
export function boxPoints(size: readonly [number, number, number], radius: number): [number, number, number][] {
  const [hx, hy, hz] = size.map((s) => s / 2 - radius) as [number, number, number];
  const points: [number, number, number][] = [];
  for (let i = 0; i < 8; i++) points.push([i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz]);
  points.push([hx, 0, 0], [-hx, 0, 0], [0, hy, 0], [0, -hy, 0], [0, 0, hz], [0, 0, -hz]);
  return points;
}

/**
 * Collision points of a regular tetrahedron of edge `edge` (base down, centroid at
 * the origin) whose particles have `radius`: its corners and face centres, the
 * tetrahedron scaled about its centre so that every face moves in by `radius`.
 */
export function tetrahedronPoints(edge: number, radius: number): [number, number, number][] {
  const height = edge * Math.sqrt(2 / 3);
  const inradius = height / 4;
  const f = 1 - radius / inradius;
  const r = edge / Math.sqrt(3);
  const base = -height / 4;
  const corners: [number, number, number][] = [
    [r, base, 0],
    [-r / 2, base, -edge / 2],
    [-r / 2, base, edge / 2],
    [0, (3 * height) / 4, 0],
  ].map(([x, y, z]) => [x! * f, y! * f, z! * f]);
  const faces: [number, number, number][] = [];
  for (let skip = 0; skip < 4; skip++) {
    const others = corners.filter((_, i) => i !== skip);
    faces.push([0, 1, 2].map((k) => (others[0]![k]! + others[1]![k]! + others[2]![k]!) / 3) as [number, number, number]);
  }
  return [...corners, ...faces];
}

/** Memoised {@link roundedHull}, rebuilt when the points or radius change; disposed on change and unmount. */
export function useRoundedHull(points: readonly (readonly [number, number, number])[], radius: number): BufferGeometry {
  const key = JSON.stringify([points, radius]);
  const geometry = useMemo(() => {
    const [p, r] = JSON.parse(key) as [[number, number, number][], number];
    return roundedHull(p, r);
  }, [key]);
  useEffect(() => () => geometry.dispose(), [geometry]);
  return geometry;
}

/** A deterministic pseudo-random number in [0, 1) for index `i` (scene layouts that look random but never change). */
export function hash01(i: number, salt = 0): number {
  const x = Math.sin(i * 127.1 + salt * 311.7) * 43758.5453;
  return x - Math.floor(x);
}

// ---- helpers for play functions -------------------------------------------------

/** Live bodies of `kind` in the world (e.g. `'ragdoll'`), oldest first. */
export function bodiesOf(world: CoreWorld, kind: string): BodyRecord[] {
  return world.bodies.filter((b) => b.alive && b.kind === kind);
}

/** Particle id of a ragdoll part in a ragdoll body. */
export function ragdollPart(body: BodyRecord, part: RagdollPart): number {
  return body.first + ragdollParts.indexOf(part);
}

/** Mass-weighted centre of the particles `[first, first + count)`. */
export function centreOfMass(world: CoreWorld, first: number, count: number): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  let total = 0;
  for (let i = first; i < first + count; i++) {
    const m = world.getMass(i);
    if (!Number.isFinite(m)) continue;
    const [x, y, z] = world.getPosition(i);
    c[0] += m * x;
    c[1] += m * y;
    c[2] += m * z;
    total += m;
  }
  return [c[0] / total, c[1] / total, c[2] / total];
}

/** Distance between two points. */
export function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

/** Canvas-relative pixel coordinates of a world point as the probe's camera sees it now. */
export function pointOnScreen(probe: Probe, [x, y, z]: readonly [number, number, number]): [number, number] {
  const ndc = new Vector3(x, y, z).project(probe.camera);
  const rect = probe.canvas.getBoundingClientRect();
  return [((ndc.x + 1) / 2) * rect.width, ((1 - ndc.y) / 2) * rect.height];
}

/**
 * Resolves after the world has run `steps` more fixed steps (or after `timeoutMs`).
 * Play functions wait on simulated time, not wall time: headless Chromium with a
 * software GPU may draw only a few frames a second.
 */
export function waitForSteps(world: CoreWorld, steps: number, timeoutMs = 8000): Promise<void> {
  return new Promise((resolve) => {
    let left = steps;
    const timer = setTimeout(finish, timeoutMs);
    let done = false;
    const counting = world.onAfterStep(() => {
      if (--left <= 0) finish();
    });
    function finish() {
      if (done) return;
      done = true;
      clearTimeout(timer);
      world.remove(counting);
      resolve();
    }
  });
}
