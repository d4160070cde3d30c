import { describe, expect, it } from 'vitest';
import { createBox, createRagdoll, World, type ColliderShape, type Vec3, type WorldOptions } from '../../src/core/index.js';
import { MeshBuilder, solids } from './collisionScenes.js';

const speedOf = (world: World, id: number) => Math.hypot(...world.getVelocity(id));

/** How far point `p` lies inside the solid of `solids[kind]` (negative: outside). */
function depthInside(kind: string, p: Vec3): number {
  const [x, y, z] = p;
  switch (kind) {
    case 'sphere':
      return 5 - Math.hypot(x, y + 5, z);
    case 'capsule':
      return 5 - Math.hypot(y + 5, z) + Math.max(0, Math.abs(x) - 5);
    case 'obb': {
      // Undo the 45° turn about y, then the box's own half extents.
      const c = Math.SQRT1_2;
      const lx = c * x - c * z;
      const lz = c * x + c * z;
      return Math.min(5 - Math.abs(lx), 5 - Math.abs(y + 5), 5 - Math.abs(lz));
    }
    default:
      return -y;
  }
}

/** Every collider kind, thick and thin, for particles fired at it from any side. */
const targets: Record<string, ColliderShape> = {
  ...solids,
  'sphere (inside)': { type: 'sphere', position: [0, 0, 0], radius: 1.5, inside: true },
  'box (inside)': { type: 'box', min: [-1.5, -1.5, -1.5], max: [1.5, 1.5, 1.5], inside: true },
  'thin obb': { type: 'obb', position: [0, 0, 0], halfExtents: [0.02, 1, 1], rotation: [0, 0, 0.3826834, 0.9238795] },
  'thin capsule': { type: 'capsule', a: [0, -1, 0], b: [0, 1, 0], radius: 0.01 },
  mesh: new MeshBuilder().quad([-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1], [0, 1, 0]).quad([0, -1, -1], [0, 1, -1], [0, 1, 1], [0, -1, 1], [-1, 0, 0]).shape(),
};

describe('contact response: no launch, restitution you choose, never faster than it arrived', () => {
  it.each(Object.keys(solids))('a particle released from 3 m inside a %s leaves at the push-out speed limit, not at depth / h', (kind) => {
    for (const maxPushOutSpeed of [3, 1]) {
      const world = new World({ maxPushOutSpeed });
      world.addCollider(solids[kind]!);
      const id = world.addParticle({ position: [0.3, 0, 0.2] });
      const pin = world.addPin(id, [0.3, -3, 0.2]);
      for (let i = 0; i < 30; i++) world.step();
      world.removeConstraint(pin);
      let fastest = 0;
      // It climbs out at the limit: 3 m takes 1 s at 3 m/s and 3 s at 1 m/s.
      for (let i = 0; i < 240; i++) {
        world.step();
        fastest = Math.max(fastest, speedOf(world, id));
      }
      // Measured before the limit: about 900 m/s (3 m in one 1/600 s substep). Gravity adds at most g·Δt within the step it leaves in.
      expect(fastest).toBeLessThan(maxPushOutSpeed + 9.81 / 60);
      expect(fastest).toBeGreaterThan(0.5 * maxPushOutSpeed);
      expect(depthInside(kind, world.getPosition(id))).toBeLessThan(1e-6);
    }
  });

  it.each(Object.keys(solids))('a body made inside a %s comes out at the push-out speed limit, not thrown by its sticks', (kind) => {
    // Measured before the pre-existing penetration was limited in the projection itself (only the
    // contact particles' velocity was capped after the passes, the sticks carried the rest of the
    // body off at depth / h): a box made 10 / 30 / 50 cm inside the floor left at 31 / 90 / 148 m/s
    // and rose 48 / 273 / 500 m.
    for (const depth of [0.1, 0.3, 0.5]) {
      const world = new World();
      world.addCollider(solids[kind]!);
      const box = createBox(world, { size: 1, position: [0.3, 0.5 - depth, 0.2] });
      let fastest = 0;
      let highest = -Infinity;
      for (let i = 0; i < 180; i++) {
        world.step();
        for (const id of box.vertices) {
          fastest = Math.max(fastest, speedOf(world, id));
          highest = Math.max(highest, world.getPosition(id)[1]);
        }
      }
      // Out at 3 m/s it rises v²/2g = 0.46 m at most above its resting top at 1 m (measured 1.45 m). A
      // curved surface turns the normal under the box as it climbs: 3.38 m/s out of the sphere.
      expect(fastest).toBeLessThan(kind === 'sphere' ? 3.5 : 3 + 9.81 / 60);
      expect(highest).toBeLessThan(1 + 3.2 ** 2 / (2 * 9.81));
      for (const id of box.vertices) expect(depthInside(kind, world.getPosition(id))).toBeLessThan(1e-3);
    }
  });

  it('a ragdoll made half inside the floor climbs out instead of being thrown', () => {
    // Measured: its highest point 2.0–2.7 m (it stands 1.8 m tall) from 10–50 cm inside; with the knee
    // hinges repairing a fold at once (uncapped), 7.4 m from 27 cm and 95 m from 50 cm.
    for (const depth of [0.1, 0.27, 0.5]) {
      const world = new World();
      world.addCollider(solids.plane!);
      const doll = createRagdoll(world, { feet: [0, -depth, 0] });
      let highest = -Infinity;
      for (let i = 0; i < 240; i++) {
        world.step();
        for (const id of doll.vertices) highest = Math.max(highest, world.getPosition(id)[1]);
      }
      expect(highest).toBeLessThan(3);
      for (const id of doll.vertices) expect(world.getPosition(id)[1]).toBeGreaterThan(-1e-3);
    }
  });

  it.each(Object.keys(targets))('a particle fired at a %s never leaves faster than it arrived, at any speed and restitution', (kind) => {
    const directions: Vec3[] = [
      [1, -1, 0.3],
      [0.2, -1, -0.1],
      [-1, -0.4, 0.5],
      [1, 0.05, 0],
      [0, 1, 0.02],
    ];
    // A solid's particles come from its free side (above); the others' from anywhere.
    const from = kind in solids ? directions.filter((d) => d[1] < 0) : directions;
    for (const restitution of [0, 1]) {
      for (const speed of [1, 10, 200]) {
        for (const d of from) {
          const world = new World({ gravity: [0, 0, 0] });
          world.addCollider(targets[kind]!);
          const length = Math.hypot(...d);
          const dir = d.map((x) => x / length) as Vec3;
          // Start 1.2 m back along the direction from a point near the centre, so that it reaches the collider within a step or two.
          const id = world.addParticle({ position: [0.1 - dir[0] * 1.2, 0.05 - dir[1] * 1.2, 0.1 - dir[2] * 1.2], velocity: [dir[0] * speed, dir[1] * speed, dir[2] * speed], restitution });
          for (let i = 0; i < 30; i++) {
            world.step();
            // Measured before: 212 m/s out of a thin box entered at 200.
            expect(speedOf(world, id)).toBeLessThanOrEqual(speed * (1 + 1e-9));
          }
        }
      }
    }
  });

  it('a box thrown face-on at a wall at 10 m/s rebounds at < 10% with restitution 0 and 50% ± 10% with 0.5', () => {
    const rebound = (restitution: number, kernel: WorldOptions['kernel']) => {
      const world = new World({ gravity: [0, 0, 0], kernel });
      world.addCollider({ type: 'plane', normal: [-1, 0, 0], offset: -1 });
      const box = createBox(world, { size: 0.4, velocity: [10, 0, 0], restitution });
      for (let i = 0; i < 60; i++) world.step();
      return -box.vertices.reduce((sum, id) => sum + world.getVelocity(id)[0], 0) / box.vertices.length;
    };
    for (const kernel of ['wasm', 'js'] as const) {
      // Measured: 0.34 m/s and 4.69 m/s (before: 2.96 m/s with nothing to choose).
      expect(rebound(0, kernel)).toBeLessThan(1);
      expect(rebound(0, kernel)).toBeGreaterThanOrEqual(0);
      expect(rebound(0.5, kernel)).toBeGreaterThan(4);
      expect(rebound(0.5, kernel)).toBeLessThan(6);
    }
  });

  /** Height of the first bounce of a particle dropped from 1 m onto a plane. */
  const firstBounce = (particle: number, collider: number) => {
    const world = new World();
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0, restitution: collider });
    const id = world.addParticle({ position: [0, 1, 0], restitution: particle });
    let landed = false;
    let peak = 0;
    for (let i = 0; i < 90; i++) {
      world.step();
      const [, y] = world.getPosition(id);
      if (world.getVelocity(id)[1] > 0) landed = true;
      if (landed) peak = Math.max(peak, y);
    }
    return peak;
  };

  it('a particle of restitution 0.8 dropped from 1 m bounces back to 0.64 m ± 10%; the larger restitution of the pair applies', () => {
    // e² · 1 m: measured 0.635 m.
    expect(firstBounce(0.8, 0)).toBeGreaterThan(0.64 * 0.9);
    expect(firstBounce(0.8, 0)).toBeLessThan(0.64 * 1.1);
    expect(firstBounce(0, 0.8)).toBeCloseTo(firstBounce(0.8, 0), 9);
    expect(firstBounce(0.5, 0.8)).toBeCloseTo(firstBounce(0.8, 0), 9);
    expect(firstBounce(0.5, 0.5)).toBeGreaterThan(0.25 * 0.9);
    expect(firstBounce(0.5, 0.5)).toBeLessThan(0.25 * 1.1);
    expect(firstBounce(0, 0)).toBeLessThan(1e-3);
  });

  it('a bouncy particle settles: approaches slower than the restitution threshold (0.5 m/s) do not bounce', () => {
    const drop = (height: number, restitution: number, steps: number) => {
      const world = new World();
      world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
      const id = world.addParticle({ position: [0, height, 0], restitution });
      let peakAfterLanding = 0;
      let landed = false;
      for (let i = 0; i < steps; i++) {
        world.step();
        if (world.getPosition(id)[1] < 1e-9) landed = true;
        if (landed) peakAfterLanding = Math.max(peakAfterLanding, world.getPosition(id)[1]);
      }
      return { peakAfterLanding, y: world.getPosition(id)[1], speed: speedOf(world, id) };
    };
    // From 1 cm it arrives at 0.44 m/s: even e = 1 does not bounce.
    expect(drop(0.01, 1, 30).peakAfterLanding).toBeLessThan(1e-9);
    // From 20 cm with e = 0.8 it bounces at 1.98, 1.58, 1.27 ... m/s and stops once under 0.5 m/s.
    const settled = drop(0.2, 0.8, 240);
    expect(settled.y).toBeLessThan(1e-9);
    expect(settled.speed).toBeLessThan(1e-6);
  });

  it('no collision ends with more energy than it had: a tumbling box dropped on the ground at any restitution', () => {
    for (const restitution of [0, 0.5, 1]) {
      const world = new World({ damping: 0 });
      world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
      const box = createBox(world, { size: 0.5, position: [0, 1.5, 0], rotation: [0.2, 0.3, 0.1, 0.93], angularVelocity: [2, 1, -3], restitution });
      const energy = () =>
        box.vertices.reduce((sum, id) => {
          const m = 1 / world.particles.inverseMass[id]!;
          const v = world.getVelocity(id);
          return sum + 0.5 * m * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2) + m * 9.81 * world.getPosition(id)[1];
        }, 0);
      // Inside a collision a contact particle briefly leaves faster than its body (its sticks then
      // share that out), so energy is compared between collisions: whenever the box is in the air.
      const lowest = () => Math.min(...box.vertices.map((id) => world.getPosition(id)[1]));
      let before = energy();
      let touching = false;
      let collisions = 0;
      for (let i = 0; i < 240; i++) {
        world.step();
        if (lowest() < 0.01) touching = true;
        else if (touching) {
          touching = false;
          collisions++;
          const after = energy();
          expect(after).toBeLessThan(before * 1.005);
          before = after;
        }
      }
      expect(energy()).toBeLessThan(before * 1.005);
      if (restitution > 0) expect(collisions).toBeGreaterThan(0);
    }
  });

  it('checks its settings and names the bad value', () => {
    expect(() => new World({ maxPushOutSpeed: -1 })).toThrow(/maxPushOutSpeed.*-1/);
    expect(() => new World({ restitutionThreshold: Number.NaN })).toThrow(/restitutionThreshold.*NaN/);
    const world = new World();
    expect(() => world.addParticle({ position: [0, 0, 0], restitution: 1.5 })).toThrow(/restitution.*1\.5/);
    expect(() => world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0, restitution: -0.1 })).toThrow(/restitution.*-0\.1/);
    expect(() => world.addCollider({ type: 'custom', friction: 1, restitution: 2, project: () => {} })).toThrow(/restitution.*2/);
    expect(() => createBox(world, { restitution: 7 })).toThrow(/createBox: restitution.*7/);
  });
});
