import { describe, expect, it } from 'vitest';
import { PinGlide, World } from '../../src/core/index.js';
import { leastAllocation } from '../support/heap.js';

describe('PinGlide', () => {
  it("moves a pin to its goal in equal parts over the frame's steps", () => {
    const world = new World({ gravity: [0, 0, 0] });
    const hand = world.addParticle({ position: [0, 0, 0] });
    const pin = world.addPin(hand);
    const glide = new PinGlide(world, pin);
    const seen: number[] = [];
    world.onAfterStep((w) => seen.push(Number(w.getPosition(hand)[1].toFixed(12))));
    glide.to([0, 1, 0]);
    // A 12 fps frame: five steps, a fifth of the way each.
    expect(world.advance(5 / 60)).toBe(5);
    expect(seen).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
    // A bare step is a frame of one step: all the way at once.
    glide.to({ x: 0, y: 3, z: 0 });
    world.step();
    expect(world.getPosition(hand)).toEqual([0, 3, 0]);
    glide.dispose();
    expect(world.beforeStep).toHaveLength(0);
  });

  it('leaves the pin alone once it has arrived: other writes stand and the body may sleep', () => {
    const world = new World({ sleep: true, damping: 5 });
    const first = world.addParticles([{ position: [0, 1, 0] }, { position: [0, 0.5, 0] }]);
    world.addBody(first, 2);
    world.addStick(first, first + 1);
    const pin = world.addPin(first);
    const glide = new PinGlide(world, pin);
    glide.to([0.2, 1, 0]);
    world.advance(5 / 60);
    world.setPinTarget(pin, [0.4, 1, 0]);
    world.step();
    expect(world.getPosition(first)).toEqual([0.4, 1, 0]);
    for (let i = 0; i < 600; i++) world.step();
    expect(world.stats.sleepingBodies).toBe(1);
  });

  it('does nothing once its pin is gone, and allocates nothing per step', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const pin = world.addPin(world.addParticle({ position: [0, 0, 0] }));
    const glide = new PinGlide(world, pin);
    const goal: [number, number, number] = [0, 0, 0];
    const run = () => {
      for (let i = 0; i < 10_000; i++) {
        goal[0] = i % 7;
        glide.to(goal);
        world.step();
      }
    };
    run();
    expect(leastAllocation(run)).toBeLessThan(16 * 1024);
    world.removeConstraint(pin);
    expect(() => world.advance(1 / 20)).not.toThrow();
  });

  it('rejects a missing pin and a bad goal, naming them', () => {
    const world = new World();
    expect(() => new PinGlide(world, 42)).toThrow('PinGlide: no pin with id 42');
    const glide = new PinGlide(world, world.addPin(world.addParticle({ position: [0, 0, 0] })));
    expect(() => glide.to([0, NaN, 0])).toThrow('PinGlide.to: target must be finite numbers, got [0, NaN, 0]');
    expect(() => glide.to(undefined as never)).toThrow('PinGlide.to: target must be [x, y, z] or {x, y, z}, got undefined');
  });
});
