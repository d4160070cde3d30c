import { describe, expect, it } from 'vitest';
import {
  addAngleConstraint,
  addCapsuleEdge,
  addCollisionTriangle,
  addPlaneConstraint,
  angleTable,
  createBox,
  createRope,
  protectFromTunnelling,
  Springs,
  World,
  type ConstraintId,
  type ParticleId,
} from '../../src/core/index.js';

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

  it('ids of every kind are distinct, and world.remove undoes each add', () => {
    const { world, a, m, b } = scene();
    const springs = new Springs(world);
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
      force: world.addForce(springs),
      before: world.onBeforeStep(() => {}),
      after: world.onAfterStep(() => {}),
    };
    const values = Object.values(ids);
    expect(new Set(values).size).toBe(values.length);
    for (const [kind, id] of Object.entries(ids)) {
      world.remove(id);
      expect(() => world.remove(id), kind).toThrow(`remove: nothing in this world has id ${id}`);
    }
    expect([world.sticks.count, world.pins.count, world.constraintCount, springs.count]).toEqual([0, 0, 0, 0]);
    // (world.stages keeps the angle, plane, edge and face tables' own solvers, created on first use.)
    expect([world.colliders.length, world.forces.length, world.beforeStep.length, world.afterStep.length]).toEqual([0, 0, 0, 0]);
  });

  it('removeConstraint and removeCollider refuse an id of another kind instead of removing it', () => {
    const { world, a, m } = scene();
    const collider = world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: -1 });
    const stick = world.addStick(a, m);
    const force = world.addForce({ apply: () => {} });
    expect(() => world.removeConstraint(collider as number)).toThrow(`removeConstraint: no constraint with id ${collider}`);
    expect(() => world.removeConstraint(force as number)).toThrow(`removeConstraint: no constraint with id ${force}`);
    expect(() => world.removeCollider(stick as number)).toThrow(`removeCollider: no collider with id ${stick}`);
    expect([world.colliders.length, world.sticks.count, world.forces.length]).toEqual([1, 1, 1]);
  });

  it("world.remove takes a body record or a builder's handle, once", () => {
    const world = new World();
    const box = createBox(world, { size: 0.5 });
    const rope = createRope(world, { from: [0, 2, 0], to: [1, 2, 0], segments: 4 });
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }]);
    const record = world.addBody(first, 2);
    world.remove(box);
    world.remove(rope.body);
    world.remove(record);
    expect(world.particleCount).toBe(0);
    expect(world.sticks.count).toBe(0);
    expect(() => world.remove(record)).toThrow('remove: the body (body 2) was removed already');
    expect(() => world.remove({ size: 1 } as never)).toThrow('remove: expected an id, a body or a handle, got an object with no remove() (keys: size)');
    expect(() => world.remove('3' as never)).toThrow("remove: expected an id, a body or a handle, got '3'");
    expect(() => world.remove(99)).toThrow('remove: no particle with id 99 in this world');
    expect(() => world.remove(2 ** 30 + 99)).toThrow(`remove: nothing in this world has id ${2 ** 30 + 99}`);
  });

  it('world.remove takes what protectFromTunnelling returned, and it stops guarding', () => {
    const world = new World({ gravity: [0, 0, 0] });
    world.addCollider({ type: 'obb', position: [1, 0, 0], halfExtents: [0.01, 1, 1] });
    const fast = () => createBox(world, { size: 0.1, position: [0, 0, 0], velocity: [200, 0, 0], collideEdges: false });
    const guarded = fast();
    const guard = protectFromTunnelling(world, guarded.body);
    // The guard is a built-in stage (stages.ts), not one of the users' constraints.
    const before = world.stages.constraints.items.length;
    world.remove(guard);
    expect(world.stages.constraints.items.length).toBe(before - 1);
    world.remove(guard); // twice is harmless, as for a body's own clean-up
    for (let i = 0; i < 30; i++) world.step();
    // Unguarded, the 200 m/s box passes through the 2 cm wall.
    expect(guarded.update().position[0]).toBeGreaterThan(1.1);
  });

  it('a force or callback removed from inside a step runs no more, and the ones after it still run', () => {
    const world = new World({ substeps: 2 });
    world.addParticle({ position: [0, 0, 0] });
    const calls: string[] = [];
    const force = world.addForce({ apply: () => void (calls.push('force'), world.remove(force)) });
    const after = world.onAfterStep(() => void (calls.push('after'), world.remove(after)));
    world.onAfterStep(() => void calls.push('next'));
    world.step();
    world.step();
    expect(calls).toEqual(['force', 'after', 'next', 'next']);
  });

  it('TypeScript rejects an id of one kind where another is expected, and takes numbers computed from a range', () => {
    const { world, a, m } = scene();
    const stick = world.addStick(a, m);
    const collider = world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: -1 });
    const force = world.addForce({ apply: () => {} });
    const particle: ParticleId = a + 1;
    const ids: ConstraintId[] = [stick];
    const checks = [
      // @ts-expect-error a stick's id is not a particle
      () => world.getPosition(stick),
      // @ts-expect-error a collider's id is not a constraint
      () => world.removeConstraint(collider),
      // @ts-expect-error a force's id is not a collider
      () => world.removeCollider(force),
    ];
    // At run time the wrong kinds are refused by the checks.
    expect(() => checks[1]!()).toThrow(/removeConstraint: no constraint/);
    expect(() => checks[2]!()).toThrow(/removeCollider: no collider/);
    expect(world.getPosition(particle)).toHaveLength(3);
    expect(ids).toHaveLength(1);
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
