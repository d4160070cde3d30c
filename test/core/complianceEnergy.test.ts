import { describe, expect, it } from 'vitest';
import { createCloth, createRope, wasmKernelAvailable, World, type StickKernel } from '../../src/core/index.js';
import { hangingFloors, measureEnergy } from './energyAudit.js';

// The energy audit (energy.test.ts, measured as energyAudit.ts says) for
// compliant sticks: their springs store energy ½·C²/α (C = length − rest), so
// the total is kinetic + gravitational + elastic. XPBD's projection is implicit
// in the spring force and can only take energy out; nothing may gain any.

const kernels: StickKernel[] = wasmKernelAvailable() ? ['js', 'wasm'] : ['js'];
const settings = [
  { substeps: 5, iterations: 1 },
  { substeps: 10, iterations: 1 },
  { substeps: 20, iterations: 2 },
];
const SECONDS = 20;

/** ½·C²/α summed over the world's compliant sticks, C measured at the substep's midpoint as the audit measures the potential. */
function elasticEnergy(world: World): number {
  const { a, b, rest, compliance, count } = world.sticks;
  const pos = world.particles.position;
  const prev = world.particles.previous;
  let energy = 0;
  for (let row = 0; row < count; row++) {
    if (compliance[row] === 0) continue;
    let d2 = 0;
    for (let k = 0; k < 3; k++) {
      const d = (pos[b[row]! * 3 + k]! + prev[b[row]! * 3 + k]! - pos[a[row]! * 3 + k]! - prev[a[row]! * 3 + k]!) / 2;
      d2 += d * d;
    }
    const c = Math.sqrt(d2) - rest[row]!;
    energy += (0.5 * c * c) / compliance[row]!;
  }
  return energy;
}

/** Largest (E − E₀)/E₀ and largest rise above the lowest energy so far (/E₀) over `SECONDS`. */
function audit(world: World, ids: number[], floors: Float64Array): { maxGain: number; maxRise: number; kept: number } {
  const total = () => {
    const e = measureEnergy(world, ids, floors);
    return e.kinetic + e.potential + elasticEnergy(world);
  };
  const e0 = total();
  let maxGain = -Infinity;
  let maxRise = 0;
  let lowest = e0;
  let e = e0;
  for (let s = 0; s < SECONDS * 60; s++) {
    world.step();
    e = total();
    maxGain = Math.max(maxGain, (e - e0) / e0);
    lowest = Math.min(lowest, e);
    maxRise = Math.max(maxRise, (e - lowest) / e0);
  }
  return { maxGain, maxRise, kept: e / e0 };
}

const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

const scenes = [
  {
    name: 'a 15-link compliant rope released horizontal from its pinned end (stretching 1% under its own weight)',
    build(world: World) {
      const rope = createRope(world, { from: [0, 0, 0], to: [1.5, 0, 0], segments: 15, pinStart: true, particleMass: 1 });
      for (const id of rope.sticks) world.setStick(id, { compliance: 1e-4 });
      const ids = range(rope.first, rope.count);
      return { ids, floors: hangingFloors(world, ids, [0, 0, 0]) };
    },
  },
  {
    name: 'a 10 × 10 compliant cloth pinned at one corner, released lying flat',
    build(world: World) {
      const cloth = createCloth(world, { width: 10, height: 10, spacing: 0.1, orientation: 'horizontal', pin: [0], particleMass: 1, structural: { compliance: 1e-4 }, shear: { compliance: 1e-3 } });
      const ids = range(cloth.first, cloth.count);
      return { ids, floors: hangingFloors(world, ids, [0, 0, 0]) };
    },
  },
];

describe('energy audit of compliant sticks: with damping 0 nothing gains energy over 20 s', () => {
  for (const scene of scenes) {
    for (const kernel of kernels) {
      for (const { substeps, iterations } of settings) {
        it(`${scene.name}, ${kernel} kernel, ${substeps} substeps × ${iterations} iterations`, () => {
          const world = new World({ damping: 0, kernel, substeps, iterations });
          const { ids, floors } = scene.build(world);
          const result = audit(world, ids, floors);
          expect(result.maxGain).toBeLessThanOrEqual(0.02);
          expect(result.maxRise).toBeLessThanOrEqual(0.05);
        });
      }
    }
  }

  it('the audit counts the springs: without the elastic energy a stretched, released stick looks like a loss of it all', () => {
    // Two free 1 kg particles on a stick of α = 1e-3 m/N, stretched 1 cm and let go without gravity: all the energy is elastic at first.
    const world = new World({ damping: 0, gravity: [0, 0, 0], substeps: 20 });
    const a = world.addParticle({ position: [0, 0, 0] });
    const b = world.addParticle({ position: [0.51, 0, 0] });
    world.addStick(a, b, { length: 0.5, compliance: 1e-3 });
    expect(elasticEnergy(world)).toBeCloseTo((0.5 * 0.01 * 0.01) / 1e-3, 12);
    const floors = new Float64Array(2);
    const result = audit(world, [a, b], floors);
    // Bounded: it oscillates between elastic and kinetic, and XPBD only takes energy out.
    expect(result.maxGain).toBeLessThanOrEqual(0.02);
    expect(result.kept).toBeGreaterThan(0);
    expect(result.kept).toBeLessThan(1);
  });
});
