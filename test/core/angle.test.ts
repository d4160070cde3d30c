import { describe, expect, it } from 'vitest';
import { addAngleConstraint, angleAt, angleTable, setAngleConstraint, World, type Force } from '../../src/core/index.js';

const degrees = Math.PI / 180;

/** Pulls particles `a` and `b` toward each other (strength > 0) or apart (< 0) with a constant force. Allocates nothing. */
function squeeze(a: number, b: number, strength: number): Force {
  return {
    apply(world) {
      const p = world.particles.position;
      const f = world.particles.force;
      const dx = p[b * 3]! - p[a * 3]!;
      const dy = p[b * 3 + 1]! - p[a * 3 + 1]!;
      const dz = p[b * 3 + 2]! - p[a * 3 + 2]!;
      const s = strength / Math.hypot(dx, dy, dz);
      f[a * 3] = f[a * 3]! + dx * s;
      f[a * 3 + 1] = f[a * 3 + 1]! + dy * s;
      f[a * 3 + 2] = f[a * 3 + 2]! + dz * s;
      f[b * 3] = f[b * 3]! - dx * s;
      f[b * 3 + 1] = f[b * 3 + 1]! - dy * s;
      f[b * 3 + 2] = f[b * 3 + 2]! - dz * s;
    },
  };
}

/** An elbow: two 0.3 m sticks meeting at an immovable middle particle, opened to `opening`. */
function elbow(opening: number) {
  const world = new World({ gravity: [0, 0, 0], damping: 2 });
  const middle = world.addParticle({ position: [0, 0, 0], mass: 0 });
  const a = world.addParticle({ position: [0.3, 0, 0], mass: 1 });
  const b = world.addParticle({ position: [0.3 * Math.cos(opening), 0.3 * Math.sin(opening), 0], mass: 2 });
  world.addStick(middle, a);
  world.addStick(middle, b);
  return { world, a, middle, b };
}

describe('angle constraints', () => {
  it('keep the angle inside [min, max] against a force that closes it, then one that opens it', () => {
    const { world, a, middle, b } = elbow(90 * degrees);
    addAngleConstraint(world, a, middle, b, { min: 60 * degrees, max: 120 * degrees });
    const close = world.addForce(squeeze(a, b, 30));
    let smallest = Math.PI;
    for (let i = 0; i < 120; i++) {
      world.step();
      smallest = Math.min(smallest, angleAt(world, a, middle, b));
    }
    // Without the constraint the 30 N squeeze folds the elbow shut; with it the angle rests on the limit.
    expect(smallest / degrees).toBeGreaterThan(60 - 0.05);
    expect(angleAt(world, a, middle, b) / degrees).toBeCloseTo(60, 1);
    world.remove(close);
    world.addForce(squeeze(a, b, -30));
    let largest = 0;
    for (let i = 0; i < 120; i++) {
      world.step();
      largest = Math.max(largest, angleAt(world, a, middle, b));
    }
    expect(largest / degrees).toBeLessThan(120 + 0.05);
    expect(angleAt(world, a, middle, b) / degrees).toBeCloseTo(120, 1);
  });

  it('without the constraint the same squeeze closes the angle (the test above can fail)', () => {
    const { world, a, middle, b } = elbow(90 * degrees);
    world.addForce(squeeze(a, b, 30));
    let smallest = Math.PI;
    for (let i = 0; i < 120; i++) {
      world.step();
      smallest = Math.min(smallest, angleAt(world, a, middle, b));
    }
    expect(smallest / degrees).toBeLessThan(5);
  });

  it('projects mass-weighted: a violated angle is restored with the centre of mass and momentum unchanged', () => {
    const world = new World({ gravity: [0, 0, 0] });
    const masses = [1, 2, 3];
    const [a, middle, b] = [
      [1, 0.1, 0],
      [0, 0, 0.2],
      [0.9, 0.5, 0.1],
    ].map((position, i) => world.addParticle({ position: position as [number, number, number], mass: masses[i]! }));
    const ids = [a!, middle!, b!];
    const centre = () => [0, 1, 2].map((k) => ids.reduce((s, id, i) => s + masses[i]! * world.getPosition(id)[k]!, 0) / 6);
    const before = centre();
    expect(angleAt(world, a!, middle!, b!) / degrees).toBeLessThan(30);
    // min = max: an equality, so the linearised projection converges onto 75° rather than stopping past it.
    addAngleConstraint(world, a!, middle!, b!, { min: 75 * degrees, max: 75 * degrees });
    const table = angleTable(world);
    // The projection is linearised, so it converges onto 75° over a few passes rather than in one.
    for (let i = 0; i < 100; i++) table.project(world);
    expect(angleAt(world, a!, middle!, b!) / degrees).toBeCloseTo(75, 9);
    centre().forEach((c, k) => expect(c).toBeCloseTo(before[k]!, 12));
    // The projection moved positions, not previous positions: that is velocity, and its momentum is zero.
    world.step();
    const momentum = [0, 1, 2].map((k) => ids.reduce((s, id, i) => s + masses[i]! * world.getVelocity(id)[k]!, 0));
    momentum.forEach((p) => expect(p).toBeCloseTo(0, 9));
    expect(Math.hypot(...world.getVelocity(a!))).toBeGreaterThan(0.1);
  });

  it('leaves an angle inside its limits exactly alone', () => {
    const { world, a, middle, b } = elbow(100 * degrees);
    addAngleConstraint(world, a, middle, b, { min: 30 * degrees, max: 150 * degrees });
    const before = Float64Array.from(world.positions.subarray(0, 9));
    angleTable(world).project(world);
    expect(Array.from(world.positions.subarray(0, 9))).toEqual(Array.from(before));
  });

  it('with a hinge axis, bends one way only and in the hinge plane, like a knee', () => {
    // Hip above knee above foot; the axis points along +x, so the foot may swing to -z (behind) only.
    const world = new World({ gravity: [0, 0, 0], damping: 2 });
    const hip = world.addParticle({ position: [0, 1, 0], mass: 0 });
    const right = world.addParticle({ position: [-0.1, 1, 0], mass: 0 });
    const left = world.addParticle({ position: [0.1, 1, 0], mass: 0 });
    const knee = world.addParticle({ position: [0, 0.5, 0], mass: 0 });
    const foot = world.addParticle({ position: [0, 0, 0.001] });
    world.addStick(knee, foot);
    const tolerance = 3 * degrees;
    addAngleConstraint(world, hip, knee, foot, { min: 40 * degrees, hinge: { axis: [right, left], tolerance, sideways: 20 * degrees } });
    const push = (x: number, y: number, z: number) =>
      world.addForce({
        apply(w) {
          w.particles.force[foot * 3] = w.particles.force[foot * 3]! + x;
          w.particles.force[foot * 3 + 1] = w.particles.force[foot * 3 + 1]! + y;
          w.particles.force[foot * 3 + 2] = w.particles.force[foot * 3 + 2]! + z;
        },
      });
    // Kicked forward and sideways: the foot stays within |shin|·sin 3° = 0.026 m of the straight
    // line forward, and leans sideways (along the axis) by at most 20°.
    let stop = push(30, 0, 50);
    let forward = 0;
    let sideways = 0;
    for (let i = 0; i < 90; i++) {
      world.step();
      forward = Math.max(forward, world.getPosition(foot)[2]);
      sideways = Math.max(sideways, world.getPosition(foot)[0]);
    }
    expect(forward).toBeLessThan(0.5 * Math.sin(tolerance) + 1e-4);
    expect(sideways).toBeLessThan(0.5 * Math.sin(20 * degrees) + 1e-4);
    expect(world.getPosition(foot)[2]).toBeCloseTo(0.5 * Math.sin(tolerance), 3);
    expect(world.getPosition(foot)[0]).toBeCloseTo(0.5 * Math.sin(20 * degrees), 3);
    world.remove(stop);
    // Pulled up and back it folds freely, down to the 40° minimum.
    stop = push(0, 50, -10);
    for (let i = 0; i < 120; i++) world.step();
    expect(world.getPosition(foot)[2]).toBeLessThan(-0.25);
    expect(angleAt(world, hip, knee, foot) / degrees).toBeCloseTo(40, 1);
    world.remove(stop);
    // Pushed sideways while bent, the shin leans out of the hinge plane by at most 20° too.
    push(50, 0, 0);
    for (let i = 0; i < 120; i++) world.step();
    expect(world.getPosition(foot)[0]).toBeCloseTo(0.5 * Math.sin(20 * degrees), 3);
  });

  it('can be changed in place and removed', () => {
    const { world, a, middle, b } = elbow(90 * degrees);
    const id = addAngleConstraint(world, a, middle, b, { min: 10 * degrees });
    const other = addAngleConstraint(world, b, middle, a, { max: 170 * degrees });
    setAngleConstraint(world, id, { min: 100 * degrees });
    world.addForce(squeeze(a, b, 30));
    for (let i = 0; i < 120; i++) world.step();
    expect(angleAt(world, a, middle, b) / degrees).toBeCloseTo(100, 1);
    world.remove(id);
    expect(angleTable(world).count).toBe(1);
    expect(angleTable(world).rows.get(other)).toBe(0);
    expect(() => world.remove(id)).toThrow(`remove: nothing in this world has id ${id}`);
  });

  it('rejects bad input, naming the function, the argument and the value', () => {
    const { world, a, middle, b } = elbow(90 * degrees);
    expect(() => addAngleConstraint(world, a, middle, 99)).toThrow('addAngleConstraint: b: no particle with id 99');
    expect(() => addAngleConstraint(world, a, a, b)).toThrow('addAngleConstraint: a, middle and b must be three different particles, got 1, 1, 2');
    expect(() => addAngleConstraint(world, a, middle, b, { min: 4 })).toThrow('addAngleConstraint: min must be a finite number in [0, 3.14159');
    expect(() => addAngleConstraint(world, a, middle, b, { min: 2, max: 1 })).toThrow('addAngleConstraint: min must not exceed max, got min 2 and max 1');
    expect(() => addAngleConstraint(world, a, middle, b, { stiffness: 0 })).toThrow('addAngleConstraint: stiffness must be in (0, 1], got 0');
    expect(() => addAngleConstraint(world, a, middle, b, { hinge: { axis: [a, a] } })).toThrow('addAngleConstraint: hinge.axis must be two different particles, both are 1');
    expect(() => setAngleConstraint(world, 42, {})).toThrow('setAngleConstraint: no angle constraint with id 42');
  });
});
