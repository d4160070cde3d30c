import { describe, expect, it } from 'vitest';
import { World, createCloth, createPlant, createRope, createSoftBody, createWind } from '../../src/core/index.js';
import { leastAllocation, leastRetained } from '../support/heap.js';

describe('cloth, rope, plant, soft body and wind in the step loop', () => {
  it('allocate nothing: 4,000 steps leave the heap flat', async () => {
    const world = new World({ damping: 0.5 });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    // Tearing is on, with a threshold this cloth never reaches: the check runs every step.
    const cloth = createCloth(world, { width: 8, height: 8, spacing: 0.05, corner: [-1, 1.5, 0], pin: 'top', bend: { stiffness: 0.3 }, tearStrain: 1 });
    createRope(world, { from: [0.5, 2, 0], to: [1.5, 2, 0], segments: 12, length: 1.3, kind: 'max', pinStart: true, pinEnd: true, bendStiffness: 0.2 });
    createPlant(world, { root: [2, 0, 0] });
    const jelly = createSoftBody(world, { shape: 'box', position: [0, 0.5, 1], size: 0.3, resolution: 2, radius: 0.01 });
    const ball = createSoftBody(world, { shape: 'sphere', position: [1, 0.5, 1], size: 0.3, resolution: 1 });
    createWind(world, { velocity: [0, 0, 3], gust: 0.5, turbulence: 0.4, turbulenceScale: 0.3 });
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) world.step();
    };
    // Warm up the same call sites: the first calls allocate JIT feedback and code, not garbage.
    run(3000);
    expect(await leastRetained(() => run(4000))).toBeLessThan(64 * 1024);
    // 4,000 steps at even 16 bytes each would allocate 64 kB.
    expect(leastAllocation(() => run(4000))).toBeLessThan(16 * 1024);
    // The scene stayed whole and alive.
    expect(cloth.torn).toBe(0);
    expect(Math.abs(jelly.volume() / jelly.restVolume - 1)).toBeLessThan(0.05);
    expect(Math.abs(ball.volume() / ball.restVolume - 1)).toBeLessThan(0.05);
    for (let i = 0; i < world.positions.length; i++) expect(Number.isFinite(world.positions[i])).toBe(true);
  }, 120_000);
});
