import { describe, expect, it } from 'vitest';
import { Attractor, Buoyancy, ElectricForce, ForceCallback, GravitationalForce, Springs, World, explode, hit, type Vec3 } from '../../src/core/index.js';
import { particleState, steppers, type AccelerationFunction, type StepperName } from '../../src/teaching/index.js';
import { leastAllocation } from '../support/heap.js';

/** Bytes allocated by `run(n)` (the least of three runs, see test/support/heap.ts). */
const leastGrowth = (run: (n: number) => void, n: number) => leastAllocation(() => run(n));

/** Forty particles under every force: springs, sticks, an attractor, water, gravitation, charges and a callback. */
function forceScene() {
  const world = new World({ damping: 0.05 });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: -2 });
  const n = 40;
  const first = world.addParticles(Array.from({ length: n }, (_, k) => ({ position: [Math.cos(k) * 0.8, 0.5 + (k % 5) * 0.2, Math.sin(k) * 0.8] as Vec3, radius: 0.05, mass: 0.2 + (k % 3) * 0.1 })));
  const springs = new Springs(world);
  for (let k = 0; k + 1 < n; k += 2) springs.add(first + k, first + k + 1, { stiffness: 30, damping: 0.2 });
  for (let k = 1; k + 2 < n; k += 4) world.addStick(first + k, first + k + 2);
  const attractor = new Attractor({ position: [0, 0.5, 0], strength: 4.5, radius: 3 });
  const electric = new ElectricForce({ K: 0.01, softening: 0.05 });
  for (let k = 0; k < 10; k++) electric.setCharge(first + k, k % 2 === 0 ? 1 : -1);
  const members = Array.from({ length: 12 }, (_, k) => first + 10 + k);
  let count = 0;
  world.addForce(attractor);
  world.addForce(new Buoyancy({ level: 0 }));
  world.addForce(new GravitationalForce({ G: 0.01, softening: 0.05, particles: members }));
  world.addForce(electric);
  world.addForce(springs);
  world.addForce(new ForceCallback(() => count++));
  return { world, first, n, attractor, calls: () => count };
}

describe('forces and motion control', () => {
  it('allocate nothing per step: 10,000 steps with every force leave the heap flat', () => {
    const { world, attractor, calls } = forceScene();
    const point: Vec3 = [0, 0.5, 0];
    const drive = (steps: number) => {
      for (let i = 0; i < steps; i++) {
        // The pointer-following attractor moves every frame.
        point[0] = Math.sin(i * 0.01);
        attractor.position = point;
        world.step();
      }
    };
    // Warm up the same call sites: the first calls allocate JIT feedback and code, not garbage.
    drive(3000);
    // A leak of a single 16-byte object per step would add >= 160 kB.
    expect(leastGrowth(drive, 10000)).toBeLessThan(16 * 1024);
    expect(calls()).toBeGreaterThan(30000);
    for (let i = 0; i < world.particles.end * 3; i++) expect(Number.isFinite(world.positions[i]!)).toBe(true);
  }, 60_000);

  it('explosions and hits allocate nothing either, even one every step', () => {
    const { world, first, n } = forceScene();
    const center: Vec3 = [0, -1, 0];
    const up: Vec3 = [0, 1, 0];
    const blast = { strength: 1e-7, radius: 1 };
    // Called every iteration: a branch taken once in hundreds of steps would measure
    // the JIT recompiling the loop around it, not the calls.
    const drive = (steps: number) => {
      for (let i = 0; i < steps; i++) {
        explode(world, center, blast);
        hit(world, first + (i % n), up, 1e-6);
        world.step();
      }
    };
    drive(3000);
    expect(leastGrowth(drive, 10000)).toBeLessThan(16 * 1024);
  }, 60_000);

  it('the teaching steppers allocate nothing per step', () => {
    const spring: AccelerationFunction = (p, _v, out) => {
      out[0] = -p[0];
      out[1] = -p[1];
      out[2] = -p[2];
    };
    for (const name of Object.keys(steppers) as StepperName[]) {
      const state = particleState([1, 0, 0], [0, 1, 0]);
      const step = steppers[name].step;
      const run = (count: number) => {
        for (let i = 0; i < count; i++) step(state, spring, 0.001);
      };
      // Long enough for V8 to optimise the stepper: interpreted code boxes every double.
      run(30000);
      expect(leastGrowth(run, 10000), name).toBeLessThan(16 * 1024);
    }
  }, 60_000);
});
