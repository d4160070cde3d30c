import { describe, expect, it } from 'vitest';
import { World } from '../../src/core/index.js';
import { leastAllocation, leastRetained } from '../support/heap.js';

describe('the step loop', () => {
  it('allocates nothing: 10,000 steps leave the heap flat', async () => {
    const world = new World({ damping: 0.1, sqrtApprox: false });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    world.addCollider({ type: 'box', min: [-0.2, 0, -0.2], max: [0.2, 0.4, 0.2] });
    world.addCollider({ type: 'sphere', position: [0.5, 0.2, 0], radius: 0.2 });
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
    // A leak of a single 16-byte object per step would keep >= 160 kB.
    expect(await leastRetained(() => drive(10000))).toBeLessThan(64 * 1024);
    // 4,000 steps at even 16 bytes each would allocate 64 kB (test/support/heap.ts
    // says why the young generation is what is measured).
    expect(leastAllocation(() => run(4000))).toBeLessThan(16 * 1024);
    // Per frame, advance() reads performance.now() twice for `stats`, and each reading is a
    // new 16-byte heap number; anything more (a tuple is 32 bytes) would add 128 kB.
    expect(leastAllocation(() => drive(4000))).toBeLessThan(4000 * 2 * 16 + 16 * 1024);
    // A guard, not a goal: about 20 s alone, and it passed 60 s once on a machine running three suites at once.
  }, 180_000);
});
