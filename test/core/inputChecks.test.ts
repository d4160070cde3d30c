import { describe, expect, it } from 'vitest';
import { World } from '../../src/core/index.js';

// Issue 13's list of inputs that slipped through: each must fail with an error naming the bad value.
describe('every input checked', () => {
  const twoParticles = () => {
    const world = new World();
    const a = world.addParticle({ position: [0, 0, 0] });
    const b = world.addParticle({ position: [1, 0, 0] });
    return { world, a, b };
  };

  it('stick kinds are own keys only, and stick options must be an object', () => {
    const { world, a, b } = twoParticles();
    expect(() => world.addStick(a, b, { kind: 'toString' as never })).toThrow("addStick: kind must be 'equal', 'min' or 'max', got 'toString'");
    expect(() => world.addStick(a, b, { kind: 'constructor' as never })).toThrow("got 'constructor'");
    // Before: [] made a zero-length stick, null a TypeError that named nothing.
    expect(() => world.addStick(a, b, [] as never)).toThrow('addStick: options must be an options object, got []');
    expect(() => world.addStick(a, b, null as never)).toThrow('addStick: options must be an options object, got null');
    expect(() => world.addStick(a, b, 'rope' as never)).toThrow('addStick: options must be an options object, got rope');
    const stick = world.addStick(a, b);
    expect(() => world.setStick(stick, { kind: 'hasOwnProperty' as never })).toThrow("setStick: kind must be 'equal', 'min' or 'max', got 'hasOwnProperty'");
    expect(() => world.setStick(stick, null as never)).toThrow('setStick: options must be an options object, got null');
    expect(world.sticks.rest[world.stickRow(stick)]).toBe(1);
  });

  it('world options: an object, with booleans that are booleans', () => {
    expect(() => new World(null as never)).toThrow('World: options must be an options object, got null');
    expect(() => new World(5 as never)).toThrow('World: options must be an options object, got 5');
    expect(() => new World({ sqrtApprox: 'no' as never })).toThrow("World: sqrtApprox must be true or false, got 'no'");
    expect(() => new World({ sleep: 'yes' as never })).toThrow("World: sleep must be true or false, got 'yes'");
    expect(() => new World({ sleep: 1 as never })).toThrow('World: sleep must be true or false, got 1');
    expect(new World({ sleep: true, sqrtApprox: true }).sqrtApprox).toBe(true);
    // Changed later, the contact limits are checked too.
    const world = new World();
    expect(() => (world.contacts.maxPushOutSpeed = -2)).toThrow('World: maxPushOutSpeed must be a finite number in [0, Infinity], got -2');
    expect(() => (world.contacts.restitutionThreshold = Number.NaN)).toThrow('World: restitutionThreshold must be a finite number in [0, Infinity], got NaN');
    expect(world.contacts.maxPushOutSpeed).toBe(3);
  });

  it('setPinTarget takes exactly what addPin takes', () => {
    const { world, a } = twoParticles();
    expect(() => world.addPin(a, [1, 2, 3, 4] as never)).toThrow('addPin: target must have 3 components, got 4');
    const pin = world.addPin(a, [0, 1, 0]);
    expect(() => world.setPinTarget(pin, [1, 2, 3, 4] as never)).toThrow('setPinTarget: target must have 3 components, got 4');
    expect(() => world.setPinTarget(pin, [null, 1, 0] as never)).toThrow('setPinTarget: target must be finite numbers, got [null, 1, 0]');
    expect(() => world.setPinTarget(pin, { x: '1', y: 0, z: 0 } as never)).toThrow('setPinTarget: target must be finite numbers, got [1, 0, 0]');
    expect(Array.from(world.pins.target.subarray(0, 3))).toEqual([0, 1, 0]);
    world.setPinTarget(pin, { x: 2, y: 3, z: 4 });
    expect(Array.from(world.pins.target.subarray(0, 3))).toEqual([2, 3, 4]);
  });

  it('time beyond maxStepsPerAdvance is dropped whole: advance(0) afterwards runs nothing', () => {
    const world = new World();
    world.addParticle({ position: [0, 0, 0] });
    expect(world.advance(10)).toBe(5);
    // Before: 10 s left a hair under one step in the accumulator, and advance(0) ran it.
    expect(world.advance(0)).toBe(0);
    expect(world.alpha).toBeLessThan(1e-6);
    // Whole steps still come out exactly: 60 calls of 1/60 s are 60 steps.
    let steps = 0;
    for (let i = 0; i < 60; i++) steps += world.advance(1 / 60);
    expect(steps).toBe(60);
  });
});
