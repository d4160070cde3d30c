import { describe, expect, it } from 'vitest';
import { createCloth, createRope, World } from '../../src/core/index.js';
import { runThrow, throwMatrix } from './clothSurfaceScenes.js';

// Issue 25, item 2: a rope cannot pass through a cloth. A rope's particles are
// points; by default (`segmentContacts`) the segments between consecutive ones
// are capsules of their ends' radius that meet other bodies' triangles, so
// neither a particle nor the stretch of rope between two of them goes through.
// Every option at its default: particles of radius 0 on both, which the contact
// keeps 2 mm apart (`SURFACE_SKIN`). Thrown at the default cloth at the default
// spacing (clothSurfaceScenes.ts), checked by clothCrossing.ts.
//
// Measured (24 throws × both kernels): with the segments and the triangles, no
// crossing; with the cloth as particles alone (`surfaceContacts: false`, and so
// before: a rope and a cloth did not collide at all), every throw went through.

describe('a cloth is a surface to a rope', () => {
  it('a 1 m rope of ten segments thrown at a default cloth at 0–8 m/s, 0–63° off vertical, never passes through it; both kernels agree bit for bit', () => {
    const report = throwMatrix('rope');
    expect(report.crossed).toEqual([]);
    expect(report.crossings).toBe(0);
    expect(report.sameBits).toBe(true);
  }, 120_000);

  it('with the cloth as particles alone the same rope falls through it', () => {
    expect(runThrow({ thrown: 'rope', speed: 0, angle: 0, seed: 1, surfaceContacts: false }).check.crossings).toBeGreaterThan(0);
  });

  it('a rope draped over a cloth rests on it, 2 mm up, and slides off its edge rather than through it', () => {
    const world = new World();
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const cloth = createCloth(world, { width: 11, height: 11, corner: [-0.5, 1, -0.5], orientation: 'horizontal', pin: 'corners' });
    // Across the middle, longer than the cloth: its ends hang over two edges.
    const rope = createRope(world, { from: [-0.8, 1.2, 0.03], to: [0.8, 1.2, 0.03], segments: 32 });
    for (let i = 0; i < 240; i++) world.step();
    const middle = world.getPosition(rope.first + 16);
    const under = world.getPosition(cloth.particle(5, 5));
    // Over the middle particle (at z = 0, the rope at 0.03): its triangles' plane, 2 mm under the rope.
    expect(middle[1]).toBeGreaterThan(under[1]);
    expect(middle[1] - under[1]).toBeLessThan(0.01);
    // Its ends hang over the edges, below the cloth.
    expect(world.getPosition(rope.first)[1]).toBeLessThan(under[1]);
  });
});
