import { describe, expect, it } from 'vitest';
import { createBox, createCloth, createRagdoll, particleSlot, World } from '../../src/core/index.js';

function scene(seed = 1) {
  const world = new World({ seed, damping: 0.3 });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  world.addCollider({ type: 'sphere', position: [0.3, 0.5, 0], radius: 0.4 });
  const first = world.addParticles(Array.from({ length: 30 }, (_, i) => ({ position: [Math.sin(i) * 0.5, 2 + i * 0.05, Math.cos(i) * 0.5] as [number, number, number], radius: 0.02 })));
  for (let i = 0; i < 29; i++) world.addStick(first + i, first + i + 1, { stiffness: 0.9 });
  world.addStick(first, first + 29, { length: 0.3, kind: 'min' });
  world.addPin(first + 5);
  return world;
}

describe('determinism and snapshots', () => {
  it('identical scenes give identical bits', () => {
    const a = scene();
    const b = scene();
    for (let i = 0; i < 200; i++) {
      a.step();
      b.step();
    }
    expect(Buffer.from(a.positions.buffer).equals(Buffer.from(b.positions.buffer))).toBe(true);
  });

  it('snapshot() / restore() round-trips the whole state', () => {
    const world = scene();
    for (let i = 0; i < 50; i++) world.step();
    const snap = world.snapshot();
    for (let i = 0; i < 100; i++) world.step();
    const after = world.positions.slice();
    world.addParticle({ position: [9, 9, 9] });
    world.restore(snap);
    expect(world.particleCount).toBe(30);
    for (let i = 0; i < 100; i++) world.step();
    expect(world.positions.slice()).toEqual(after);
    const clone = structuredClone(snap);
    world.restore(clone);
    expect(world.stepCount).toBe(50);
  });

  it('restore draws the restored positions, keeps later constraint ids taken, and refuses another scene', () => {
    const world = new World();
    const ball = world.addParticle({ position: [0, 10, 0] });
    for (let i = 0; i < 20; i++) world.step();
    world.advance(0.5 / 60);
    const snap = world.snapshot();
    for (let i = 0; i < 20; i++) world.step();
    const later = world.addConstraint({ project: () => {} });
    world.restore(snap);
    // Interpolated reads blend between the restored positions, not from where the ball was before.
    expect(world.getInterpolatedPosition(ball)).toEqual(world.getPosition(ball));
    // A user constraint added after the snapshot survives it; new ids do not collide with it.
    const stick = world.addStick(ball, world.addParticle({ position: [1, 10, 0] }));
    expect(stick).not.toBe(later);
    world.removeConstraint(stick);
    expect(world.hasConstraint(later)).toBe(true);
    // Bodies are part of the scene: a snapshot does not restore across added or removed ones.
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }]);
    const rope = world.addBody(first, 2, { kind: 'rope' });
    expect(() => world.restore(snap)).toThrow(`restore: body ${rope.id} (a rope) was added after this snapshot was taken; remove it before restoring`);
    const withRope = world.snapshot();
    world.remove(rope);
    expect(() => world.restore(withRope)).toThrow(`restore: the snapshot has body #${rope.serial}, which was removed after it was taken`);
    // A new body takes the removed one's slot, but it is not the body the snapshot holds.
    const again = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }]);
    const other = world.addBody(again, 2, { kind: 'rope' });
    expect(other.id).toBe(rope.id);
    expect(() => world.restore(withRope)).toThrow(`restore: body ${other.id} (a rope) was added after this snapshot was taken`);
    world.remove(other);
    world.restore(snap);
    expect(world.particles.body[first]).toBe(-1);
  });

  it('restore checks the whole snapshot before writing anything', () => {
    const world = scene();
    for (let i = 0; i < 10; i++) world.step();
    const snap = world.snapshot();
    const before = world.positions.slice();
    const broken = structuredClone(snap) as { particles: Partial<typeof snap.particles> };
    delete broken.particles.previous;
    expect(() => world.restore(broken as typeof snap)).toThrow("restore: the snapshot's previous column is missing or too short");
    expect(() => world.restore({} as typeof snap)).toThrow('restore: not a snapshot');
    expect(world.positions).toEqual(before);
    expect(world.particleCount).toBe(30);
    // A snapshot from before bodies were recorded (no body column, no list) still restores a scene without bodies.
    const old = structuredClone(snap) as { particles: Partial<typeof snap.particles>; bodies?: number[] };
    delete old.particles.body;
    delete old.bodies;
    world.step();
    world.restore(old as typeof snap);
    expect(world.positions).toEqual(before);
  });
});

describe('storage', () => {
  it('gives a body a contiguous id range and reuses removed slots', () => {
    const world = new World();
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }, { position: [2, 0, 0] }]);
    const lone = world.addParticle({ position: [5, 0, 0] });
    expect(lone).toBe(first + 3);
    world.addStick(first, first + 1);
    world.addStick(first + 1, first + 2);
    world.addPin(first + 1);
    world.removeParticle(first + 1);
    expect(world.particleCount).toBe(3);
    expect(world.constraintCount).toBe(0);
    expect(() => world.getPosition(first + 1)).toThrow(`getPosition: id: particle ${first + 1} was removed`);
    // The slot is reused under a new id: its next generation.
    const again = world.addParticle({ position: [7, 0, 0] });
    expect(particleSlot(again)).toBe(first + 1);
    world.removeParticle(first);
    world.removeParticle(again);
    expect(particleSlot(world.addParticles([{ position: [0, 0, 0] }, { position: [0, 0, 0] }]))).toBe(first);
  });

  it('refuses to remove one particle of a body, whose range it owns', () => {
    const world = new World();
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }]);
    const body = world.addBody(first, 2, { kind: 'rope' });
    expect(() => world.removeParticle(first + 1)).toThrow(`removeParticle: particle ${first + 1} belongs to body ${body.id} (a rope); remove the whole body with world.remove(body)`);
    expect(world.particleCount).toBe(2);
    world.remove(body);
    expect(world.particleCount).toBe(0);
  });

  it('grows past its initial capacity without losing data', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const ids = Array.from({ length: 1000 }, (_, i) => world.addParticle({ position: [i, -i, i * 2] }));
    world.addStick(ids[0]!, ids[999]!);
    ids.forEach((id, i) => expect(world.getPosition(id)).toEqual([i, -i, i * 2]));
    expect(world.positions.length).toBeGreaterThanOrEqual(3000);
  });
});

describe('bad input', () => {
  const world = new World();
  const p = world.addParticle({ position: [0, 0, 0] });
  it.each([
    [() => new World({ timeStep: 0 }), /World: timeStep must be > 0/],
    [() => new World({ iterations: 1.5 }), /World: iterations must be an integer >= 1, got 1.5/],
    [() => new World({ gravity: [0, NaN, 0] }), /World: gravity must be finite numbers, got \[0, NaN, 0\]/],
    [() => new World({ damping: -1 }), /World: damping/],
    [() => world.addParticle({ position: [0, Infinity, 0] }), /addParticle: position must be finite/],
    [() => world.addParticle({ position: [0, 0] as never }), /addParticle: position must have 3 components/],
    [() => world.addParticle({ position: [0, 0, 0], mass: -1 }), /addParticle: mass must be >= 0.*got -1/],
    [() => world.addParticle({ position: [0, 0, 0], velocity: { x: 1, y: NaN, z: 0 } }), /addParticle: velocity/],
    [() => world.addStick(p, p), /addStick: a and b must differ, both are particle 0/],
    [() => world.addStick(p, 99), /addStick: b: no particle with id 99/],
    [() => world.addStick(p, world.addParticle({ position: [1, 0, 0] }), { stiffness: 1.5 }), /addStick: stiffness/],
    [() => world.addStick(p, world.addParticle({ position: [1, 0, 0] }), { kind: 'rubber' as never }), /addStick: kind must be/],
    [() => world.addPin(-1), /addPin: particle: no particle with id -1/],
    [() => world.setPinTarget(12345, [0, 0, 0]), /setPinTarget: no pin with id 12345/],
    [() => world.addCollider({ type: 'cone' } as never), /addCollider: unknown shape type "cone"/],
    [() => world.addCollider({ type: 'plane', normal: [0, 0, 0], offset: 0 }), /normal must not be \[0, 0, 0\]/],
    [() => world.advance(-1), /advance: elapsedSeconds/],
    [() => world.getVelocity(3.5), /getVelocity: id: no particle with id 3.5/],
    [() => world.removeConstraint(777), /removeConstraint: no constraint with id 777/],
  ])('%#: rejects with a message naming the argument', (fn, message) => {
    expect(fn).toThrow(message);
  });
});

describe('bodies', () => {
  it('register a particle range and remove it whole, constraints included', () => {
    const world = new World();
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }, { position: [2, 0, 0] }]);
    const other = world.addParticle({ position: [5, 0, 0] });
    const body = world.addBody(first, 3, { kind: 'rope', iterations: 4 });
    body.constraints.push(world.addStick(first, first + 1), world.addStick(first + 1, first + 2));
    const tie = world.addStick(first + 2, other);
    expect(world.bodyOf(first + 1)).toBe(body);
    expect(world.bodyOf(other)).toBeUndefined();
    world.remove(body);
    expect(world.particleCount).toBe(1);
    expect(world.hasConstraint(tie)).toBe(false);
    expect(world.constraintCount).toBe(0);
    expect(() => world.remove(body)).toThrow('remove: the rope (body 0) was removed already');
    expect(() => world.addBody(first, 2)).toThrow(`addBody: first: particle ${first} was removed`);
  });

  it('refuse a range whose particles come from different addParticles calls, naming the one that does not fit', () => {
    const world = new World();
    const a = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }, { position: [2, 0, 0] }]);
    world.removeParticle(a + 1);
    // The freed middle slot is reused by a particle of a newer generation: a + 1 no longer names it.
    const middle = world.addParticle({ position: [9, 0, 0] });
    expect(particleSlot(middle)).toBe(particleSlot(a) + 1);
    expect(() => world.addBody(a, 3)).toThrow(`addBody: first + 1 is ${a + 1}, but the particle in its slot is ${middle}; a body's particles must come from one addParticles call`);
    world.removeParticle(middle);
    expect(() => world.addBody(a, 3)).toThrow(`addBody: first + 1 (${a + 1}) names no live particle`);
  });

  it('built by every builder, leave no particle or constraint behind when removed', () => {
    const world = new World();
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const bodies = [createRagdoll(world, { feet: [0, 1, 0] }), createBox(world, { position: [2, 1, 0], radius: 0.02 }), createCloth(world, { width: 6, height: 5, tearStrain: 0.5, pin: 'top' })];
    for (let i = 0; i < 30; i++) world.step();
    expect(world.constraintCount).toBeGreaterThan(100);
    for (const body of bodies) body.remove();
    expect(world.particleCount).toBe(0);
    expect(world.constraintCount).toBe(0);
    for (let i = 0; i < 30; i++) world.step();
  });
});

describe('interpolated rendering of new particles', () => {
  it('starts a particle in a reused slot where it is, not where the slot’s last owner was', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const old = world.addParticle({ position: [5, 5, 5] });
    world.step();
    world.removeParticle(old);
    const fresh = world.addParticle({ position: [-1, 0, 0] });
    expect(particleSlot(fresh)).toBe(particleSlot(old));
    world.advance(0.5 / 60);
    expect(world.getInterpolatedPosition(fresh)).toEqual([-1, 0, 0]);
  });
});
