import { describe, expect, it } from 'vitest';
import { World } from '../../src/core/index.js';

// Run under `node --expose-gc` (vite.config.ts sets execArgv for this project).
const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

describe('the step loop', () => {
  it('allocates nothing: 10,000 steps leave the heap flat', () => {
    expect(gc, 'node must run with --expose-gc').toBeTypeOf('function');
    const world = new World({ damping: 0.1, sqrtApprox: false });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    world.addCollider({ type: 'box', min: [-0.2, 0, -0.2], max: [0.2, 0.4, 0.2] });
    world.addCollider({ type: 'sphere', center: [0.5, 0.2, 0], radius: 0.2 });
    const n = 12;
    const first = world.addParticles(Array.from({ length: n * n }, (_, k) => ({ position: [(k % n) * 0.1 - 0.5, 1, Math.floor(k / n) * 0.1 - 0.5] as [number, number, number], radius: 0.01 })));
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        if (i + 1 < n) world.addStick(first + j * n + i, first + j * n + i + 1);
        if (j + 1 < n) world.addStick(first + j * n + i, first + (j + 1) * n + i, { kind: 'max' });
      }
    }
    const pin = world.addPin(first);
    world.addPin(first, [0, 1.2, 0]);
    const target: [number, number, number] = [0, 1.2, 0];
    const drive = (steps: number) => {
      for (let i = 0; i < steps; i++) {
        target[0] = Math.sin(i * 0.01) * 0.1;
        world.setPinTarget(pin, target);
        world.advance(1 / 60);
      }
    };
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) world.step();
    };
    // Warm up the same call sites: the first calls allocate JIT feedback and code, not garbage.
    drive(2000);
    run(2000);
    const before = heapAfterGc();
    drive(10000);
    const after = heapAfterGc();
    // A leak of a single 16-byte object per step would add >= 160 kB.
    expect(after - before).toBeLessThan(64 * 1024);
    // Without collections in between, heapUsed only grows if step() allocates:
    // 10,000 steps at even 16 bytes each would show 160 kB, below the size that
    // triggers a scavenge. V8 may still be optimising the step in the first runs
    // (interpreted code boxes doubles), so take the least growth of six runs: a
    // real per-step allocation shows in every run.
    const growth = [0, 1, 2, 3, 4, 5].map(() => {
      const start = heapAfterGc();
      run(10000);
      return process.memoryUsage().heapUsed - start;
    });
    expect(Math.min(...growth)).toBeLessThan(32 * 1024);
  }, 60_000);
});
