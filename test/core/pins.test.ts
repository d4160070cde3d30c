import { describe, expect, it } from 'vitest';
import { World } from '../../src/core/index.js';
import { hangingChain } from './scenes.js';

describe('pins', () => {
  it('never move, and act as infinite mass for the sticks they touch', () => {
    const { world, first, last } = hangingChain({});
    world.setVelocity(last, [5, 0, 0]);
    for (let i = 0; i < 300; i++) {
      world.step();
      expect(world.getPosition(first).every((x) => x === 0)).toBe(true);
    }
    // The whole correction of a stick goes to its free end: a 1 m stick stretched to 2 m
    // puts the free particle back at 1 m in one pass (equal masses would meet halfway: 1.5 m).
    const pair = new World({ gravity: [0, 0, 0], substeps: 1, iterations: 1 });
    const pinned = pair.addParticle({ position: [0, 0, 0] });
    const free = pair.addParticle({ position: [1, 0, 0] });
    pair.addStick(pinned, free);
    pair.addPin(pinned);
    pair.setPosition(free, [2, 0, 0]);
    pair.step();
    expect(pair.getPosition(free)[0]).toBeCloseTo(1, 12);
    expect(pair.getPosition(pinned)).toEqual([0, 0, 0]);
  });

  it('follow a moving target (inverse kinematics) and hand the motion to Verlet on release', () => {
    const world = new World({ gravity: [0, 0, 0], substeps: 1 });
    const hand = world.addParticle({ position: [0, 0, 0] });
    const elbow = world.addParticle({ position: [-1, 0, 0] });
    world.addStick(hand, elbow);
    const pin = world.addPin(hand);
    for (let i = 1; i <= 10; i++) {
      world.setPinTarget(pin, [0, 0.01 * i, 0]);
      world.step();
      expect(world.getPosition(hand)[1]).toBeCloseTo(0.01 * i, 12);
    }
    expect(world.getMass(hand)).toBe(1);
    world.removeConstraint(pin);
    expect(world.getVelocity(hand)[1]).toBeCloseTo(0.01 * 60, 9);
    world.step();
    // It flies on at 0.6 m/s: 0.1 + 0.6 / 60 (the stick to the elbow pulls it back a hair).
    expect(world.getPosition(hand)[1]).toBeCloseTo(0.11, 3);
  });

  it('restore the particle’s mass only when its last pin goes', () => {
    const world = new World();
    const p = world.addParticle({ position: [0, 0, 0], mass: 2 });
    const one = world.addPin(p);
    const two = world.addPin(p, [0, 1, 0]);
    world.removeConstraint(one);
    world.step();
    expect(world.getPosition(p)).toEqual([0, 1, 0]);
    world.removeConstraint(two);
    world.step();
    expect(world.getPosition(p)[1]).toBeLessThan(1);
    expect(world.getMass(p)).toBe(2);
  });
});

describe('pin targets', () => {
  it('reject non-finite targets without moving the pin', () => {
    const world = new World();
    const p = world.addParticle({ position: [0, 0, 0] });
    const pin = world.addPin(p, [1, 2, 3]);
    expect(() => world.setPinTarget(pin, [0, NaN, 0])).toThrow('setPinTarget: target must be finite numbers, got [0, NaN, 0]');
    expect(() => world.setPinTarget(pin, { x: 0, y: 0, z: Infinity })).toThrow(/got \[0, 0, Infinity\]/);
    expect(() => world.setPinTarget(pin, undefined as never)).toThrow('setPinTarget: target must be [x, y, z] or {x, y, z}, got undefined');
    world.setPinTarget(pin, { x: 4, y: 5, z: 6 });
    world.step();
    expect(world.getPosition(p)).toEqual([4, 5, 6]);
  });

  it('are found by id with pinRow, also after the rows moved', () => {
    const world = new World();
    const ids = [0, 1, 2].map((k) => world.addPin(world.addParticle({ position: [k, 0, 0] }), [k, 1, 0]));
    world.removeConstraint(ids[0]!);
    const row = world.pinRow(ids[2]!);
    expect(Array.from(world.pins.target.subarray(row * 3, row * 3 + 3))).toEqual([2, 1, 0]);
    expect(world.pinRow(ids[0]!)).toBe(-1);
  });
});
