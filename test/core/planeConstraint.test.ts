import { describe, expect, it } from 'vitest';
import { addPlaneConstraint, planeConstraintTable, setPlaneConstraint, World } from '../../src/core/index.js';

describe('plane constraints', () => {
  it("'on' makes a frictionless incline: the particle slides with a = g·sin α, s = ½·g·sin α·t²", () => {
    const world = new World();
    const alpha = Math.PI / 6;
    // The plane through the origin tilted by α about z; downhill is (cos α, -sin α, 0).
    const normal: [number, number, number] = [Math.sin(alpha), Math.cos(alpha), 0];
    const id = world.addParticle({ position: [0, 0, 0] });
    addPlaneConstraint(world, id, { normal, mode: 'on' });
    for (let i = 1; i <= 60; i++) {
      world.step();
      const p = world.getPosition(id);
      const t = i * world.timeStep;
      expect(p[0] * normal[0] + p[1] * normal[1]).toBeCloseTo(0, 12);
      // Verlet is exact under constant acceleration, and the projection removes exactly the normal part of g.
      expect(p[0] * Math.cos(alpha) - p[1] * Math.sin(alpha)).toBeCloseTo(0.5 * 9.81 * Math.sin(alpha) * t * t, 10);
    }
  });

  it("'above' keeps particles on the normal's side and leaves those above on their free parabola", () => {
    const world = new World();
    const offset = 0.5;
    const falling = world.addParticle({ position: [0, 1, 0], velocity: [1, -4, 0] });
    const rising = world.addParticle({ position: [0, 1, 0], velocity: [0, 6, 0] });
    addPlaneConstraint(world, [falling, rising], { normal: [0, 2, 0], offset, mode: 'above' });
    for (let i = 1; i <= 60; i++) {
      world.step();
      const t = i * world.timeStep;
      expect(world.getPosition(falling)[1]).toBeGreaterThanOrEqual(offset - 1e-12);
      if (1 + 6 * t - 4.905 * t * t > offset) expect(world.getPosition(rising)[1]).toBeCloseTo(1 + 6 * t - 4.905 * t * t, 10);
    }
    // No friction: the falling particle lands and slides on at 1 m/s.
    expect(world.getPosition(falling)[1]).toBeCloseTo(offset, 12);
    expect(world.getVelocity(falling)[0]).toBeCloseTo(1, 10);
  });

  it('moves only its own particles, never immovable ones, and can be moved and removed', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const free = world.addParticle({ position: [0, 0, 1] });
    const wall = world.addParticle({ position: [0, 0, 2], mass: 0 });
    const other = world.addParticle({ position: [0, 0, 3] });
    const id = addPlaneConstraint(world, [free, wall], { normal: [0, 0, 1], offset: 0 });
    world.step();
    expect(world.getPosition(free)[2]).toBeCloseTo(0, 12);
    expect(world.getPosition(wall)[2]).toBe(2);
    expect(world.getPosition(other)[2]).toBe(3);
    setPlaneConstraint(world, id, { offset: -0.5, stiffness: 0.5 });
    world.setVelocity(free, [0, 0, 0]);
    planeConstraintTable(world).project(world);
    expect(world.getPosition(free)[2]).toBeCloseTo(-0.25, 12); // half the distance per pass
    world.remove(id);
    expect(planeConstraintTable(world).count).toBe(0);
    expect(() => world.remove(id)).toThrow(`remove: nothing in this world has id ${id}`);
  });

  it('rejects bad input, naming the function, the argument and the value', () => {
    const world = new World();
    const id = world.addParticle({ position: [0, 0, 0] });
    expect(() => addPlaneConstraint(world, [], { normal: [0, 1, 0] })).toThrow('addPlaneConstraint: particles must be a particle id or a non-empty array of them');
    expect(() => addPlaneConstraint(world, [id, 7], { normal: [0, 1, 0] })).toThrow('addPlaneConstraint: particles[1]: no particle with id 7');
    expect(() => addPlaneConstraint(world, id, { normal: [0, 0, 0] })).toThrow('addPlaneConstraint: normal must not be [0, 0, 0]');
    expect(() => addPlaneConstraint(world, id, { normal: [0, 1, 0], mode: 'below' as 'on' })).toThrow("addPlaneConstraint: mode must be 'on' or 'above', got below");
    expect(() => addPlaneConstraint(world, id, { normal: [0, 1, 0], offset: NaN })).toThrow('addPlaneConstraint: offset must be a finite number, got NaN');
    expect(() => setPlaneConstraint(world, 99, { offset: 1 })).toThrow('setPlaneConstraint: no plane constraint with id 99');
  });
});
