import { World } from '../../src/core/world.js';
import { resolveParticle } from '../../src/react/particleRef.js';
import { createWorldStore } from '../../src/react/store.js';

describe('createWorldStore', () => {
  it('reads its defaults from the world and applies changed settings in place', () => {
    const world = new World({ substeps: 4, iterations: 2 });
    const store = createWorldStore(world, { timeScale: 0.5 });
    const { settings } = store.getState();
    expect([settings.substeps, settings.iterations, settings.timeScale, settings.paused]).toEqual([4, 2, 0.5, false]);
    const id = world.addParticle({ position: [0, 1, 0], velocity: [1, 0, 0] });
    store.getState().configure({ substeps: 8, damping: 0.5 });
    expect([world.substeps, world.damping]).toEqual([8, 0.5]);
    // Changing substeps keeps velocities (the core rescales previous positions).
    expect(world.getVelocity(id)[0]).toBeCloseTo(1, 9);
    const before = store.getState().settings;
    store.getState().configure({ substeps: 8 });
    expect(store.getState().settings).toBe(before);
  });

  it('refuses settings out of range, naming them, and leaves the world as it was', () => {
    const world = new World();
    const store = createWorldStore(world);
    const { configure, step } = store.getState();
    expect(() => configure({ iterations: 0 })).toThrow('configure: iterations must be an integer >= 1, got 0');
    expect(() => configure({ damping: -5 })).toThrow('configure: damping must be a finite number in [0, Infinity], got -5');
    expect(() => configure({ timeScale: -1 })).toThrow('configure: timeScale must be a finite number in [0, Infinity], got -1');
    expect(() => configure({ maxStepsPerAdvance: 0 })).toThrow('configure: maxStepsPerAdvance must be an integer >= 1, got 0');
    expect(() => configure({ paused: 'yes' as never })).toThrow("configure: paused must be true or false, got 'yes'");
    expect(() => step(NaN)).toThrow('step: count must be an integer >= 0, got NaN');
    expect([world.iterations, world.damping, world.maxStepsPerAdvance]).toEqual([1, 0, 5]);
    expect(store.getState().settings.timeScale).toBe(1);
    // The core's own fields check too.
    expect(() => (world.iterations = 0)).toThrow('World: iterations must be an integer >= 1, got 0');
    expect(() => (world.damping = NaN)).toThrow('World: damping must be a finite number in [0, Infinity], got NaN');
    expect(() => new World({ seed: 1.5 })).toThrow('World: seed must be an integer >= 0, got 1.5');
  });

  it('advances scaled by timeScale, pauses, and single-steps', () => {
    const world = new World();
    const store = createWorldStore(world, { timeScale: 0.5 });
    expect(store.getState().advance(4 / 60)).toBe(2);
    store.getState().pause();
    expect(store.getState().advance(1)).toBe(0);
    store.getState().step(2);
    expect(world.stepCount).toBe(4);
    expect(store.getState().stats.steps).toBe(4);
  });

  it('stacks gravity overrides over the setting, latest first', () => {
    const world = new World();
    const store = createWorldStore(world, { gravity: [0, -10, 0] });
    const moon = store.getState().overrideGravity([0, -1.6, 0]);
    const space = store.getState().overrideGravity([0, 0, 0]);
    expect(world.gravity).toEqual([0, 0, 0]);
    space();
    expect(world.gravity).toEqual([0, -1.6, 0]);
    store.getState().configure({ gravity: [0, -20, 0] });
    expect(world.gravity).toEqual([0, -1.6, 0]);
    moon();
    expect(world.gravity).toEqual([0, -20, 0]);
  });

  it('registers names and resolves particle references', () => {
    const world = new World();
    const store = createWorldStore(world);
    const hand = { id: world.addParticle({ position: [0, 1, 0] }) };
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }, { position: [2, 0, 0] }]);
    store.getState().nameParticle('hand', hand, '<Particle>');
    store.getState().nameBody('rope', { kind: 'rope', first, count: 3, resolve: (part) => (part === 'middle' ? first + 1 : undefined) }, '<Rope>');
    const state = store.getState();
    expect(resolveParticle(state, 'hand')).toBe(hand.id);
    expect(resolveParticle(state, 'rope.start')).toBe(first);
    expect(resolveParticle(state, 'rope.end')).toBe(first + 2);
    expect(resolveParticle(state, 'rope.1')).toBe(first + 1);
    expect(resolveParticle(state, 'rope.middle')).toBe(first + 1);
    expect(resolveParticle(state, 'rope.3')).toBeUndefined();
    expect(resolveParticle(state, 'nobody')).toBeUndefined();
    expect(resolveParticle(state, hand)).toBe(hand.id);
    expect(() => store.getState().nameParticle('hand', { id: 9 }, '<Particle>')).toThrow('<Particle>: name "hand" is already used by another particle in this <World>');
  });
});
