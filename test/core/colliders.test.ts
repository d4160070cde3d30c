import { describe, expect, it } from 'vitest';
import { World } from '../../src/core/index.js';

const ground = { type: 'plane', normal: [0, 1, 0], offset: 0 } as const;

describe('colliders', () => {
  it('a plane stops a particle, however fast, at its radius (no tunnelling)', () => {
    for (const speed of [1, 100, 10000]) {
      const world = new World();
      world.addCollider(ground);
      const id = world.addParticle({ position: [0, 1, 0], velocity: [0, -speed, 0], radius: 0.1 });
      for (let i = 0; i < 120; i++) {
        world.step();
        expect(world.getPosition(id)[1]).toBeGreaterThanOrEqual(0.1 - 1e-12);
      }
      expect(world.getPosition(id)[1]).toBeCloseTo(0.1, 9);
      expect(world.getVelocity(id)[1]).toBeCloseTo(0, 6); // restitution zero (paper section 3)
    }
  });

  it('a tilted plane keeps points on its free side: normal·x >= offset', () => {
    const world = new World();
    const n = [1, 1, 0].map((x) => x / Math.SQRT2);
    world.addCollider({ type: 'plane', normal: [1, 1, 0], offset: 0.5 });
    const id = world.addParticle({ position: [0, 1, 0], velocity: [-3, -3, 1] });
    for (let i = 0; i < 60; i++) world.step();
    const p = world.getPosition(id);
    expect(n[0]! * p[0] + n[1]! * p[1]).toBeGreaterThanOrEqual(0.5 - 1e-12);
  });

  it('a box keeps particles inside it (the paper’s cube world) or out of it', () => {
    const world = new World({ gravity: [3, -9.81, 2] });
    world.addCollider({ type: 'box', min: [0, 0, 0], max: [1, 1, 1], inside: true });
    const inside = world.addParticle({ position: [0.5, 0.5, 0.5], velocity: [20, 30, -40], radius: 0.05 });
    const world2 = new World();
    world2.addCollider({ type: 'box', min: [-1, 0, -1], max: [1, 1, 1] });
    const onTop = world2.addParticle({ position: [0.2, 2, 0.3] });
    for (let i = 0; i < 200; i++) {
      world.step();
      world2.step();
      for (const x of world.getPosition(inside)) {
        expect(x).toBeGreaterThanOrEqual(0.05 - 1e-12);
        expect(x).toBeLessThanOrEqual(0.95 + 1e-12);
      }
    }
    expect(world2.getPosition(onTop)[1]).toBeCloseTo(1, 9);
  });

  it('a sphere pushes particles to its surface plus their radius, or keeps them inside', () => {
    const world = new World({ gravity: [0, 0, 0] });
    world.addCollider({ type: 'sphere', position: [0, 0, 0], radius: 1 });
    const id = world.addParticle({ position: [3, 0.1, 0], velocity: [-60, 0, 0], radius: 0.2 });
    for (let i = 0; i < 10; i++) world.step();
    const p = world.getPosition(id);
    expect(Math.hypot(...p)).toBeGreaterThanOrEqual(1.2 - 1e-9);
    const bowl = new World();
    bowl.addCollider({ type: 'sphere', position: [0, 0, 0], radius: 1, inside: true });
    const marble = bowl.addParticle({ position: [0.5, 0, 0], radius: 0.1 });
    for (let i = 0; i < 300; i++) bowl.step();
    expect(Math.hypot(...bowl.getPosition(marble))).toBeCloseTo(0.9, 6);
  });

  it('friction stops a sliding particle after v²/(2μg), within 10% (Coulomb, paper section 7)', () => {
    for (const [speed, particleMu, surfaceMu] of [
      [5, 0.5, 1],
      [3, 0.8, 0.5],
      [8, 1, 0.3],
    ] as const) {
      const world = new World();
      world.addCollider({ ...ground, friction: surfaceMu });
      const id = world.addParticle({ position: [0, 0, 0], velocity: [speed, 0, 0], friction: particleMu });
      let last = -1;
      for (let i = 0; i < 600; i++) {
        world.step();
        const x = world.getPosition(id)[0];
        expect(x).toBeGreaterThanOrEqual(last); // never reversed
        last = x;
      }
      const mu = particleMu * surfaceMu;
      const expected = (speed * speed) / (2 * mu * 9.81);
      expect(Math.abs(last / expected - 1)).toBeLessThan(0.1);
      expect(world.getVelocity(id)[0]).toBe(0);
    }
  });

  it('frictionless contact slides forever', () => {
    const world = new World();
    world.addCollider({ ...ground, friction: 0 });
    const id = world.addParticle({ position: [0, 0, 0], velocity: [2, 0, 0] });
    for (let i = 0; i < 60; i++) world.step();
    expect(world.getPosition(id)[0]).toBeCloseTo(2, 9);
  });

  it('can be removed and changed', () => {
    const world = new World();
    const id = world.addCollider(ground);
    world.getCollider(id).friction = 0.2;
    expect(world.getCollider(id).friction).toBe(0.2);
    world.removeCollider(id);
    expect(world.colliders).toHaveLength(0);
    expect(() => world.removeCollider(id)).toThrow(/no collider with id/);
  });
});
