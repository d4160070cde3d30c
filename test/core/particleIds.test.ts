import { describe, expect, it } from 'vitest';
import {
  addAngleConstraint,
  addBodyCapsuleEdges,
  enableSelfCollision,
  addPlaneConstraint,
  ballJoint,
  createBox,
  createCloth,
  createPlant,
  createRagdoll,
  createRope,
  createSoftBody,
  createTetrahedron,
  hit,
  particleSlot,
  Springs,
  World,
  type ParticleId,
  type StickKernel,
} from '../../src/core/index.js';

// Issue 27: a particle id names one particle. A slot reused after a removal gets
// a new generation (in the id's bits above the slot), so an id kept from the
// removed particle throws, naming itself, in every accessor.

/** Every public call that takes a particle id, called with `id` (and a live `other` where it needs two). */
function accessors(world: World, id: ParticleId, other: ParticleId): [string, () => unknown][] {
  return [
    ['getPosition', () => world.getPosition(id)],
    ['getInterpolatedPosition', () => world.getInterpolatedPosition(id)],
    ['getVelocity', () => world.getVelocity(id)],
    ['setPosition', () => world.setPosition(id, [0, 0, 0])],
    ['setVelocity', () => world.setVelocity(id, [0, 0, 0])],
    ['applyImpulse', () => world.applyImpulse(id, [0, 0, 0])],
    ['applyForce', () => world.applyForce(id, [0, 0, 0])],
    ['getMass', () => world.getMass(id)],
    ['setMass', () => world.setMass(id, 1)],
    ['addStick', () => world.addStick(id, other)],
    ['addPin', () => world.addPin(id)],
    ['removeParticle', () => world.removeParticle(id)],
    ['remove', () => world.remove(id)],
    ['addBody', () => world.addBody(id, 1)],
    ['addAngleConstraint', () => addAngleConstraint(world, other, id, other + 0)],
    ['addPlaneConstraint', () => addPlaneConstraint(world, [id], { normal: [0, 1, 0], offset: 0 })],
    ['Springs.add', () => new Springs(world).add(id, other, { stiffness: 1 })],
    ['hit', () => hit(world, id, [0, 1, 0], 0.1)],
  ];
}

function expectStale(world: World, stale: ParticleId, other: ParticleId): void {
  for (const [name, call] of accessors(world, stale, other)) expect(call, name).toThrow(new RegExp(`particle ${stale} was removed|no particle with id ${stale}\\b`));
}

describe('particle ids cannot alias', () => {
  it('an id kept after removeParticle throws in every accessor, and its slot’s new particle has a new id', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const other = world.addParticle({ position: [1, 0, 0] });
    const a = world.addParticle({ position: [0, 0, 0] });
    world.removeParticle(a);
    expectStale(world, a, other);
    const b = world.addParticle({ position: [5, 5, 5] });
    expect(particleSlot(b)).toBe(particleSlot(a));
    expect(b).not.toBe(a);
    expect(world.getPosition(b)).toEqual([5, 5, 5]);
    expect(() => world.getPosition(a)).toThrow(`getPosition: id: particle ${a} was removed (its slot now holds particle ${b})`);
    expectStale(world, a, other);
    expect(world.particleId(particleSlot(b))).toBe(b);
  });

  it('ids of a removed body throw after its range is reused, and first + i names the new body’s particles', () => {
    const world = new World();
    const rope = createRope(world, { from: [0, 1, 0], to: [1, 1, 0], segments: 4 });
    const other = world.addParticle({ position: [3, 0, 0] });
    world.remove(rope);
    const next = createRope(world, { from: [0, 2, 0], to: [1, 2, 0], segments: 4 });
    expect(particleSlot(next.first)).toBe(particleSlot(rope.first));
    for (let i = 0; i <= 4; i++) expectStale(world, rope.first + i, other);
    for (let i = 0; i <= 4; i++) expect(world.getPosition(next.first + i)).toEqual([i / 4, 2, 0]);
  });

  it('an id handed out after a snapshot names nothing once the snapshot is restored, nor any particle added later', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const kept = world.addParticle({ position: [1, 0, 0] });
    const a = world.addParticle({ position: [2, 0, 0] });
    const snap = world.snapshot();
    // After the snapshot: a removed and its slot reused, then a particle added past the end.
    world.removeParticle(a);
    const b = world.addParticle({ position: [3, 0, 0] });
    const c = world.addParticle({ position: [4, 0, 0] });
    world.restore(snap);
    expect(world.getPosition(a)).toEqual([2, 0, 0]);
    expectStale(world, b, kept);
    expectStale(world, c, kept);
    // The slots of b and c freed again and reused: the newcomers' ids are new ones.
    world.removeParticle(a);
    const d = world.addParticle({ position: [5, 0, 0] });
    const e = world.addParticle({ position: [6, 0, 0] });
    expect(particleSlot(d)).toBe(particleSlot(b));
    expect(particleSlot(e)).toBe(particleSlot(c));
    for (const stale of [a, b, c]) expectStale(world, stale, kept);
    expect(world.getPosition(d)).toEqual([5, 0, 0]);
    expect(world.getPosition(e)).toEqual([6, 0, 0]);
  });

  it('thousands of add/remove cycles: every id of the last 1,023 cycles is refused, the live one read', () => {
    const world = new World();
    const ids: ParticleId[] = [];
    for (let c = 0; c < 3000; c++) {
      const id = world.addParticle({ position: [c, 0, 0] });
      ids.push(id);
      expect(world.getPosition(id)[0]).toBe(c);
      world.removeParticle(id);
    }
    const live = world.addParticle({ position: [-1, 0, 0] });
    expect(world.particles.end).toBe(1);
    for (const id of ids.slice(-1023)) expect(() => world.getPosition(id)).toThrow(`particle ${id} was removed`);
    // Ids stay below the registry's, whatever the generation.
    expect(Math.max(...ids, live)).toBeLessThan(2 ** 30);
    expect(world.getPosition(live)).toEqual([-1, 0, 0]);
  });
});

/** Builds one body of each kind; returns the bodies' first ids and counts. */
function scene(world: World): { first: number; count: number }[] {
  const cloth = createCloth(world, { width: 4, height: 4, spacing: 0.1, corner: [0, 1, 0], pin: 'top' });
  const rope = createRope(world, { from: [1, 2, 0], to: [2, 2, 0], segments: 6, pinStart: true });
  const box = createBox(world, { position: [3, 1, 0], size: 0.4, angularVelocity: [0, 4, 2] });
  const doll = createRagdoll(world, { feet: [5, 0.5, 0] });
  const soft = createSoftBody(world, { position: [7, 1, 0] });
  const plant = createPlant(world, { root: [9, 0, 0] });
  const joined = createTetrahedron(world, { position: [3, 1.5, 0], size: 0.3, shared: ballJoint(box, 0, 0) });
  // Features that index their own arrays from a body's first slot: self-collision, capsules on every stick.
  // The sheet starts folded: its upper rows 1 cm in front of its lower ones, inside the 2 cm thickness.
  const sheet = createCloth(world, { width: 8, height: 8, spacing: 0.05, corner: [11, 1, 0], pin: 'none' });
  for (let j = 4; j < 8; j++) {
    for (let i = 0; i < 8; i++) {
      const [x, y, z] = world.getPosition(sheet.first + (7 - j) * 8 + i);
      world.setPosition(sheet.first + j * 8 + i, [x, y, z + 0.01]);
    }
  }
  enableSelfCollision(world, sheet.body, { thickness: 0.02 });
  addBodyCapsuleEdges(world, rope.body, 0.02);
  return [cloth, rope, box.body, doll, soft.body, plant, joined.body, sheet];
}

describe.each<StickKernel>(['wasm', 'js'])('bodies in reused slots (%s kernel)', (kernel) => {
  it('move bit for bit as in a fresh world', () => {
    const fresh = new World({ kernel });
    const reused = new World({ kernel });
    for (const world of [fresh, reused]) world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    for (const body of reused.bodies.slice()) reused.remove(body);
    const first = scene(reused);
    for (const body of reused.bodies.slice()) reused.remove(body);
    const a = scene(fresh);
    const b = scene(reused);
    // The reused world's ids carry a generation; the fresh world's are slot indices.
    expect(b.map((r) => particleSlot(r.first))).toEqual(a.map((r) => r.first));
    expect(b.every((r, k) => r.first !== a[k]!.first)).toBe(true);
    for (let s = 0; s < 60; s++) {
      fresh.step();
      reused.step();
    }
    for (let k = 0; k < a.length; k++) for (let i = 0; i < a[k]!.count; i++) expect(reused.getPosition(b[k]!.first + i)).toEqual(fresh.getPosition(a[k]!.first + i));
    expect(() => reused.getPosition(first[0]!.first)).toThrow(`particle ${first[0]!.first} was removed`);
  });
});
