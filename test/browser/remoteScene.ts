import { createCloth, createRope, createWind, World, type WorldOptions } from '../../src/core/index.js';
import { RemoteWorld, type TransportKind } from '../../src/worker/index.js';

// A scene run on a world on this thread and through a RemoteWorld whose module Worker starts
// from the sources (the default endpoint: `new URL('./workerMain.ts', import.meta.url)`, which
// Vite's dev server bundles), compared bit for bit (issue 30).

export const options: WorldOptions = { substeps: 2, kernel: 'wasm' };
export const delta = (frame: number) => [1 / 60, 1 / 30, 1 / 144, 1 / 50][frame % 4]!;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Positions, step-start and previous positions as raw bytes, for a bit-for-bit comparison. */
export function bits(world: World): Uint8Array {
  const n = world.particles.end * 3;
  const out = new Float64Array(3 * n);
  out.set(world.particles.position.subarray(0, n), 0);
  out.set(world.stepStartPositions.subarray(0, n), n);
  out.set(world.particles.previous.subarray(0, n), 2 * n);
  return new Uint8Array(out.buffer);
}

export function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

type Call = <A extends unknown[], R>(fn: (...args: A) => R, ...args: A) => R;

export function build(world: World, call: Call) {
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth = call(createCloth, world, { width: 12, height: 12, spacing: 0.08, corner: [-0.5, 1.5, 0], pin: 'top-corners' });
  const wind = call(createWind, world, { velocity: [0, 0, 2], gust: 0.3 });
  call(createRope, world, { from: [1, 1.5, 0], to: [2, 1.5, 0], segments: 8, pinStart: true });
  return { cloth, wind, call };
}

/** Moves a pin and the wind every frame; at frame 60 adds a cloth that outgrows the first frame buffer (shared path: a new SharedArrayBuffer mid-run). */
export function drive(world: World, scene: ReturnType<typeof build>, f: number) {
  if (f === 60) scene.call(createCloth, world, { width: 10, height: 10, spacing: 0.05, corner: [0.5, 1, 0.5], orientation: 'horizontal' });
  world.setPinTarget(scene.cloth.pins[0]!, [-0.5 + 0.2 * Math.sin(f / 5), 1.5, 0.2 * Math.cos(f / 5)]);
  scene.wind.velocity = [Math.sin(f / 7), 0, 2 + Math.cos(f / 3)];
}

/** Waits (a few seconds at most) until every advance sent has its frame read into the shadow. */
export async function caughtUp(remote: RemoteWorld): Promise<void> {
  for (let t = 0; t < 5000; t++) {
    remote.sync();
    if (remote.stats.behind === 0) return;
    await tick();
  }
  throw new Error(`the worker did not catch up: ${remote.stats.behind} frames behind`);
}

export async function lockstep(transport: TransportKind | 'auto') {
  const errors: Error[] = [];
  const remote = new RemoteWorld({ world: options, transport, onError: (e) => errors.push(e) });
  const plain = new World(options);
  const ps = build(plain, (fn, ...args) => fn(...args));
  const rs = build(remote.world, (fn, ...args) => remote.call(fn, ...args));
  let firstDifference = -1;
  try {
    for (let f = 0; f < 120; f++) {
      drive(plain, ps, f);
      drive(remote.world, rs, f);
      plain.advance(delta(f));
      remote.world.advance(delta(f));
      await caughtUp(remote);
      if (firstDifference < 0 && (!same(bits(plain), bits(remote.shadow)) || plain.stepCount !== remote.shadow.stepCount)) firstDifference = f;
    }
  } finally {
    remote.dispose();
  }
  return { firstDifference, errors, steps: plain.stepCount, kernel: plain.kernel, transport: remote.transport };
}
