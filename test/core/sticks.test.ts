import { describe, expect, it } from 'vitest';
import { World } from '../../src/core/index.js';
import { hangingChain } from './scenes.js';

const still = { gravity: [0, 0, 0] as const, substeps: 1, iterations: 1 };
const distance = (w: World, a: number, b: number) => {
  const p = w.getPosition(a);
  const q = w.getPosition(b);
  return Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]);
};

describe('sticks', () => {
  it('share a correction by inverse mass and restore the rest length in one pass', () => {
    const world = new World(still);
    const a = world.addParticle({ position: [0, 0, 0], mass: 1 });
    const b = world.addParticle({ position: [2, 0, 0], mass: 3 });
    world.addStick(a, b, { length: 1 });
    world.step();
    // Error 1 m, shared 3:1 (w_a = 1, w_b = 1/3): a moves 0.75, b moves 0.25.
    expect(world.getPosition(a)[0]).toBeCloseTo(0.75, 12);
    expect(world.getPosition(b)[0]).toBeCloseTo(1.75, 12);
    expect(distance(world, a, b)).toBeCloseTo(1, 12);
  });

  it('leave the centre of mass and total momentum unchanged', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const a = world.addParticle({ position: [0, 0, 0], velocity: [1, 2, 0], mass: 2 });
    const b = world.addParticle({ position: [1, 0, 0], velocity: [-3, 0, 1], mass: 0.5 });
    world.addStick(a, b);
    const momentum = () => {
      const va = world.getVelocity(a);
      const vb = world.getVelocity(b);
      return va.map((v, k) => 2 * v + 0.5 * vb[k]!);
    };
    const p0 = momentum();
    for (let i = 0; i < 200; i++) {
      world.step();
      momentum().forEach((p, k) => expect(p).toBeCloseTo(p0[k]!, 9));
      expect(distance(world, a, b)).toBeCloseTo(1, 9);
    }
  });

  it('with stiffness s repair that share of the error per pass (soft constraints)', () => {
    const world = new World(still);
    const a = world.addParticle({ position: [0, 0, 0] });
    const b = world.addParticle({ position: [1.6, 0, 0] });
    world.addStick(a, b, { length: 1, stiffness: 0.5 });
    world.setVelocity(a, [0, 0, 0]);
    world.step();
    expect(distance(world, a, b)).toBeCloseTo(1.3, 12);
  });

  it("kind 'min' only pushes apart and 'max' only pulls together", () => {
    const world = new World(still);
    const a = world.addParticle({ position: [0, 0, 0] });
    const b = world.addParticle({ position: [0.5, 0, 0] });
    const c = world.addParticle({ position: [10, 0, 0] });
    const d = world.addParticle({ position: [12, 0, 0] });
    world.addStick(a, b, { length: 1, kind: 'max' });
    world.addStick(c, d, { length: 1, kind: 'min' });
    world.step();
    expect(distance(world, a, b)).toBeCloseTo(0.5, 12); // slack rope: untouched
    expect(distance(world, c, d)).toBeCloseTo(2, 12); // far enough apart: untouched
    world.setPosition(b, [3, 0, 0], { keepVelocity: false });
    world.setPosition(d, [10.2, 0, 0], { keepVelocity: false });
    for (const id of [a, b, c, d]) world.setVelocity(id, [0, 0, 0]);
    world.step();
    expect(distance(world, a, b)).toBeCloseTo(1, 12);
    expect(distance(world, c, d)).toBeCloseTo(1, 12);
  });

  it('with the paper’s square-root approximation converge to the same shape', () => {
    const exact = hangingChain({ damping: 1 });
    const approx = hangingChain({ damping: 1, sqrtApprox: true });
    for (let i = 0; i < 600; i++) {
      exact.world.step();
      approx.world.step();
    }
    for (let id = exact.first; id <= exact.last; id++) {
      const p = exact.world.getPosition(id);
      approx.world.getPosition(id).forEach((x, k) => expect(x).toBeCloseTo(p[k]!, 4));
    }
    // Starting away from rest, the approximation still closes the gap pass by pass.
    const world = new World({ ...still, sqrtApprox: true, iterations: 20 });
    const a = world.addParticle({ position: [0, 0, 0] });
    const b = world.addParticle({ position: [1.3, 0, 0] });
    world.addStick(a, b, { length: 1 });
    world.step();
    expect(distance(world, a, b)).toBeCloseTo(1, 6);
  });

  it('separate coincident particles with a tiny seeded jitter, never NaN', () => {
    const run = () => {
      const world = new World({ ...still, seed: 42 });
      const a = world.addParticle({ position: [1, 1, 1] });
      const b = world.addParticle({ position: [1, 1, 1] });
      world.addStick(a, b, { length: 0.5 });
      world.step();
      return [...world.getPosition(a), ...world.getPosition(b)];
    };
    const p = run();
    expect(p.every(Number.isFinite)).toBe(true);
    expect(Math.hypot(p[3]! - p[0]!, p[4]! - p[1]!, p[5]! - p[2]!)).toBeCloseTo(0.5, 9);
    expect(run()).toEqual(p);
  });

  it('can be changed in place and removed', () => {
    const world = new World(still);
    const a = world.addParticle({ position: [0, 0, 0], mass: 0 });
    const b = world.addParticle({ position: [1, 0, 0] });
    const stick = world.addStick(a, b);
    world.setStick(stick, { length: 2 });
    world.step();
    expect(world.getPosition(b)[0]).toBeCloseTo(2, 12);
    world.removeConstraint(stick);
    expect(world.constraintCount).toBe(0);
    expect(() => world.removeConstraint(stick)).toThrow(/no constraint with id/);
  });
});
