import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCloth, createRope, wasmKernelAvailable, World, type StickKernel, type WorldOptions } from '../../src/core/index.js';
import { sticksWasm } from '../../src/core/wasm/sticks.generated.js';
import { clothWorkload } from '../bench/clothWorkload.js';
import { leastAllocation } from '../support/heap.js';

// The WebAssembly stick kernel (src/core/wasm) against the TypeScript loops: the
// same scene built twice, once per kernel, must end with the same positions bit
// for bit (the kernel does the same IEEE operations in the same order), long after
// the cloth has crumpled on the ground, where any difference would have grown.

/** A scene: builds into `world`, then returns what to do before each step (or nothing). */
type Scene = (world: World) => ((world: World, step: number) => void) | void;

/** Builds `scene` with `kernel`, runs `steps` steps, returns the world. */
function simulate(kernel: StickKernel, scene: Scene, steps: number, options: WorldOptions = {}): World {
  const world = new World({ ...options, kernel });
  const beforeStep = scene(world);
  for (let i = 0; i < steps; i++) {
    beforeStep?.(world, i);
    world.step();
  }
  return world;
}

const positions = (world: World) => world.particles.position.slice(0, world.particles.end * 3);
const previous = (world: World) => world.particles.previous.slice(0, world.particles.end * 3);

/** Runs `scene` with both kernels and expects identical positions; returns both worlds. */
function expectSamePhysics(scene: Scene, steps: number, options: WorldOptions = {}): { js: World; wasm: World } {
  const js = simulate('js', scene, steps, options);
  const wasm = simulate('wasm', scene, steps, options);
  expect(js.kernel).toBe('js');
  expect(wasm.kernel).toBe('wasm');
  expect(positions(wasm)).toEqual(positions(js));
  expect(previous(wasm)).toEqual(previous(js));
  // Something happened: the scene did not just sit there.
  const start = positions(simulate('js', scene, 0, options));
  const end = positions(js);
  let moved = 0;
  for (let i = 0; i < start.length; i++) moved = Math.max(moved, Math.abs(end[i]! - start[i]!));
  expect(moved).toBeGreaterThan(0.05);
  return { js, wasm };
}

const ground = (world: World) => world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: -1, friction: 0.3 });

describe('the WebAssembly stick kernel', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is available in Node and is the default', () => {
    expect(wasmKernelAvailable()).toBe(true);
    expect(new World().kernel).toBe('wasm');
    expect(new World({ kernel: 'js' }).kernel).toBe('js');
  });

  it('stays small enough for browsers to compile synchronously on the main thread (4 kB)', () => {
    expect(sticksWasm.length).toBeLessThan(4096);
  });

  it('rejects an unknown kernel by name', () => {
    expect(() => new World({ kernel: 'simd' as StickKernel })).toThrow(/World: kernel must be 'wasm' or 'js', got 'simd'/);
    const world = new World();
    expect(() => {
      world.kernel = 3 as unknown as StickKernel;
    }).toThrow(/got 3/);
    expect(world.kernel).toBe('wasm');
  });

  it('gives the same physics on the benchmark cloth (coloured blocks, corners of infinite mass)', () => {
    const steps = 300;
    const run = (kernel: StickKernel) => {
      const world = clothWorkload(24);
      // cloth.c's plain relaxation: tethers would hold this cloth, hung at its rest width, all but still (3 cm in 300 steps), leaving the sticks little to do.
      world.tethers.enabled = false;
      world.kernel = kernel;
      for (let i = 0; i < steps; i++) world.step();
      return world;
    };
    const js = run('js');
    const wasm = run('wasm');
    expect(wasm.kernel).toBe('wasm');
    expect(positions(wasm)).toEqual(positions(js));
    // It fell and swings from its corners: the middle of the bottom row sags more than 10 cm.
    const bottom = (24 * 23 + 12) * 3 + 1;
    expect(positions(clothWorkload(24))[bottom]! - positions(js)[bottom]!).toBeGreaterThan(0.1);
  });

  it('runs the cloth through the kernel, not the TypeScript loops', () => {
    const world = clothWorkload(24);
    const solve = vi.spyOn(world.stickKernel!, 'solve');
    world.step();
    // One segment (the loose sticks), ten passes.
    expect(solve).toHaveBeenCalledTimes(10);
  });

  it('gives the same physics with stiffness < 1, pins moved every step and a sphere', () => {
    expectSamePhysics((world) => {
      ground(world);
      world.addCollider({ type: 'sphere', position: [1.2, -0.6, 0.3], radius: 0.35 });
      const cloth = createCloth(world, { width: 30, height: 30, spacing: 0.08, structural: { stiffness: 0.9 }, shear: { stiffness: 0.5 }, bend: { stiffness: 0.2 }, pin: 'top-corners' });
      const pin = world.addPin(cloth.first + 15);
      return (w, step) => w.setPinTarget(pin, [1.2 + 0.3 * Math.sin(step * 0.05), 0.2, 0.4 * Math.sin(step * 0.03)]);
    }, 200);
  });

  it("gives the same physics for ropes of 'max' sticks, 'min' sticks and the square-root approximation", () => {
    const scene: Scene = (world) => {
      ground(world);
      const rope = createRope(world, { from: [0, 1, 0], to: [2, 1, 0], segments: 40, kind: 'max', pinStart: true, bendStiffness: 0.3 });
      const chain = createRope(world, { from: [0, 0.5, 1], to: [2, 0.5, 1], segments: 30, pinStart: true, pinEnd: true, length: 2.5 });
      // Struts that only push apart, between the rope and the chain.
      for (let i = 0; i <= 30; i += 3) world.addStick(rope.first + i, chain.first + i, { kind: 'min', length: 0.9 });
    };
    expectSamePhysics(scene, 250);
    expectSamePhysics(scene, 250, { sqrtApprox: true });
  });

  it('gives the same physics for immovable and coincident stick ends (the cases the kernel hands back)', () => {
    const { wasm } = expectSamePhysics((world) => {
      ground(world);
      createCloth(world, { width: 24, height: 24, pin: 'top' });
      // Both ends immovable (Σw = 0), and two particles on top of each other (jittered apart, seeded).
      const a = world.addParticle({ position: [3, 0, 0], mass: 0 });
      const b = world.addParticle({ position: [3.5, 0, 0], mass: Infinity });
      world.addStick(a, b);
      for (let k = 0; k < 3; k++) {
        const p = world.addParticle({ position: [4, 0.5 * k, 0] });
        const q = world.addParticle({ position: [4, 0.5 * k, 0] });
        world.addStick(p, q, { length: 0.2 });
        world.addStick(a, p);
      }
    }, 150);
    // The kernel did hand the immovable stick back (it returns the stick before `to`).
    const solve = vi.spyOn(wasm.stickKernel!, 'solve');
    wasm.step();
    expect(solve.mock.calls.some((call, i) => (solve.mock.results[i]!.value as number) < call[1])).toBe(true);
  });

  it('gives the same physics when sticks are removed mid-simulation', () => {
    expectSamePhysics((world) => {
      ground(world);
      createCloth(world, { width: 30, height: 30, spacing: 0.08, pin: 'top' });
      return (w, step) => {
        // Rows move inside the ordered table (the last row of each later segment fills the hole).
        const every = step === 60 ? 5 : step === 90 ? 7 : 0;
        if (every === 0) return;
        for (const id of Array.from(w.sticks.ids.subarray(0, w.sticks.count))) if (id % every === 0) w.removeConstraint(id);
      };
    }, 200);
  });

  it('gives the same physics when the particle store and the stick table grow mid-simulation', () => {
    const { wasm } = expectSamePhysics((world) => {
      ground(world);
      createCloth(world, { width: 20, height: 20, pin: 'top' });
      return (w, step) => {
        if (step === 50) createCloth(w, { width: 40, height: 40, spacing: 0.05, corner: [3, 1, 0], pin: 'top-corners' });
        if (step === 80) createRope(w, { from: [0, 1, 2], to: [3, 1, 2], segments: 300, pinStart: true });
      };
    }, 150);
    // The grown arrays went back into the kernel's memory: the kernel is still on and they are its views.
    expect(wasm.kernel).toBe('wasm');
    expect(wasm.particles.position.buffer).toBe(wasm.sticks.rest.buffer);
    expect(wasm.particles.capacity).toBeGreaterThanOrEqual(20 * 20 + 40 * 40 + 301);
  });

  it('never detaches an ArrayBuffer: old views stay readable after growth', () => {
    // The first detached ArrayBuffer in a process (memory.grow() detaches the old
    // buffer) makes V8 check every optimised typed-array access for detachment
    // from then on: 25-35% slower stick loops, and every other typed-array loop.
    const world = new World();
    createCloth(world, { width: 8, height: 8 });
    const views = [world.particles.position, world.particles.inverseMass, world.sticks.a, world.sticks.b, world.sticks.rest, world.sticks.stiffness];
    const lengths = views.map((view) => view.length);
    for (let k = 0; k < 6; k++) createCloth(world, { width: 30, height: 30, corner: [k, 0, 0] });
    world.step();
    expect(world.kernel).toBe('wasm');
    expect(world.particles.position).not.toBe(views[0]);
    expect(views.map((view) => view.length)).toEqual(lengths);
  });

  it('a stale view kept across growth writes into its old region, never into another column', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const first = world.addParticles(Array.from({ length: 64 }, (_, k) => ({ position: [k, 5, 5] as [number, number, number] })));
    world.addStick(first, first + 1);
    const stale = world.particles.inverseMass;
    // Outgrow the store: the kernel lays the columns out again, in the same memory.
    const late = world.addParticles(Array.from({ length: 70 }, (_, k) => ({ position: [100 + k, 5, 5] as [number, number, number] })));
    expect(world.particles.inverseMass).not.toBe(stale);
    stale.fill(0);
    for (let i = 0; i < 134; i++) expect(world.getPosition(i < 64 ? first + i : late + i - 64)).toEqual([i < 64 ? i : 36 + i, 5, 5]);
    expect(world.particles.inverseMass[late]).toBe(1);
  });

  it('gives the same physics across a snapshot restore and a switch of kernels', () => {
    const run = (switching: boolean) => {
      const world = new World({ kernel: switching ? 'wasm' : 'js' });
      ground(world);
      createCloth(world, { width: 30, height: 30, spacing: 0.08, pin: 'top-corners' });
      for (let i = 0; i < 40; i++) world.step();
      const snapshot = world.snapshot();
      for (let i = 0; i < 40; i++) world.step();
      world.restore(snapshot);
      if (switching) world.kernel = 'js';
      for (let i = 0; i < 40; i++) world.step();
      if (switching) world.kernel = 'wasm';
      for (let i = 0; i < 40; i++) world.step();
      return world;
    };
    const js = run(false);
    const switched = run(true);
    expect(switched.kernel).toBe('wasm');
    expect(positions(switched)).toEqual(positions(js));
  });

  it('falls back to the TypeScript loops when no memory can be had', () => {
    const scene: Scene = (world) => {
      ground(world);
      createCloth(world, { width: 10, height: 10, pin: 'top' });
      return (w, step) => {
        if (step !== 30) return;
        if (w.kernel === 'wasm') {
          vi.spyOn(WebAssembly, 'Memory').mockImplementation(function () {
            throw new RangeError('out of memory');
          });
        }
        createCloth(w, { width: 30, height: 30, corner: [2, 0, 0], pin: 'top' });
      };
    };
    const js = simulate('js', scene, 100);
    const wasm = simulate('wasm', scene, 100);
    expect(wasm.kernel).toBe('js');
    expect(positions(wasm)).toEqual(positions(js));
  });

  it('falls back to the TypeScript loops without an error where WebAssembly SIMD is unavailable', async () => {
    vi.resetModules();
    vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    const fresh = await import('../../src/core/index.js');
    expect(fresh.wasmKernelAvailable()).toBe(false);
    const world = new fresh.World({ kernel: 'wasm' });
    expect(world.kernel).toBe('js');
    world.kernel = 'wasm';
    expect(world.kernel).toBe('js');
    fresh.createCloth(world, { width: 10, height: 10, pin: 'top' });
    world.step();
  });

  it('allocates nothing per step', () => {
    const world = clothWorkload(24);
    expect(world.kernel).toBe('wasm');
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) world.step();
    };
    run(2000);
    // 5,000 steps at even 16 bytes each would allocate 80 kB (test/support/heap.ts says why the young generation is measured).
    expect(leastAllocation(() => run(5000))).toBeLessThan(16 * 1024);
  }, 60_000);
});
