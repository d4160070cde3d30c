import { describe, expect, it } from 'vitest';
import { createRagdoll, World, type StickKernel, type Vec3 } from '../../src/core/index.js';
import { LimitFriction } from '../../src/core/bodies/limitFriction.js';
import { setRigidMotion } from '../support/rigidMotion.js';

// Issue 11, "ragdolls come to rest": the friction of a joint pressed on its limit
// (bodies/limitFriction.ts). What it must be: internal, so every correction keeps
// momentum and angular momentum; dissipative, so none raises the kinetic energy;
// and what it is for, so a head swinging around its neck's cone stops.

interface Audit {
  corrections: number;
  /**
   * Largest |Σ m·Δx| (m) and |Σ m·x × Δx| (m²) of one call, over the mass it
   * moved: round-off in positions near 1 m is about 1e-16 m; one correction moves
   * up to a few 1e-5 m, so one that moved momentum would show 1e-6 and more.
   */
  momentum: number;
  angularMomentum: number;
  /** Largest rise of Σ m·|x − x_prev|² over one correction (should be ≤ 0). */
  energyRise: number;
  /** Largest Σ m·|x − x_prev|² taken out by one correction. */
  energyDrop: number;
}

/** Wraps the world's friction stages so that each call is measured around. */
function auditFriction(world: World): Audit {
  const audit: Audit = { corrections: 0, momentum: 0, angularMomentum: 0, energyRise: 0, energyDrop: 0 };
  for (const stage of world.substepStages) {
    if (!(stage instanceof LimitFriction)) continue;
    const run = stage.afterRelax.bind(stage);
    stage.afterRelax = (w: World) => {
      const particles = w.particles;
      const before = Float64Array.from(particles.position);
      const kinetic = (pos: Float64Array) => {
        let sum = 0;
        for (let i = 0; i < particles.count; i++) {
          const wi = particles.inverseMass[i]!;
          if (wi === 0) continue;
          for (let k = 0; k < 3; k++) sum += (pos[i * 3 + k]! - particles.previous[i * 3 + k]!) ** 2 / wi;
        }
        return sum;
      };
      const k0 = kinetic(before);
      run(w);
      const p = [0, 0, 0];
      const l = [0, 0, 0];
      let moved = 0;
      for (let i = 0; i < particles.count; i++) {
        const wi = particles.inverseMass[i]!;
        if (wi === 0) continue;
        const m = 1 / wi;
        const x = [0, 1, 2].map((k) => before[i * 3 + k]!) as Vec3;
        const d = [0, 1, 2].map((k) => particles.position[i * 3 + k]! - x[k]!) as Vec3;
        const size = Math.hypot(...d);
        if (size === 0) continue;
        moved += m;
        for (let k = 0; k < 3; k++) p[k] = p[k]! + m * d[k]!;
        l[0] = l[0]! + m * (x[1] * d[2] - x[2] * d[1]);
        l[1] = l[1]! + m * (x[2] * d[0] - x[0] * d[2]);
        l[2] = l[2]! + m * (x[0] * d[1] - x[1] * d[0]);
      }
      if (moved === 0) return;
      audit.corrections++;
      audit.momentum = Math.max(audit.momentum, Math.hypot(...p) / moved);
      audit.angularMomentum = Math.max(audit.angularMomentum, Math.hypot(...l) / moved);
      const k1 = kinetic(particles.position);
      audit.energyRise = Math.max(audit.energyRise, (k1 - k0) / k0);
      audit.energyDrop = Math.max(audit.energyDrop, k0 - k1);
    };
  }
  return audit;
}

const kernels: StickKernel[] = ['wasm', 'js'];

describe('limit friction', () => {
  for (const kernel of kernels) {
    it(`${kernel} kernel: a tumbling ragdoll flinging its head and arms against their limits: every correction keeps momentum and angular momentum and takes energy out`, () => {
      const world = new World({ kernel, damping: 0 });
      const doll = createRagdoll(world, { pose: 'T', feet: [0, 1, 0], jointDamping: 0 });
      const audit = auditFriction(world);
      setRigidMotion(world, doll.vertices, [2, 5, 1], [0, 3, 0]);
      // Head flung sideways and arms back: centrifugal and the flings press them on their limits.
      const add = (part: 'head' | 'leftElbow' | 'rightElbow', dv: Vec3) => {
        const v = world.getVelocity(doll.part(part));
        world.setVelocity(doll.part(part), [v[0] + dv[0], v[1] + dv[1], v[2] + dv[2]]);
      };
      add('head', [4, 0, -2]);
      add('leftElbow', [0, 3, -4]);
      add('rightElbow', [0, -3, -4]);
      for (let i = 0; i < 60; i++) world.step();
      expect(audit.corrections).toBeGreaterThan(50);
      expect(audit.energyDrop).toBeGreaterThan(0);
      expect(audit.momentum).toBeLessThan(1e-13);
      expect(audit.angularMomentum).toBeLessThan(1e-13);
      expect(audit.energyRise).toBeLessThanOrEqual(1e-12);
    });
  }

  it('is off with limitFriction: 0 (no stage) and rejects a bad coefficient, naming it', () => {
    const world = new World();
    createRagdoll(world, { limitFriction: 0 });
    expect(world.substepStages.some((s) => s instanceof LimitFriction)).toBe(false);
    const doll = createRagdoll(world, { feet: [2, 0, 0] });
    expect(world.substepStages.filter((s) => s instanceof LimitFriction)).toHaveLength(1);
    doll.remove();
    expect(world.substepStages.some((s) => s instanceof LimitFriction)).toBe(false);
    const particles = world.particleCount;
    for (const bad of [-0.1, Number.NaN, Infinity, '0.5']) {
      expect(() => createRagdoll(world, { limitFriction: bad as number })).toThrow(`createRagdoll: limitFriction must be a finite number in [0, Infinity], got ${String(bad)}`);
    }
    expect(world.particleCount).toBe(particles);
  });
});
