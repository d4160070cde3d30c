import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Buoyancy,
  checkSolverSettings,
  CLOTH_DEFAULTS,
  COLLIDER_DEFAULTS,
  createBox,
  createCloth,
  createPlant,
  createRagdoll,
  createRope,
  VolumeConstraint,
  CoupledBody,
  createWind,
  ELECTRIC_DEFAULTS,
  ElectricForce,
  GRAVITATION_DEFAULTS,
  GravitationalForce,
  WIND_DEFAULTS,
  PARTICLE_DEFAULTS,
  PLANT_DEFAULTS,
  RAGDOLL_DEFAULTS,
  RIGID_DEFAULTS,
  ROPE_DEFAULTS,
  BUOYANCY_DEFAULTS,
  World,
  WORLD_DEFAULTS,
} from '../../src/core/index.js';
import { checkSettings, WORLD_SETTING_DEFAULTS } from '../../src/react/store.js';

// Issue 27, one owner per fact: every setter checks its value, one check
// serves `new World` and `<World>`, the substep length has one formula.

describe('settings', () => {
  it('every setter refuses a bad value, naming it', () => {
    const world = new World();
    expect(() => (world.sqrtApprox = 'no' as never)).toThrow("World: sqrtApprox must be true or false, got 'no'");
    expect(() => (world.clock = 5 as never)).toThrow('World: clock must be a function, got 5');
    expect(() => (world.iterations = 0)).toThrow('World: iterations must be an integer >= 1, got 0');
    expect(() => (world.damping = -1)).toThrow('World: damping');
    expect(() => (world.timeStep = 0)).toThrow('World: timeStep must be > 0, got 0');
    expect(() => (world.substeps = 1.5)).toThrow('World: substeps');
    expect(() => (world.budgetMs = -1)).toThrow('World: budgetMs');
    expect(() => (world.kernel = 'gpu' as never)).toThrow("World: kernel must be 'wasm' or 'js', got 'gpu'");
    // The refused values changed nothing.
    expect(world.sqrtApprox).toBe(false);
    expect(world.iterations).toBe(WORLD_DEFAULTS.iterations);
    world.sqrtApprox = true;
    expect(world.sqrtApprox).toBe(true);
  });

  it("the settings of the world's parts refuse a bad value, naming it, and keep the last good one", () => {
    const world = new World();
    const refused: [() => unknown, string][] = [
      [() => (world.sleep.enabled = 'yes' as never), "World: sleep must be true or false, got 'yes'"],
      [() => (world.sleep.speed = -0.5), 'World: sleepSpeed must be a finite number in [0, Infinity], got -0.5'],
      [() => (world.sleep.speed = Number.NaN), 'World: sleepSpeed must be a finite number in [0, Infinity], got NaN'],
      [() => (world.sleep.time = -2), 'World: sleepTime must be a finite number in [0, Infinity], got -2'],
      [() => (world.sleep.time = Infinity), 'World: sleepTime must be a finite number in [0, Infinity], got Infinity'],
      [() => (world.budget.minSubsteps = 0), 'World: minSubsteps must be an integer >= 1, got 0'],
      [() => (world.budget.minSubsteps = 2.5), 'World: minSubsteps must be an integer >= 1, got 2.5'],
      [() => (world.budget.minIterations = -3), 'World: minIterations must be an integer >= 1, got -3'],
      [() => (world.budget.budgetMs = -4), 'World: budgetMs must be a finite number in [0, Infinity], got -4'],
      [() => (world.tethers.enabled = 1 as never), 'World: tethers must be true or false, got 1'],
      [() => (world.realTime.onSlow = 'log' as never), 'World: onSlowerThanRealTime must be a function, got log'],
    ];
    for (const [set, message] of refused) expect(set).toThrow(message);
    // The refused values changed nothing.
    expect([world.sleep.enabled, world.sleep.speed, world.sleep.time]).toEqual([WORLD_DEFAULTS.sleep, WORLD_DEFAULTS.sleepSpeed, WORLD_DEFAULTS.sleepTime]);
    expect([world.budget.minSubsteps, world.budget.minIterations, world.budget.budgetMs]).toEqual([WORLD_DEFAULTS.minSubsteps, WORLD_DEFAULTS.minIterations, WORLD_DEFAULTS.budgetMs]);
    expect([world.tethers.enabled, world.realTime.onSlow]).toEqual([WORLD_DEFAULTS.tethers, undefined]);
    // Good values, the bounds included, are taken as given.
    world.sleep.enabled = true;
    world.sleep.speed = 0;
    world.sleep.time = 0.25;
    world.budget.minSubsteps = 3;
    world.budget.minIterations = 1;
    world.budget.budgetMs = 0.5;
    world.tethers.enabled = false;
    const onSlow = (): void => {};
    world.realTime.onSlow = onSlow;
    expect([world.sleep.enabled, world.sleep.speed, world.sleep.time]).toEqual([true, 0, 0.25]);
    expect([world.budget.minSubsteps, world.budget.minIterations, world.budget.budgetMs, world.budgetMs]).toEqual([3, 1, 0.5, 0.5]);
    expect(world.tethers.enabled).toBe(false);
    expect(world.realTime.onSlow).toBe(onSlow);
    world.realTime.onSlow = undefined;
    expect(world.realTime.onSlow).toBeUndefined();
    // The push-out limit's off switch.
    world.contacts.maxPushOutSpeed = Infinity;
    expect(world.contacts.maxPushOutSpeed).toBe(Infinity);
  });

  it("the force generators' settings refuse a bad value, naming it, and take good ones", () => {
    const world = new World();
    const water = new Buoyancy({ level: 0 });
    const gravitation = new GravitationalForce();
    const electric = new ElectricForce();
    const wind = createWind(world, { velocity: [1, 0, 0] });
    const refused: [() => unknown, string][] = [
      [() => (water.level = Number.NaN), 'Buoyancy: level must be a finite number, got NaN'],
      [() => (water.density = -1), 'Buoyancy: density must be a finite number in [0, Infinity], got -1'],
      [() => (water.drag = Infinity), 'Buoyancy: drag must be a finite number in [0, Infinity], got Infinity'],
      [() => (gravitation.G = -1e-11), 'GravitationalForce: G must be a finite number in [0, Infinity], got -1e-11'],
      [() => (gravitation.softening = -0.1), 'GravitationalForce: softening must be a finite number in [0, Infinity], got -0.1'],
      [() => (electric.K = 'big' as never), 'ElectricForce: K must be a finite number in [0, Infinity], got big'],
      [() => (electric.softening = -1), 'ElectricForce: softening must be a finite number in [0, Infinity], got -1'],
      [() => (wind.velocity = [1, Number.NaN, 0]), 'Wind: velocity must be finite numbers, got [1, NaN, 0]'],
      [() => (wind.coefficient = -2), 'Wind: coefficient must be a finite number in [0, Infinity], got -2'],
      [() => (wind.gust = -0.5), 'Wind: gust must be a finite number in [0, Infinity], got -0.5'],
      [() => (wind.gustFrequency = -1), 'Wind: gustFrequency must be a finite number in [0, Infinity], got -1'],
      [() => (wind.turbulence = -0.1), 'Wind: turbulence must be a finite number in [0, Infinity], got -0.1'],
      [() => (wind.turbulenceScale = 0), `Wind: turbulenceScale must be a finite number in [${Number.MIN_VALUE}, Infinity], got 0`],
      [() => (wind.seed = Infinity), 'Wind: seed must be a finite number, got Infinity'],
      [() => (wind.bodies = 'all' as never), 'Wind: bodies must be an array of body records, got all'],
    ];
    for (const [set, message] of refused) expect(set).toThrow(message);
    // The refused values changed nothing: the constructors' (the defaults module's) stand.
    expect([water.level, water.density, water.drag]).toEqual([0, BUOYANCY_DEFAULTS.density, BUOYANCY_DEFAULTS.drag]);
    expect([gravitation.G, electric.K, wind.coefficient, wind.turbulenceScale]).toEqual([GRAVITATION_DEFAULTS.G, ELECTRIC_DEFAULTS.K, WIND_DEFAULTS.coefficient, WIND_DEFAULTS.turbulenceScale]);
    expect(wind.velocity).toEqual([1, 0, 0]);
    water.level = -2.5;
    water.density = 0;
    gravitation.G = 1;
    electric.softening = 0.05;
    wind.velocity = { x: 0, y: 0, z: 3 };
    wind.gust = 0.4;
    wind.seed = 7.9;
    wind.bodies = [];
    expect([water.level, water.density, gravitation.G, electric.softening, wind.gust, wind.seed]).toEqual([-2.5, 0, 1, 0.05, 0.4, 7]);
    expect([wind.velocity, wind.bodies]).toEqual([[0, 0, 3], []]);
    // The velocity may still be changed in place.
    wind.velocity[0] = 2;
    expect(wind.velocity).toEqual([2, 0, 3]);
  });

  it("the fields of bodies' parts that change live refuse a bad value, naming it, and take good ones", () => {
    const world = new World();
    // A tetrahedron, its faces wound counter-clockwise seen from outside.
    const ids = [
      [1, 1, 1],
      [1, -1, -1],
      [-1, 1, -1],
      [-1, -1, 1],
    ].map((position) => world.addParticle({ position: position as [number, number, number] }));
    const volume = new VolumeConstraint(world, Uint32Array.from([0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2].map((k) => ids[k]!)), ids[0]!, 4);
    const cloth = createCloth(world, { width: 4, height: 4, tearStrain: 0.5 });
    const coupled = new CoupledBody(world, { mass: 2, inverseInertia: 1 });
    const refused: [() => unknown, string][] = [
      [() => (volume.pressure = 2), 'VolumeConstraint: pressure must be a finite number in [0, 1], got 2'],
      [() => (volume.inflation = 0), `VolumeConstraint: inflation must be a finite number in [${Number.MIN_VALUE}, Infinity], got 0`],
      [() => (volume.compliance = -1), 'VolumeConstraint: compliance'],
      [() => (volume.restVolume = Number.NaN), `VolumeConstraint: restVolume must be a finite number in [${Number.MIN_VALUE}, Infinity], got NaN`],
      [() => (cloth.tearing.strain = 0), 'ClothTearing: strain must be > 0, got 0'],
      [() => (cloth.tearing.strain = -0.2), 'ClothTearing: strain must be a finite number in [0, Infinity], got -0.2'],
      [() => (coupled.inverseMass = -0.5), 'CoupledBody: inverseMass must be a finite number in [0, Infinity], got -0.5'],
      [() => (coupled.inverseMass = Number.NaN), 'CoupledBody: inverseMass must be a finite number in [0, Infinity], got NaN'],
    ];
    const before = [volume.pressure, volume.inflation, volume.compliance, volume.restVolume, cloth.tearing.strain, coupled.inverseMass];
    for (const [set, message] of refused) expect(set).toThrow(message);
    expect([volume.pressure, volume.inflation, volume.compliance, volume.restVolume, cloth.tearing.strain, coupled.inverseMass]).toEqual(before);
    expect(before[4]).toBe(0.5);
    expect(before[5]).toBe(0.5);
    volume.pressure = 1;
    volume.inflation = 1.5;
    cloth.tearing.strain = Infinity;
    coupled.inverseMass = 0;
    expect([volume.pressure, volume.inflation, cloth.tearing.strain, coupled.inverseMass]).toEqual([1, 1.5, Infinity, 0]);
  });

  it('new World and <World> share one check, with the same words', () => {
    // Accepted before: a truthy string for a flag.
    expect(() => new World({ tethers: 'yes' as never })).toThrow("World: tethers must be true or false, got 'yes'");
    expect(() => checkSolverSettings({ sleep: 'yes' as never }, 'World')).toThrow("World: sleep must be true or false, got 'yes'");
    for (const [key, bad] of [
      ['iterations', 0],
      ['seed', -1],
      ['sleepSpeed', -1],
      ['sqrtApprox', 'no'],
      ['kernel', 'gpu'],
    ] as const) {
      let core = '';
      let react = '';
      try {
        new World({ [key]: bad } as never);
      } catch (e) {
        core = (e as Error).message.replace('World: ', '');
      }
      try {
        checkSettings({ ...WORLD_SETTING_DEFAULTS, [key]: bad }, '<World>');
      } catch (e) {
        react = (e as Error).message.replace('<World>: ', '');
      }
      expect(core, key).not.toBe('');
      expect(react, key).toBe(core);
    }
    // Infinity turns the push-out limit off in both.
    expect(() => new World({ maxPushOutSpeed: Infinity })).not.toThrow();
    expect(() => checkSettings({ ...WORLD_SETTING_DEFAULTS, maxPushOutSpeed: Infinity }, '<World>')).not.toThrow();
  });

  it('defaults come from one module', () => {
    const world = new World();
    const id = world.addParticle({ position: [0, 0, 0] });
    expect(world.getMass(id)).toBe(PARTICLE_DEFAULTS.mass);
    expect(world.particles.friction[id]).toBe(PARTICLE_DEFAULTS.friction);
    expect(world.sleep.speed).toBe(WORLD_DEFAULTS.sleepSpeed);
    expect(WORLD_SETTING_DEFAULTS.substeps).toBe(WORLD_DEFAULTS.substeps);
    for (const shape of [
      { type: 'plane', normal: [0, 1, 0], offset: 0 },
      { type: 'sphere', position: [0, 0, 0], radius: 1 },
    ] as const) {
      const collider = world.getCollider(world.addCollider(shape));
      expect([collider.friction, collider.restitution]).toEqual([COLLIDER_DEFAULTS.friction, COLLIDER_DEFAULTS.restitution]);
    }
  });

  it('a default changed in the defaults module changes what is built: no builder keeps its own copy', () => {
    // Each row: a default, a value it never has, what a builder given no such option
    // makes, and what that should be for a value v of the default.
    const plant = (w: World) => createPlant(w);
    const rows: [Record<string, unknown>, string, number, (w: World) => number, (v: number) => number][] = [
      [PARTICLE_DEFAULTS, 'mass', 3, (w) => w.getMass(w.addParticle({ position: [0, 0, 0] })), (v) => v],
      [CLOTH_DEFAULTS, 'spacing', 0.25, (w) => w.getPosition(createCloth(w, { width: 2, height: 2 }).first + 1)[0], (v) => v],
      [CLOTH_DEFAULTS, 'arealDensity', 0.4, (w) => w.getMass(createCloth(w, { width: 2, height: 2, spacing: 1 }).first), (v) => v],
      // Two particles share a 1 m rope's mass.
      [ROPE_DEFAULTS, 'linearDensity', 0.6, (w) => w.getMass(createRope(w, { from: [0, 0, 0], to: [1, 0, 0], segments: 1 }).first), (v) => v / 2],
      [RIGID_DEFAULTS, 'radius', 0.05, (w) => w.particles.radius[createBox(w).first]!, (v) => v],
      // A 1 m cube's eight corners share density × 1 m³.
      [RIGID_DEFAULTS, 'density', 200, (w) => w.getMass(createBox(w).first), (v) => v / 8],
      [RAGDOLL_DEFAULTS, 'friction', 0.9, (w) => w.particles.friction[createRagdoll(w).first]!, (v) => v],
      // The tip's right edge stands at the blade's height.
      [PLANT_DEFAULTS, 'height', 0.8, (w) => w.getPosition(plant(w).first + plant(w).count - 1)[1], (v) => v],
      [BUOYANCY_DEFAULTS, 'density', 800, () => new Buoyancy({ level: 0 }).density, (v) => v],
    ];
    for (const [defaults, key, changed, built, expected] of rows) {
      const original = defaults[key] as number;
      expect(original, key).not.toBe(changed);
      expect(built(new World()), key).toBeCloseTo(expected(original), 12);
      defaults[key] = changed;
      try {
        expect(built(new World()), key).toBeCloseTo(expected(changed), 12);
      } finally {
        defaults[key] = original;
      }
    }
  });

  it('no engine file falls back to a number of its own: the inline `?? literal` left stand for an absent thing, not a default', () => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.ts$/.test(entry.name) && entry.name !== 'defaults.ts') {
          // A value read through `?.` that falls back is a count of something absent (0), and -1 is "no row".
          const text = readFileSync(path, 'utf8');
          for (const m of text.matchAll(/([\w.[\]!()]+) \?\? (\d[\d.e+-]*|Infinity)\b/g)) if (text[m.index - 1] !== '?') found.push(`${entry.name}: ${m[0]}`);
        }
      }
    };
    for (const layer of ['core', 'three']) walk(join(import.meta.dirname, '../../src', layer));
    expect(found.sort()).toEqual([
      // A strain of Infinity is no tearing; a particle given no charge has none.
      'cloth.ts: strain ?? Infinity',
      'electric.ts: this.charges[id] ?? 0',
      // A bone's share of its swing: all of it, unless blended.
      'swingDriver.ts: spec.share ?? 1',
      // A user constraint that does not count itself is one constraint.
      'world.ts: c.constraintCount ?? 1',
      'world.ts: c.constraintCount ?? 1',
    ]);
  });

  it('the substep length h = timeStep / substeps is worked out in one place, the world’s substep', () => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && /(world|this)\.timeStep(Value)? \/ (world|this)\.(activeSubsteps|substepsValue|substeps|substep)\b/.test(readFileSync(path, 'utf8'))) found.push(path);
      }
    };
    walk(join(import.meta.dirname, '../../src'));
    expect(found.map((p) => p.slice(p.indexOf('src')))).toEqual(['src/core/worldSettings.ts']);
  });
});
