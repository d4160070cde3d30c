import { describe, expect, it } from 'vitest';
import { existingAngleTable } from '../../src/core/constraints/angle.js';
import * as core from '../../src/core/index.js';
import { Attachment, BodyAttachment, Springs, World, type BodyRecord, type StickKernel } from '../../src/core/index.js';

// Removing a particle or a body removes everything that refers to it, of every kind (issue 27,
// item 2): the slots it frees are reused by the next particles added, and nothing of the old
// owner may act on them. Every scene runs without gravity and leaves the newcomers at rest in
// empty space, far from the rest, with no constraint of their own: they must not move at all.

const kernels: StickKernel[] = ['wasm', 'js'];

/** Adds `count` particles at rest, a metre apart along x from (5, 5, 5), and returns their ids. */
function newcomers(world: World, count: number): number[] {
  const ids: number[] = [];
  for (let k = 0; k < count; k++) ids.push(world.addParticle({ position: [5 + k, 5, 5] }));
  return ids;
}

/** Steps `world` ten times and returns the largest distance any of `ids` moved from where it was added. */
function drift(world: World, ids: number[]): number {
  const start = ids.map((id) => world.getPosition(id));
  for (let s = 0; s < 10; s++) world.step();
  let most = 0;
  ids.forEach((id, k) => {
    const p = world.getPosition(id);
    most = Math.max(most, Math.hypot(p[0] - start[k]![0], p[1] - start[k]![1], p[2] - start[k]![2]));
  });
  return most;
}

/** A world with a floor and a sphere (so that capsule edges and faces have something to meet) and particle collisions on. */
function world(kernel: StickKernel): World {
  const w = new World({ gravity: [0, 0, 0], kernel });
  w.addCollider({ type: 'plane', normal: [0, 1, 0], offset: -10 });
  w.addCollider({ type: 'sphere', position: [0, -3, 0], radius: 0.5 });
  core.enableParticleCollisions(w);
  return w;
}

/** Every kind of constraint and feature that can name particles, put on `ids` (three or more) and on `body` when given. */
function everything(w: World, ids: number[], body?: BodyRecord): void {
  const [a, b, c] = ids as [number, number, number];
  const anchor = w.addParticle({ position: [0, 0, 1], mass: 0 });
  core.addAngleConstraint(w, a, b, c, { min: 3, max: Math.PI, hinge: { axis: [a, c] } });
  core.addAngleConstraint(w, a, b, c, { min: 3, max: Math.PI });
  core.addPlaneConstraint(w, [a, b, c], { normal: [0, 0, 1], offset: 2 });
  core.addCapsuleEdge(w, a, b, 0.3);
  core.addCollisionTriangle(w, a, b, c);
  const springs = new Springs(w);
  w.addForce(springs);
  springs.add(a, anchor, { stiffness: 50, length: 3 });
  w.addStick(b, anchor, { length: 2 });
  w.addPin(c, [0, 3, 0]);
  new Attachment(w, [a], { position: [1, 1, 1] });
  new BodyAttachment(w, [b], [anchor]);
  if (body !== undefined) {
    if (body.surface !== undefined) core.addSurfaceCollision(w, body);
    core.addBodyCapsuleEdges(w, body, 0.05);
    core.protectFromTunnelling(w, body);
    core.enableSelfCollision(w, body, { thickness: 0.05 });
  }
}

describe('removal leaves nothing behind', () => {
  for (const kernel of kernels) {
    it(`a loose particle's angle constraint does not act on the particle that takes its slot (issue 27's scene, ${kernel})`, () => {
      const w = new World({ gravity: [0, 0, 0], kernel });
      const a = w.addParticle({ position: [0, 0, 0] });
      const m = w.addParticle({ position: [1, 0, 0] });
      const b = w.addParticle({ position: [1, 1, 0] });
      core.addAngleConstraint(w, a, m, b, { min: 3, max: Math.PI });
      w.remove(m);
      const [n] = newcomers(w, 1);
      // The newcomer takes the slot, under a new id (the slot's next generation).
      expect(core.particleSlot(n!)).toBe(m);
      expect(n).not.toBe(m);
      // Before: the angle kept acting on the newcomer, which moved 6.8 m in ten steps.
      expect(drift(w, [n!])).toBe(0);
      expect(existingAngleTable(w)!.count).toBe(0);
    });

    it(`loose particles with every kind of constraint on them, removed one by one: their slots' newcomers stay still (${kernel})`, () => {
      const w = world(kernel);
      const ids = [w.addParticle({ position: [0, 1, 0], radius: 0.1 }), w.addParticle({ position: [0.3, 1, 0], radius: 0.1 }), w.addParticle({ position: [0, 1.3, 0], radius: 0.1 })];
      everything(w, ids);
      for (let s = 0; s < 3; s++) w.step();
      for (const id of ids) w.remove(id);
      const fresh = newcomers(w, 3);
      expect(fresh.map(core.particleSlot).sort()).toEqual([...ids].sort());
      expect(drift(w, fresh)).toBe(0);
    });

    for (const kind of ['cloth', 'box', 'ragdoll'] as const) {
      it(`a ${kind} with every kind of constraint and feature on it, removed: the newcomers in its slots stay still (${kernel})`, () => {
        const w = world(kernel);
        const made =
          kind === 'cloth'
            ? core.createCloth(w, { width: 4, height: 4, spacing: 0.2, corner: [0, 1, 0] })
            : kind === 'box'
              ? core.createBox(w, { position: [0, 1, 0], size: 0.4, angularVelocity: [0, 6, 0] })
              : core.createRagdoll(w, { feet: [0, 0, 0] });
        const body = made.body;
        const range = Array.from({ length: body.count }, (_, k) => body.first + k);
        everything(w, range.slice(0, 3), body);
        for (let s = 0; s < 5; s++) w.step();
        w.remove(made);
        const fresh = newcomers(w, body.count);
        expect(fresh.map(core.particleSlot).sort((x, y) => x - y)).toEqual(range);
        expect(drift(w, fresh)).toBe(0);
      });
    }
  }

  it('world.remove takes a self-collision handle and a rigid box, as its docs say', () => {
    const w = new World();
    const cloth = core.createCloth(w, { width: 3, height: 3, spacing: 0.2, corner: [2, 2, 0] });
    expect(() => w.remove(core.enableSelfCollision(w, cloth.body, { thickness: 0.01 }))).not.toThrow();
    expect(() => w.remove(core.createBox(w, { position: [0, 3, 0] }))).not.toThrow();
    expect(w.bodies.filter((b) => b.alive)).toHaveLength(1);
  });
});
