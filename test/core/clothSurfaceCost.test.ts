import { describe, expect, it } from 'vitest';
import { bodyContacts, createBox, createCloth, createRope, World } from '../../src/core/index.js';
import { leastAllocation } from '../support/heap.js';
import { throwScene } from './clothSurfaceScenes.js';

// What a cloth being a surface costs, counted rather than timed (timings are
// noisy on a shared machine; docs/contacts.md has the benches): the broad phase
// boxes a cloth's triangles only in a step where another body's box meets the
// cloth's, and the step allocates nothing.

describe('cloth as a surface: its cost', () => {
  it('a world of cloths alone runs no body-contact stage; a rope brings it, without the capsule and hull pair listing', () => {
    const world = new World();
    createCloth(world, { width: 8, height: 8 });
    expect(world.bodyContactStage).toBeNull();
    createRope(world, { from: [0, 2, 0], to: [1, 2, 0], segments: 8 });
    expect(world.bodyContactStage).toBe(bodyContacts(world));
    // The listing of pairs with capsules and hulls joins with the first of them (solidPairs.ts).
    expect(bodyContacts(world).broad.solids).toBeNull();
    createBox(world, { position: [3, 1, 0] });
    expect(bodyContacts(world).broad.solids).not.toBeNull();
  });

  it('a cloth with no other body near boxes no triangle and lists no candidate', () => {
    const world = new World();
    createCloth(world, { width: 32, height: 32, corner: [-1.55, 2, 0], pin: 'top-corners' });
    createBox(world, { size: 0.3, position: [5, 0.15, 0] });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const broad = bodyContacts(world).broad;
    let boxed = 0;
    for (let i = 0; i < 120; i++) {
      world.step();
      boxed += broad.boxedTriangles;
      expect(broad.count).toBe(0);
    }
    expect(boxed).toBe(0);
  });

  it("a box near it boxes the cloth's triangles", () => {
    const { world } = throwScene({ thrown: 'box', speed: 0, angle: 0, seed: 1 });
    const broad = bodyContacts(world).broad;
    const boxedAt: number[] = [];
    for (let i = 0; i < 30; i++) {
      world.step();
      if (broad.boxedTriangles > 0) boxedAt.push(i);
    }
    // Released 0.5 m over the cloth, the box's box (grown by its fall over the step) meets the cloth's within the first steps.
    expect(boxedAt.length).toBeGreaterThan(10);
    expect(broad.features.triangles).toBe(19 * 19 * 2);
  });

  it('allocates nothing: a rope and two boxes on a cloth, 3,000 steps, the heap stays flat', () => {
    // Box corners and edges, and rope segments, against the cloth's triangles (bodyContacts.test.ts has capsules).
    const { world } = throwScene({ thrown: 'box', speed: 2, angle: 0.3, seed: 3 });
    createBox(world, { size: 0.3, position: [0.3, 1.6, 0.2], mass: 2 });
    createRope(world, { from: [-0.6, 1.4, -0.3], to: [0.6, 1.4, -0.3], segments: 12 });
    let tick = 0;
    // Throws everything up again now and then, from inside the step.
    world.addForce({
      apply(w) {
        if (++tick % 240 !== 0) return;
        const pos = w.particles.position;
        const prev = w.particles.previous;
        for (let i = 0; i < w.particleCount; i++) if (w.particles.inverseMass[i]! > 0) prev[i * 3 + 1] = pos[i * 3 + 1]! - 0.01;
      },
    });
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) world.step();
    };
    run(1500);
    expect(leastAllocation(() => run(3000))).toBeLessThan(16 * 1024);
  }, 300_000);
});
