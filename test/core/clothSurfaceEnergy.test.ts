import { describe, expect, it } from 'vitest';
import { measureEnergy } from './energyAudit.js';
import { throwScene, type Thrown } from './clothSurfaceScenes.js';

// Issue 25, item 2, and issue 9's rule that nothing gains energy: the contacts
// between a cloth's triangles and a limb, a box or a rope only take energy out.
// Every throw of the cloth-as-a-surface scenes (damping 0, the default) is
// measured after every step with energyAudit.ts (kinetic + gravitational, floor
// at y = 0); the total never rises above what it started with, the cloth's and
// the thrown body's together.
//
// Measured: the largest total over the start, at every speed and kind, is
// -1.5 mJ (of 7–144 J), the first step's: the hammock takes energy out from the
// first contact, so the total never reaches its start again.

describe('cloth as a surface: no energy from nowhere', () => {
  for (const thrown of ['limb', 'box', 'rope'] as Thrown[]) {
    it(`a ${thrown} dropped or thrown at the cloth: the total energy never rises above its start`, () => {
      for (const speed of [0, 4, 8]) {
        const { world } = throwScene({ thrown, speed, angle: 0.5, seed: 2 });
        const ids = Array.from({ length: world.particleCount }, (_, k) => k);
        const start = measureEnergy(world, ids);
        const e0 = start.kinetic + start.potential;
        let most = -Infinity;
        for (let i = 0; i < 180; i++) {
          world.step();
          const e = measureEnergy(world, ids);
          most = Math.max(most, e.kinetic + e.potential - e0);
        }
        expect(most, `${thrown} at ${speed} m/s: ${((most / e0) * 100).toFixed(3)}% of ${e0.toFixed(2)} J`).toBeLessThanOrEqual(0);
      }
    });
  }
});
