import { existsSync, readFileSync } from 'node:fs';
import * as root from 'sinew-physics';
import * as core from 'sinew-physics/core';
import * as teaching from 'sinew-physics/teaching';
import * as testing from 'sinew-physics/testing';
import { describe, expect, it } from 'vitest';

// Each entry point fits its users (issue 13, item 5): `sinew-physics` is what an app
// imports and must stay short enough to autocomplete through; `sinew-physics/core` is the
// whole engine; `sinew-physics/teaching` holds the course material, which neither of the
// others carries. These count runtime names (what `import * as` sees); type-only
// exports leave nothing in a bundle and are not counted.

const rootNames = Object.keys(root);
const coreNames = Object.keys(core);
const teachingNames = Object.keys(teaching);
const testingNames = Object.keys(testing);

/** The engine an app or a headless simulation builds on: `sinew-physics/core` must keep all of it. */
const engine = [
  // the world and its storage
  'World',
  'ParticleStore',
  'ParticleFlag',
  'StickTable',
  'PinTable',
  'SleepSystem',
  'TimeBudget',
  'SeededRandom',
  'wasmKernelAvailable',
  // colliders and contacts
  'PlaneCollider',
  'SphereCollider',
  'BoxCollider',
  'CapsuleCollider',
  'ObbCollider',
  'TriangleMeshCollider',
  'Bvh',
  'ContactSettings',
  'respondToContacts',
  'FreePoint',
  // forces and motion
  'Attractor',
  'Buoyancy',
  'GravitationalForce',
  'ElectricForce',
  'Springs',
  'ForceCallback',
  'Wind',
  'createWind',
  'explode',
  'hit',
  'PinGlide',
  'inheritAnimation',
  // bodies, joints and their constraints
  'createCloth',
  'ClothTearing',
  'createRope',
  'createPlant',
  'createSoftBody',
  'VolumeConstraint',
  'RigidBody',
  'createBox',
  'createTetrahedron',
  'createConvex',
  'RIGID_MIN_ITERATIONS',
  'ballJoint',
  'hinge',
  'stickJoint',
  'Ragdoll',
  'createRagdoll',
  'ragdollParts',
  'LimbFrames',
  'addAngleConstraint',
  'addPlaneConstraint',
  // collision beyond static shapes
  'addCapsuleEdge',
  'addSurfaceCollision',
  'protectFromTunnelling',
  'enableParticleCollisions',
  'enableSelfCollision',
  'SpatialHash',
  // quaternions
  'toQuat',
  'quatFromAxisAngle',
  'quatMultiply',
  'quatConjugate',
  'rotateVector',
];

/** Everything `sinew-physics/teaching` exports, by name. */
const teachingEntry = ['particleState', 'explicitEuler', 'symplecticEuler', 'leapfrog', 'velocityVerlet', 'positionVerlet', 'steppers', 'projectilePosition', 'projectileVelocity', 'targetPractice'];

describe('entry points', () => {
  it(`sinew-physics exports fewer than 100 names (${rootNames.length})`, () => {
    expect(rootNames.length).toBeLessThan(100);
  });

  it('sinew-physics has the React toolkit, and the engine classes its refs and handles give under Core… names', () => {
    for (const name of ['World', 'Cloth', 'Rope', 'RigidBody', 'Ragdoll', 'Ground', 'DragControls', 'IKHandle', 'Debug', 'useWorld', 'useCloth', 'useRagdoll', 'readRange', 'BodyGeometry'])
      expect(rootNames, name).toContain(name);
    const aliases = {
      CoreWorld: 'World',
      CoreRigidBody: 'RigidBody',
      CoreRagdoll: 'Ragdoll',
      CoreWind: 'Wind',
      CoreAttractor: 'Attractor',
      CoreBoxCollider: 'BoxCollider',
      CoreSphereCollider: 'SphereCollider',
      CoreCapsuleCollider: 'CapsuleCollider',
    } as const;
    for (const [alias, name] of Object.entries(aliases)) expect(root[alias as keyof typeof root], alias).toBe(core[name]);
    // The component wins the short name.
    expect(root.World).not.toBe(core.World);
  });

  it('sinew-physics leaves the engine internals to sinew-physics/core', () => {
    for (const name of ['ParticleStore', 'StickTable', 'PinTable', 'SleepSystem', 'AngleTable', 'pushOut', 'makeContact', 'respondToContacts', 'createCloth', 'Springs'])
      expect(rootNames, name).not.toContain(name);
  });

  it('sinew-physics/core still exports the whole engine, and runs without React', () => {
    for (const name of engine) expect(coreNames, name).toContain(name);
    for (const name of ['useWorld', 'Cloth', 'DragControls', 'readRange', 'CoreWorld']) expect(coreNames, name).not.toContain(name);
    const world = new core.World({ gravity: [0, -10, 0] });
    const ball = world.addParticle({ position: [0, 1, 0] });
    world.step();
    expect(world.getPosition(ball)[1]).toBeLessThan(1);
  });

  it('sinew-physics/teaching holds the integrators and target practice, and neither other entry does', () => {
    expect([...teachingNames].sort()).toEqual([...teachingEntry].sort());
    for (const name of teachingNames) {
      expect(rootNames, name).not.toContain(name);
      expect(coreNames, name).not.toContain(name);
    }
    const state = teaching.particleState([0, 1, 0]);
    teaching.steppers.leapfrog.step(
      state,
      (_p, _v, out) => {
        out[0] = 0;
        out[1] = -10;
        out[2] = 0;
      },
      0.1,
    );
    expect(state.p[1]).toBeCloseTo(1 - 0.5 * 10 * 0.01, 12);
  });

  it('the test fixtures are in sinew-physics/testing, and neither the app entry nor the engine ships them', () => {
    for (const name of ['createTestHumanoid', 'createWalkClip', 'walkSpeed', 'mountWorld', 'mountHook', 'expectAtRest']) {
      expect(testingNames, name).toContain(name);
      expect(rootNames, name).not.toContain(name);
      expect(coreNames, name).not.toContain(name);
    }
    expect(testing.createTestHumanoid().mesh.skeleton.bones.length).toBeGreaterThan(20);
  });

  it('each entry is declared where a consumer, the type checker and the build find it', () => {
    const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
    const pkg = JSON.parse(read('../../package.json')) as { exports: Record<string, { types: string; import: string }> };
    const paths = (JSON.parse(read('../../tsconfig.json')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
    const viteConfig = read('../../vite.config.ts');
    for (const entry of ['core', 'teaching', 'testing', 'rapier', 'worker']) {
      expect(pkg.exports[`./${entry}`], entry).toEqual({ types: `./dist/types/${entry}/index.d.ts`, import: `./dist/${entry}.js` });
      expect(paths[`sinew-physics/${entry}`], entry).toEqual([`./src/${entry}/index.ts`]);
      expect(existsSync(new URL(`../../src/${entry}/index.ts`, import.meta.url)), entry).toBe(true);
      expect(viteConfig, entry).toContain(`${entry}: resolve(import.meta.dirname, 'src/${entry}/index.ts')`);
      expect(viteConfig, entry).toContain(`find: /^sinew-physics\\/${entry}$/`);
    }
  });
});
