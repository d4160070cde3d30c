import { describe, expect, it } from 'vitest';
import { addAngleConstraint, addCapsuleEdge, addCollisionTriangle, addPlaneConstraint, angleTable, Springs, World } from '../../src/core/index.js';

/** Three loose particles in an L, and a stick along one arm. */
function scene() {
  const world = new World();
  const [a, m, b] = [world.addParticle({ position: [0, 1, 0] }), world.addParticle({ position: [0, 0, 0] }), world.addParticle({ position: [1, 0, 0] })];
  return { world, a, m, b };
}

describe('one registry: every removable thing gets an id from one counter', () => {
  it('an angle constraint and a stick never share an id, and removeConstraint removes the one it names', () => {
    const { world, a, m, b } = scene();
    // Before: both tables counted from 1, so these were both id 1, and removing the angle removed the stick.
    const angle = addAngleConstraint(world, a, m, b, { min: 1, max: 2 });
    const stick = world.addStick(a, m);
    expect(angle).not.toBe(stick);
    world.removeConstraint(angle);
    expect(world.hasConstraint(stick)).toBe(true);
    expect(world.hasConstraint(angle)).toBe(false);
    expect(angleTable(world).count).toBe(0);
    expect(() => world.removeConstraint(angle)).toThrow(`removeConstraint: no constraint with id ${angle}`);
  });

  it('ids of every kind are distinct, and removeConstraint undoes each add', () => {
    const { world, a, m, b } = scene();
    const springs = new Springs(world);
    world.addForce(springs);
    const ids = {
      stick: world.addStick(a, m),
      pin: world.addPin(b),
      collider: world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: -1 }),
      custom: world.addConstraint({ project: () => {} }),
      angle: addAngleConstraint(world, a, m, b),
      plane: addPlaneConstraint(world, [a, b], { normal: [0, 0, 1], offset: 0 }),
      edge: addCapsuleEdge(world, m, b, 0.05),
      face: addCollisionTriangle(world, a, m, b),
      spring: springs.add(a, b, { stiffness: 10 }),
    };
    const values = Object.values(ids);
    expect(new Set(values).size).toBe(values.length);
    const before = world.constraintCount;
    for (const [kind, id] of Object.entries(ids)) {
      if (kind === 'collider') continue;
      expect(world.hasConstraint(id), kind).toBe(true);
      world.removeConstraint(id);
      expect(world.hasConstraint(id), kind).toBe(false);
    }
    expect(springs.count).toBe(0);
    expect(world.constraintCount).toBeLessThan(before);
    world.removeCollider(ids.collider);
    expect(world.colliders).toHaveLength(0);
  });

  it('a restored world hands out no id it handed out before', () => {
    const { world, a, m, b } = scene();
    const snap = world.snapshot();
    const angle = addAngleConstraint(world, a, m, b);
    world.restore(snap);
    const stick = world.addStick(a, m);
    expect(stick).not.toBe(angle);
    world.removeConstraint(angle);
    expect(world.hasConstraint(stick)).toBe(true);
  });
});
