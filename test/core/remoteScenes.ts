import { createCloth, createWind, World, type WorldOptions } from '../../src/core/index.js';
import { connectInProcess, RemoteWorld, type TransportKind } from '../../src/worker/index.js';

// What the RemoteWorld tests (remoteWorld.test.ts, remoteWorldRefusals.test.ts) share: a scene
// built and driven alike on a plain World and through a RemoteWorld, and the bits they compare.

/** Both ways a frame's positions reach the main thread. */
export const transports: TransportKind[] = ['transfer', 'shared'];

/** What a scene is built and driven with: a plain world, or a remote one. */
export interface Api {
  world: World;
  call<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R;
  construct<A extends unknown[], T>(Class: new (...args: A) => T, ...args: A): T;
}

export const plainApi = (world: World): Api => ({ world, call: (fn, ...args) => fn(...args), construct: (Class, ...args) => new Class(...args) });
export const remoteApi = (remote: RemoteWorld): Api => ({ world: remote.world, call: (fn, ...args) => remote.call(fn, ...args), construct: (Class, ...args) => remote.construct(Class, ...args) });

/** Frame deltas of an uneven display: frames of one, two and no steps. */
export const delta = (frame: number) => [1 / 60, 1 / 30, 1 / 144, 1 / 50][frame % 4]!;

/** The positions, step-start positions and previous positions of `world` as raw bits (what a frame carries). */
export function bits(world: World): Uint8Array[] {
  const n = world.particles.end * 3;
  const copy = (a: Float64Array) => new Uint8Array(a.slice(0, n).buffer);
  return [copy(world.particles.position), copy(world.stepStartPositions), copy(world.particles.previous)];
}

/** Index of the first differing byte of a and b (or of their lengths), or -1. */
export function firstDifference(a: Uint8Array[], b: Uint8Array[]): number {
  for (let k = 0; k < a.length; k++) {
    if (a[k]!.length !== b[k]!.length) return 0;
    for (let i = 0; i < a[k]!.length; i++) if (a[k]![i] !== b[k]![i]) return i;
  }
  return -1;
}

export type Scene<S> = { build(api: Api): S; drive(api: Api, state: S, frame: number): void };

/**
 * Runs `scene` for `frames` frames on a plain world and on a remote one with the same
 * options, deltas and commands; returns the first frame whose positions differ (-1: none)
 * and how far the plain world's particles moved in all (so a test can see the scene ran).
 */
export function compare<S>(scene: Scene<S>, options: WorldOptions, transport: TransportKind, frames: number) {
  const plain = new World(options);
  const remote = new RemoteWorld({
    world: options,
    endpoint: connectInProcess().endpoint,
    transport,
    onError: (e) => {
      throw e;
    },
  });
  const p = plainApi(plain);
  const r = remoteApi(remote);
  const ps = scene.build(p);
  const rs = scene.build(r);
  const start = plain.particles.position.slice(0, plain.particles.end * 3);
  let differs = -1;
  for (let f = 0; f < frames && differs < 0; f++) {
    scene.drive(p, ps, f);
    scene.drive(r, rs, f);
    plain.advance(delta(f));
    remote.world.advance(delta(f));
    if (firstDifference(bits(plain), bits(remote.shadow)) >= 0 || plain.stepCount !== remote.shadow.stepCount || plain.alpha !== remote.shadow.alpha) differs = f;
  }
  let moved = 0;
  for (let i = 0; i < start.length; i++) moved += Math.abs(plain.particles.position[i]! - start[i]!);
  const stats = { ...remote.stats };
  remote.dispose();
  return { differs, moved, steps: plain.stepCount, stats };
}

/** A cloth hanging from two pins, one pin carried in a circle, wind changed every frame (assigned and written in place), a kinematic capsule swept through it. */
export const clothScene: Scene<{ cloth: ReturnType<typeof createCloth>; wind: ReturnType<typeof createWind>; bat: number }> = {
  build: (api) => {
    api.world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const cloth = api.call(createCloth, api.world, { width: 10, height: 10, spacing: 0.1, corner: [-0.5, 1.5, 0], pin: 'top-corners' });
    const wind = api.call(createWind, api.world, { velocity: [0, 0, 2], gust: 0.3 });
    const bat = api.world.addCollider({ type: 'capsule', a: [0, 0, 0], b: [0, 0.6, 0], radius: 0.05, kinematic: true });
    return { cloth, wind, bat };
  },
  drive: (api, { cloth, wind, bat }, f) => {
    api.world.setPinTarget(cloth.pins[0]!, [-0.5 + 0.2 * Math.sin(f / 5), 1.5, 0.2 * Math.cos(f / 5)]);
    if (f % 2 === 0) wind.velocity = [Math.sin(f / 7), 0, 2 + Math.cos(f / 3)];
    else wind.velocity[0] = -0.5;
    api.world.setColliderPose(bat, [-0.6 + f * 0.02, 0.6, 0.1], [0, 0, 0, 1]);
  },
};
