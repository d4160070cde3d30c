import { describe, expect, it } from 'vitest';
import * as core from '../../src/core/index.js';
import { Attachment, BodyAttachment, CoupledAttachment, CoupledBody, PinGlide, Springs, World, type BodyRecord, type Removable } from '../../src/core/index.js';

// Every add…, create…, enable… and protect… of sinew-physics/core gives back something
// that `world.remove` takes, and removing it leaves the world as it was before the add.

/** A small scene to add things to: a floor, loose particles, a pin, a cloth (a body with a surface), a spring force and a coupled body. */
function scene() {
  const world = new World();
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const a = world.addParticle({ position: [0, 1, 0] });
  const b = world.addParticle({ position: [0.3, 1, 0] });
  const c = world.addParticle({ position: [0, 1.3, 0] });
  const pin = world.addPin(world.addParticle({ position: [1, 1, 0] }));
  const cloth = core.createCloth(world, { width: 3, height: 3, spacing: 0.2, corner: [2, 2, 0] });
  const springs = new Springs(world);
  world.addForce(springs);
  const coupled = new CoupledBody(world, { mass: 1, inverseInertia: 1 });
  return { world, a, b, c, pin, body: cloth.body, springs, coupled };
}

type Scene = ReturnType<typeof scene>;

/** How one call is made, by the name it is exported (or, for a method, `World.name`) under. */
const recipes: Record<string, (s: Scene) => Removable> = {
  'World.addParticle': ({ world }) => world.addParticle({ position: [5, 5, 5] }),
  'World.addParticles': ({ world }) => world.addParticles([{ position: [5, 5, 5] }]),
  'World.addStick': ({ world, a, b }) => world.addStick(a, b),
  'World.addPin': ({ world, a }) => world.addPin(a),
  'World.addConstraint': ({ world }) => world.addConstraint({ project: () => {} }),
  'World.addForce': ({ world }) => world.addForce({ apply: () => {} }),
  'World.addCollider': ({ world }) => world.addCollider({ type: 'sphere', position: [0, 3, 0], radius: 0.5 }),
  'World.addBody': ({ world }) => world.addBody(world.addParticles([{ position: [5, 5, 5] }, { position: [6, 5, 5] }]), 2),
  'World.onBeforeStep': ({ world }) => world.onBeforeStep(() => {}),
  'World.onAfterStep': ({ world }) => world.onAfterStep(() => {}),
  createCloth: ({ world }) => core.createCloth(world, { width: 4, height: 4, corner: [0, 3, 0], tearStrain: 0.5 }),
  createRope: ({ world }) => core.createRope(world, { from: [0, 3, 0], to: [1, 3, 0], segments: 4, pinStart: true }),
  createPlant: ({ world }) => core.createPlant(world, { root: [3, 0, 0] }),
  createSoftBody: ({ world }) => core.createSoftBody(world, { position: [0, 3, 0], size: 0.4 }),
  createBox: ({ world }) => core.createBox(world, { position: [0, 3, 0] }),
  createTetrahedron: ({ world }) => core.createTetrahedron(world, { position: [0, 3, 0] }),
  createConvex: ({ world }) =>
    core.createConvex(world, {
      points: [
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      position: [0, 3, 0],
    }),
  createRagdoll: ({ world }) => core.createRagdoll(world, { feet: [0, 3, 0] }),
  createWind: ({ world }) => core.createWind(world, { velocity: [3, 0, 0] }),
  addAngleConstraint: ({ world, a, b, c }) => core.addAngleConstraint(world, b, a, c, { min: 1 }),
  addPlaneConstraint: ({ world, a, b }) => core.addPlaneConstraint(world, [a, b], { normal: [0, 0, 1], offset: 0 }),
  addCapsuleEdge: ({ world, a, b }) => core.addCapsuleEdge(world, a, b, 0.05),
  addBodyCapsuleEdges: ({ world, body }) => core.addBodyCapsuleEdges(world, body, 0.02),
  addCollisionTriangle: ({ world, a, b, c }) => core.addCollisionTriangle(world, a, b, c),
  addSurfaceCollision: ({ world, body }) => core.addSurfaceCollision(world, body),
  protectFromTunnelling: ({ world, body }) => core.protectFromTunnelling(world, body),
  enableParticleCollisions: ({ world }) => core.enableParticleCollisions(world),
  enableSelfCollision: ({ world, body }) => core.enableSelfCollision(world, body, { thickness: 0.01 }),
  // The classes that add themselves to the world they are made with.
  'new Attachment': ({ world, a, b }) => new Attachment(world, [a, b]),
  'new BodyAttachment': ({ world, a, body }) => new BodyAttachment(world, [a], [body.first]),
  'new CoupledAttachment': ({ world, a, coupled }) => new CoupledAttachment(world, a, coupled),
  'new CoupledBody': ({ world }) => new CoupledBody(world, { mass: 1, inverseInertia: 1 }),
  'new PinGlide': ({ world, pin }) => new PinGlide(world, pin),
  'Springs.add': ({ springs, a, b }) => springs.add(a, b, { stiffness: 10 }),
};

/**
 * What the scene holds, counted every way a removal could leave something behind.
 * (Substep stages are not counted: a feature's system registers one per world on
 * first use and keeps it; what an instance registers is checked by name below.)
 */
function census({ world, springs }: Scene) {
  return {
    springs: springs.count,
    particles: world.particleCount,
    constraints: world.constraintCount,
    colliders: world.colliders.length,
    forces: world.forces.length,
    beforeStep: world.beforeStep.length,
    afterStep: world.afterStep.length,
    bodies: world.bodies.filter((b: BodyRecord) => b.alive).length,
  };
}

describe('world.remove takes everything an add returns', () => {
  it('has a recipe for every add…, create…, enable… and protect… the core exports, and every World add', () => {
    const free = Object.keys(core).filter((name) => /^(add|create|enable|protect)[A-Z]/.test(name) && typeof core[name as keyof typeof core] === 'function');
    const methods = Object.getOwnPropertyNames(World.prototype)
      .filter((name) => /^(add|on)[A-Z]/.test(name))
      .map((name) => `World.${name}`);
    const covered = Object.keys(recipes).filter((name) => !name.startsWith('new ') && !name.startsWith('Springs.'));
    expect([...free, ...methods].sort()).toEqual(covered.sort());
  });

  for (const [name, add] of Object.entries(recipes)) {
    it(`${name}: world.remove undoes it, and the world steps on`, () => {
      const s = scene();
      const before = census(s);
      const made = add(s);
      // The add did something: it shows in the census, or it is a stage of the step.
      if (!s.world.substepStages.includes(made as never)) expect(census(s)).not.toEqual(before);
      s.world.remove(made);
      expect(census(s)).toEqual(before);
      expect(s.world.substepStages).not.toContain(made);
      for (let i = 0; i < 3; i++) s.world.step();
    });
  }

  it('a removed id, or something that was never added, is an error naming it', () => {
    const { world, a, b } = scene();
    const stick = world.addStick(a, b);
    world.remove(stick);
    expect(() => world.remove(stick)).toThrow(`remove: nothing in this world has id ${stick}`);
    world.remove(a);
    expect(() => world.remove(a)).toThrow(`remove: particle ${a} was removed`);
    expect(() => world.remove(-1)).toThrow('remove: nothing in this world has id -1');
    expect(() => world.remove(Number.NaN)).toThrow('remove: nothing in this world has id NaN');
    expect(() => world.remove(null as never)).toThrow('remove: expected an id, a body or a handle, got null');
    expect(() => world.remove({ width: 2 } as never)).toThrow('remove: expected an id, a body or a handle, got an object with no remove() (keys: width)');
  });
});
