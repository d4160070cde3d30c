import { describe, expect, it } from 'vitest';
import { World } from '../../src/core/index.js';

describe('Verlet integration', () => {
  it('follows the closed-form parabola p0 + v0·t + ½·g·t² at every step', () => {
    const g = [0.5, -9.81, 0] as const;
    const world = new World({ gravity: g, timeStep: 1 / 60, substeps: 3 });
    const p0 = [1, 2, 3];
    const v0 = [4, 12, -2];
    const id = world.addParticle({ position: p0 as [number, number, number], velocity: v0 as [number, number, number] });
    for (let n = 1; n <= 120; n++) {
      world.step();
      const t = n / 60;
      const p = world.getPosition(id);
      for (let k = 0; k < 3; k++) expect(p[k]).toBeCloseTo(p0[k]! + v0[k]! * t + 0.5 * g[k]! * t * t, 9);
    }
  });

  it('damps velocity by 1 - k·h per substep (course notes)', () => {
    const world = new World({ gravity: [0, 0, 0], damping: 2, substeps: 1, timeStep: 0.01 });
    const id = world.addParticle({ position: [0, 0, 0], velocity: [1, 0, 0] });
    world.step();
    const v1 = world.getVelocity(id)[0];
    world.step();
    expect(world.getVelocity(id)[0] / v1).toBeCloseTo(1 - 2 * 0.01, 12);
  });

  it('keeps velocity when the time step or substep count changes (course notes)', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const id = world.addParticle({ position: [0, 0, 0], velocity: [3, -1, 2] });
    world.step();
    const before = world.getVelocity(id);
    world.timeStep = 1 / 30;
    expect(world.getVelocity(id)).toEqual(before.map((v) => expect.closeTo(v, 12)));
    world.substeps = 4;
    expect(world.getVelocity(id)).toEqual(before.map((v) => expect.closeTo(v, 12)));
    const x = world.getPosition(id)[0];
    world.step();
    expect(world.getPosition(id)[0] - x).toBeCloseTo(3 / 30, 12);
  });

  it('applies the course notes’ formulas for teleports, velocity changes and impulses', () => {
    const world = new World({ gravity: [0, 0, 0], substeps: 1 });
    const id = world.addParticle({ position: [0, 0, 0], velocity: [1, 0, 0], mass: 2 });
    world.setPosition(id, [10, 0, 0]);
    expect(world.getVelocity(id)).toEqual([expect.closeTo(1, 12), 0, 0]);
    world.setVelocity(id, [0, 5, 0]);
    expect(world.getVelocity(id)[1]).toBeCloseTo(5, 12);
    world.applyImpulse(id, [4, 0, 0]); // Δv = j / m = 2
    expect(world.getVelocity(id)[0]).toBeCloseTo(2, 12);
    world.step();
    expect(world.getPosition(id)[0]).toBeCloseTo(10 + 2 / 60, 12);
    // keepVelocity: false turns the move into velocity (the paper's hit).
    world.setVelocity(id, [0, 0, 0]);
    world.setPosition(id, [10.5, 0, 0], { keepVelocity: false });
    world.step();
    expect(world.getPosition(id)[0]).toBeCloseTo(10.5 + (10.5 - (10 + 2 / 60)), 9);
  });

  it('turns accumulated forces into acceleration F/m for one step', () => {
    const world = new World({ gravity: [0, 0, 0], substeps: 1, timeStep: 0.1 });
    const id = world.addParticle({ position: [0, 0, 0], mass: 2 });
    world.applyForce(id, [4, 0, 0]);
    world.step();
    expect(world.getPosition(id)[0]).toBeCloseTo(2 * 0.01, 12); // a·h² with a = 2
    world.step();
    expect(world.getPosition(id)[0]).toBeCloseTo(2 * 0.02, 12); // force gone: coasts
  });

  it('leaves immovable particles where they are', () => {
    const world = new World();
    const a = world.addParticle({ position: [0, 1, 0], mass: 0 });
    const b = world.addParticle({ position: [0, 2, 0], mass: Infinity });
    for (let i = 0; i < 30; i++) world.step();
    expect(world.getPosition(a)).toEqual([0, 1, 0]);
    expect(world.getPosition(b)).toEqual([0, 2, 0]);
    expect(world.getMass(a)).toBe(Infinity);
  });
});

describe('advance()', () => {
  it('runs whole steps from an accumulator and exposes the leftover as alpha', () => {
    const world = new World({ timeStep: 0.01 });
    expect(world.advance(0.025)).toBe(2);
    expect(world.alpha).toBeCloseTo(0.5, 9);
    expect(world.advance(0.006)).toBe(1);
    expect(world.alpha).toBeCloseTo(0.1, 9);
    let steps = 0;
    for (let i = 0; i < 60; i++) steps += new World().advance(1 / 60);
    expect(steps).toBe(60);
    const w60 = new World();
    let total = 0;
    for (let i = 0; i < 600; i++) total += w60.advance(1 / 60);
    expect(total).toBe(600);
  });

  it('caps the steps per call and drops the backlog (no spiral of death)', () => {
    const world = new World({ timeStep: 0.01, maxStepsPerAdvance: 4 });
    expect(world.advance(10)).toBe(4);
    expect(world.alpha).toBeLessThan(1);
    expect(world.advance(0.01)).toBe(1);
  });

  it('interpolates rendered positions between the last two steps', () => {
    const world = new World({ gravity: [0, 0, 0], timeStep: 0.1 });
    const id = world.addParticle({ position: [0, 0, 0], velocity: [1, 0, 0] });
    world.advance(0.15);
    expect(world.getInterpolatedPosition(id)[0]).toBeCloseTo(0.05, 9);
  });
});

describe('step hooks', () => {
  it('run before and after every step, in order, until unsubscribed', () => {
    const world = new World();
    const calls: string[] = [];
    const before = world.onBeforeStep((w) => calls.push(`before ${w.stepCount}`));
    const after = world.onAfterStep((w) => calls.push(`after ${w.stepCount}`));
    world.step();
    world.remove(before);
    world.remove(after);
    world.step();
    expect(calls).toEqual(['before 0', 'after 1']);
    expect(() => world.onAfterStep(42 as never)).toThrow(/onAfterStep: callback must be a function, got 42/);
  });

  it('may unsubscribe from inside a step without the next callback, force or constraint being skipped', () => {
    const world = new World();
    const id = world.addParticle({ position: [0, 0, 0] });
    const calls: string[] = [];
    const once = world.onAfterStep(() => {
      calls.push('once');
      world.remove(once);
    });
    world.onAfterStep(() => calls.push('every'));
    const forceOnce = world.addForce({
      apply: () => {
        calls.push('force once');
        world.remove(forceOnce);
      },
    });
    world.addForce({ apply: () => void calls.push('force') });
    let own = -1;
    own = world.addConstraint({
      project: () => {
        calls.push('constraint once');
        world.removeConstraint(own);
      },
    });
    world.addConstraint({ project: () => void calls.push('constraint') });
    world.step();
    world.step();
    const count = (what: string) => calls.filter((c) => c === what).length;
    expect([count('once'), count('every')]).toEqual([1, 2]);
    expect([count('force once'), count('force')]).toEqual([1, 2 * world.substeps]);
    expect([count('constraint once'), count('constraint')]).toEqual([1, 2 * world.substeps * world.iterations]);
    // The lists hold no stand-ins afterwards.
    expect([world.afterStep.length, world.forces.length, world.constraints.length]).toEqual([1, 1, 1]);
    expect(() => world.onBeforeStep(() => world.step()) && world.step()).toThrow(/step: called from inside a step/);
    expect(world.getPosition(id)[1]).toBeLessThan(0);
  });
});
