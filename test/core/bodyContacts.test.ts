import { describe, expect, it } from 'vitest';
import {
  addSurfaceCollision,
  ballJoint,
  bodyContacts,
  collisionGroups,
  createBox,
  createCloth,
  createRagdoll,
  createRope,
  getCollisionGroups,
  quatFromAxisAngle,
  quatMultiply,
  rotateVector,
  setCollisionGroups,
  stickJoint,
  World,
  type ClothHandle,
  type Ragdoll,
  type Vec3,
} from '../../src/core/index.js';
import { closestSegmentSegment } from '../../src/core/collision/closestPoints.js';
import { groupsInteract } from '../../src/core/collision/collisionGroups.js';
import { leastAllocation } from '../support/heap.js';
import { measureEnergy } from './energyAudit.js';
import { strain, structuralPairs } from '../support/loadedScenes.js';

// Issue 10, part 1: bodies collide with each other by default. Each number the
// issue names is a test here; the figures in the comments were measured with the
// default world (10 substeps × 1 pass) unless the test says otherwise.

/** Lying face up along -z, feet at `position`. */
const LYING: [number, number, number, number] = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];

/**
 * The hammock: a 30 × 30 cloth, 2.9 m square, pinned at its corners at
 * y = 1, over a floor 3 m below. 5 kg of canvas, its particles 4 cm balls (so a
 * forearm cannot slip between them), 20 passes per substep (a 70 kg load on 5 kg
 * of cloth needs them to stay taut: with 10 the hammock bounces like a trampoline).
 */
function hammock(world: World): ClothHandle {
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: -3 });
  return createCloth(world, { width: 30, height: 30, spacing: 0.1, corner: [-1.45, 1, -1.45], orientation: 'horizontal', pin: 'corners', mass: 5, iterations: 20, radius: 0.04 });
}

/** The cloth particle nearest below (x, z), or undefined off the cloth. */
function clothBelow(world: World, cloth: ClothHandle, p: Vec3): Vec3 | undefined {
  const i = Math.round((p[0] + 1.45) / 0.1);
  const j = Math.round((p[2] + 1.45) / 0.1);
  return i < 0 || j < 0 || i > 29 || j > 29 ? undefined : world.getPosition(cloth.particle(i, j));
}

/** The deepest overlap (m) of any capsule of one ragdoll with any capsule of another. */
function worstCapsuleOverlap(world: World, dolls: readonly Ragdoll[]): number {
  const s = new Float64Array(16);
  let worst = 0;
  for (let i = 0; i < dolls.length; i++) {
    for (let j = i + 1; j < dolls.length; j++) {
      for (const a of dolls[i]!.limbs) {
        for (const b of dolls[j]!.limbs) {
          [a.from, a.to, b.from, b.to].forEach((id, k) => s.set(world.getPosition(id), k * 3));
          s[15] = 0.5;
          closestSegmentSegment(s);
          worst = Math.max(worst, a.radius + b.radius - Math.sqrt(s[14]!));
        }
      }
    }
  }
  return worst;
}

function speed(world: World, ids: readonly number[]): number {
  return Math.max(...ids.map((id) => Math.hypot(...world.getVelocity(id))));
}

describe('collisions between bodies, on by default', () => {
  it('a 70 kg ragdoll dropped 1 m onto a 30×30 cloth pinned at its corners is caught, and the cloth holds it without stretching', () => {
    const alone = new World();
    const empty = hammock(alone);
    const world = new World();
    const cloth = hammock(world);
    const pairs = structuralPairs(cloth);
    // Lying on its back across the middle, its lowest point 1 m above the cloth.
    const doll = createRagdoll(world, { feet: [0, 2.0, 0.9], rotation: LYING });
    let below = 0;
    let lowest = Infinity;
    let deepest = 0;
    let sag = 0;
    let stretch = { mean: 0, max: 0 };
    const steps = 360;
    for (let i = 0; i < steps; i++) {
      world.step();
      alone.step();
      // No particle of the ragdoll gets under the cloth (measured: 0.000 m throughout).
      for (const id of doll.vertices) {
        const p = world.getPosition(id);
        lowest = Math.min(lowest, p[1]);
        const under = clothBelow(world, cloth, p);
        if (under) below = Math.max(below, under[1] - p[1]);
      }
      const middle = world.getPosition(cloth.particle(15, 15))[1];
      deepest = Math.max(deepest, 1 - middle);
      // Against the empty hammock, averaged over the last 2 s.
      if (i >= steps - 120) sag += (alone.getPosition(empty.particle(15, 15))[1] - middle) / 120;
      const now = strain(world, pairs, 0.1);
      stretch = { mean: Math.max(stretch.mean, now.mean), max: Math.max(stretch.max, now.max) };
    }
    expect(below).toBeLessThan(0.01);
    // Caught on the cloth, not through it (measured: its lowest point 1.036 m, 4 cm balls on a cloth at 1 m; its chest 1.13 m at the end).
    expect(lowest).toBeGreaterThan(0.95);
    const chest = world.getPosition(doll.part('chest'));
    expect(chest[1]).toBeGreaterThan(world.getPosition(cloth.particle(15, 15))[1]);
    expect(Math.hypot(chest[0], chest[2])).toBeLessThan(1);
    // Pinned at its rest size, an inextensible cloth has no room to sag: each of its points is at its rest distance from
    // all four corners, and any point lower would be farther from every one. What sag there is is stretch. Measured with
    // tethers: the middle at most 3.6 cm below the corners, 0.6 cm below the empty hammock's over the last 2 s; the
    // structural sticks at most 0.009% long on average and 0.25% at worst (plain relaxation: 76 cm, 22 cm, 2.0%, 44%).
    expect(deepest).toBeLessThan(0.05);
    expect(sag).toBeLessThan(0.02);
    expect(stretch.mean).toBeLessThan(0.001);
    expect(stretch.max).toBeLessThan(0.01);
  }, 60_000);

  it('a box rests on that hammock', () => {
    const world = new World();
    const cloth = hammock(world);
    const box = createBox(world, { size: 0.4, position: [0, 1.5, 0], mass: 5 });
    let lowGap = Infinity;
    let highGap = 0;
    let slip = 0;
    for (let i = 0; i < 480; i++) {
      world.step();
      if (i < 240) continue;
      // Over the last 4 s it sits on the cloth, which sways with it: half its size (plus the cloth's
      // radius) above the cloth particle under its middle, moving with it.
      const t = box.update();
      const under = clothBelow(world, cloth, t.position)!;
      lowGap = Math.min(lowGap, t.position[1] - under[1]);
      highGap = Math.max(highGap, t.position[1] - under[1]);
      const v = world.getVelocity(cloth.particle(Math.round((t.position[0] + 1.45) / 0.1), Math.round((t.position[2] + 1.45) / 0.1)));
      slip = Math.max(slip, Math.hypot(t.velocity[0] - v[0], t.velocity[1] - v[1], t.velocity[2] - v[2]));
    }
    // Measured: gap 0.240 m throughout, relative speed under 0.02 m/s, within 2 mm of the middle.
    expect(lowGap).toBeGreaterThan(0.2);
    expect(highGap).toBeLessThan(0.27);
    expect(slip).toBeLessThan(0.15);
    const t = box.update();
    expect(Math.hypot(t.position[0], t.position[2])).toBeLessThan(0.2);
  }, 60_000);

  it('two boxes stack, and three', () => {
    const world = new World();
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const bottom = createBox(world, { size: 0.5, position: [0, 0.25, 0], mass: 2 });
    const middle = createBox(world, { size: 0.5, position: [0.05, 0.9, 0.03], mass: 1 });
    const top = createBox(world, { size: 0.3, position: [-0.05, 1.6, 0], mass: 1, rotation: quatFromAxisAngle([0, 1, 0], 0.5) });
    for (let i = 0; i < 240; i++) world.step();
    // Each rests on the one below (measured: 0.250, 0.750, 1.150 m, within 0.1 mm).
    expect(bottom.update().position[1]).toBeCloseTo(0.25, 2);
    expect(middle.update().position[1]).toBeCloseTo(0.75, 2);
    expect(top.update().position[1]).toBeCloseTo(1.15, 2);
    for (const box of [bottom, middle, top]) expect(speed(world, box.vertices)).toBeLessThan(0.01);
    expect(Math.abs(middle.update().position[0] - 0.05)).toBeLessThan(0.03);
    // Square on each other, every corner of one flush with the sides of the other.
    const square = new World();
    square.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const tower = [0, 1, 2].map((k) => createBox(square, { size: 0.5, position: [0, 0.25 + k * 0.55, 0] }));
    for (let i = 0; i < 120; i++) square.step();
    tower.forEach((box, k) => expect(box.update().position[1]).toBeCloseTo(0.25 + k * 0.5, 2));
  });

  it('two ragdolls dropped on each other end up with no capsule pair overlapping by more than 1 cm', () => {
    for (const turn of [Math.PI / 2, 0.3, 0]) {
      const world = new World();
      world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
      const below = createRagdoll(world, { feet: [0, 0.2, 0.9], rotation: LYING });
      for (let i = 0; i < 120; i++) world.step();
      // The second one lies turned by `turn` about the vertical, its chest 1 m above the first one's.
      const above = createRagdoll(world, { rotation: quatMultiply(quatFromAxisAngle([0, 1, 0], turn), LYING) });
      const target = world.getPosition(below.part('chest'));
      const chest = world.getPosition(above.part('chest'));
      for (const id of above.vertices) {
        const p = world.getPosition(id);
        world.setPosition(id, [p[0] + target[0] - chest[0], p[1] + target[1] - chest[1] + 1, p[2] + target[2] - chest[2]]);
      }
      let worst = 0;
      for (let i = 0; i < 300; i++) {
        world.step();
        worst = Math.max(worst, worstCapsuleOverlap(world, [below, above]));
      }
      // The bound is at rest: 1 cm (measured: 0.1–0.2 mm; during the impact 3–8.5 mm); and it lies on top.
      expect(worstCapsuleOverlap(world, [below, above])).toBeLessThan(0.01);
      expect(worstCapsuleOverlap(world, [below, above])).toBeLessThan(0.002);
      expect(worst).toBeLessThan(0.02);
      expect(world.getPosition(above.part('chest'))[1]).toBeGreaterThan(world.getPosition(below.part('chest'))[1] + 0.15);
    }
  });

  it('a ragdoll lands on a box and stays on it; a box dropped on a ragdoll stays on it', () => {
    const world = new World();
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const table = createBox(world, { size: [1, 0.6, 2.2], position: [0, 0.3, 0], mass: 50 });
    const doll = createRagdoll(world, { feet: [0, 1.2, 0.9], rotation: LYING });
    for (let i = 0; i < 240; i++) world.step();
    // Lying on the table top (y = 0.6), not through it.
    for (const id of doll.vertices) expect(world.getPosition(id)[1]).toBeGreaterThan(0.6);
    expect(table.update().position[1]).toBeCloseTo(0.3, 2);
    const crate = createBox(world, { size: 0.3, position: [0, 1.5, world.getPosition(doll.part('pelvis'))[2]], mass: 3 });
    for (let i = 0; i < 240; i++) world.step();
    expect(crate.update().position[1]).toBeGreaterThan(world.getPosition(doll.part('pelvis'))[1] + 0.15);
  });

  it('a rope drapes over a box', () => {
    const world = new World();
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    createBox(world, { size: 0.6, position: [0, 0.3, 0], mass: 0 });
    const rope = createRope(world, { from: [-1, 1, 0], to: [1, 1, 0], segments: 40, length: 3, kind: 'max', radius: 0.01, pinStart: true, pinEnd: true });
    const ids = Array.from({ length: rope.count }, (_, k) => rope.first + k);
    let highest = 0;
    for (let i = 0; i < 180; i++) {
      world.step();
      for (const id of ids.slice(1, -1)) highest = Math.max(highest, world.getPosition(id)[1]);
    }
    // Never thrown above its pins; the particles over the box rest on its top, 0.6 m up (it is immovable: mass 0).
    expect(highest).toBeLessThan(1);
    const over = ids.filter((id) => Math.abs(world.getPosition(id)[0]) < 0.25);
    expect(over.length).toBeGreaterThan(5);
    for (const id of over) expect(world.getPosition(id)[1]).toBeCloseTo(0.61, 2);
  });

  it('cloth triangles keep capsules out where the particles alone would let them through', () => {
    // A coarse net (holes 0.3 m across, particles of radius 0) catches a ragdoll whole: its triangles
    // are solid to other bodies by default; `surfaceContacts: false` leaves the particles alone.
    const lowest = (solid: boolean) => {
      const world = new World();
      const net = createCloth(world, { width: 8, height: 8, spacing: 0.3, corner: [-1.05, 1, -1.05], orientation: 'horizontal', pin: 'corners', mass: 8, iterations: 10, surfaceContacts: solid });
      const doll = createRagdoll(world, { feet: [0, 1.6, 0.9], rotation: LYING });
      for (let i = 0; i < 180; i++) world.step();
      return Math.min(...doll.vertices.map((id) => world.getPosition(id)[1])) - Math.min(...Array.from({ length: 64 }, (_, k) => world.getPosition(net.first + k)[1]));
    };
    // Measured: without, the ragdoll drops through the holes (there is no floor); with, its lowest point is 5 cm above the net's.
    expect(lowest(false)).toBeLessThan(-0.05);
    expect(lowest(true)).toBeGreaterThan(-0.01);
  });

  it('collision groups opt bodies out, in the style of Rapier (16-bit memberships, 16-bit filter)', () => {
    const drop = (groups?: { cloth?: number; doll?: number }) => {
      const world = new World();
      const cloth = hammock(world);
      const doll = createRagdoll(world, { feet: [0, 1.3, 0.9], rotation: LYING, collisionGroups: groups?.doll });
      if (groups?.cloth !== undefined) setCollisionGroups(world, cloth.body, groups.cloth);
      for (let i = 0; i < 90; i++) world.step();
      return world.getPosition(doll.part('chest'))[1];
    };
    const PLAYER = 1 << 0;
    const NET = 1 << 1;
    expect(drop()).toBeGreaterThan(0.4); // caught
    // The net does not collide with players: the ragdoll falls through to the floor 3 m down.
    expect(drop({ cloth: collisionGroups(NET, 0xffff & ~PLAYER), doll: collisionGroups(PLAYER) })).toBeLessThan(-2);
    // Either side's filter is enough to opt out.
    expect(drop({ doll: collisionGroups(PLAYER, 0xffff & ~NET), cloth: collisionGroups(NET) })).toBeLessThan(-2);
    // Members of a group both filter in collide.
    expect(drop({ doll: collisionGroups(PLAYER, NET), cloth: collisionGroups(NET, PLAYER) })).toBeGreaterThan(0.4);
    expect(groupsInteract(collisionGroups(1, 2), collisionGroups(2, 1))).toBe(true);
    expect(groupsInteract(collisionGroups(1, 2), collisionGroups(2, 2))).toBe(false);
  });

  it('bad groups and unknown bodies get errors that name them', () => {
    const world = new World();
    const box = createBox(world, {});
    expect(() => collisionGroups(0x10000)).toThrow(/memberships must be a 16-bit mask.*got 65536/);
    expect(() => collisionGroups(1, -1)).toThrow(/filter must be a 16-bit mask.*got -1/);
    expect(() => collisionGroups(1.5)).toThrow(/got 1\.5/);
    expect(() => setCollisionGroups(world, box.body, 2 ** 32)).toThrow(/setCollisionGroups: groups .*got 4294967296/);
    expect(() => setCollisionGroups(world, box.body, Number.NaN)).toThrow(/got NaN/);
    expect(() => createBox(world, { collisionGroups: -3 })).toThrow(/createBox: collisionGroups .*got -3/);
    expect(() => createCloth(world, { width: 2, height: 2, collisionGroups: 0.5 })).toThrow(/createCloth: collisionGroups .*got 0\.5/);
    expect(() => setCollisionGroups(world, 7, 0)).toThrow(/setCollisionGroups: no live body 7/);
    const gone = createBox(world, {});
    world.remove(gone.body);
    expect(() => getCollisionGroups(world, gone.body)).toThrow(/getCollisionGroups: no live body \d+ \(a box, removed\)/);
    expect(() => setCollisionGroups(new World(), box.body, 0)).toThrow(/no live body/);
    expect(getCollisionGroups(world, box.body)).toBe(0xffffffff);
    setCollisionGroups(world, box.body, collisionGroups(4, 8));
    expect(getCollisionGroups(world, box.body)).toBe(0x0004_0008);
  });

  it('a sleeping body is woken by a body dropped on it, and a stack falls asleep together', () => {
    const world = new World({ sleep: true });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const bottom = createBox(world, { size: 0.5, position: [0, 0.25, 0], mass: 2 });
    for (let i = 0; i < 120 && !world.sleep.isAsleep(bottom.body.id); i++) world.step();
    expect(world.sleep.isAsleep(bottom.body.id)).toBe(true);
    const top = createBox(world, { size: 0.5, position: [0.1, 0.9, 0.05], mass: 4 });
    let woke = false;
    for (let i = 0; i < 60; i++) {
      world.step();
      woke ||= !world.sleep.isAsleep(bottom.body.id);
    }
    expect(woke).toBe(true);
    expect(top.update().position[1]).toBeGreaterThan(0.7);
    // Then both come to rest and sleep, the top one's weight on the bottom one not keeping it awake.
    for (let i = 0; i < 600; i++) world.step();
    expect(world.sleep.isAsleep(bottom.body.id)).toBe(true);
    expect(world.sleep.isAsleep(top.body.id)).toBe(true);
    expect(top.update().position[1]).toBeCloseTo(0.75, 2);
  });

  it('adds no energy: momentum is kept and kinetic energy only falls in a collision; overlapping bodies part at the push-out limit', () => {
    for (const offset of [0, 0.2, 0.35]) {
      const world = new World({ gravity: [0, 0, 0], damping: 0 });
      const a = createBox(world, { size: 0.5, mass: 2 });
      const b = createBox(world, { size: 0.5, position: [1, offset, 0.1], mass: 1, velocity: [-3, 0, 0], rotation: quatFromAxisAngle([0, 0, 1], 0.4) });
      const ids = [...a.vertices, ...b.vertices];
      const start = measureEnergy(world, ids).kinetic;
      let most = start;
      for (let i = 0; i < 120; i++) {
        world.step();
        most = Math.max(most, measureEnergy(world, ids).kinetic);
      }
      // Measured: 4.5 J before, 1.8–2.0 J after, momentum -3 kg·m/s to 1e-12.
      expect(most).toBeLessThanOrEqual(start * (1 + 1e-9));
      expect(measureEnergy(world, ids).kinetic).toBeLessThan(start);
      expect(2 * a.update().velocity[0] + b.update().velocity[0]).toBeCloseTo(-3, 9);
    }
    // Two boxes made 0.1 m inside each other come apart no faster than maxPushOutSpeed (3 m/s).
    const world = new World({ gravity: [0, 0, 0] });
    const a = createBox(world, { size: 0.5 });
    const b = createBox(world, { size: 0.5, position: [0.4, 0.05, 0.02] });
    let fastest = 0;
    for (let i = 0; i < 60; i++) {
      world.step();
      fastest = Math.max(fastest, speed(world, [...a.vertices, ...b.vertices]));
    }
    expect(fastest).toBeLessThanOrEqual(3 + 1e-6);
    expect(b.update().position[0] - a.update().position[0]).toBeGreaterThan(0.5 - 1e-3);
  });

  it('bodies joined by a stick or a shared particle do not collide with each other (Box2D joints by default)', () => {
    // Overlapping by 0.1 m and tied by a stick: left alone, as a joint's two links are.
    const tied = new World({ gravity: [0, 0, 0] });
    const a = createBox(tied, { size: 0.5 });
    const b = createBox(tied, { size: 0.5, position: [0.4, 0.1, 0] });
    stickJoint(tied, { body: a, vertex: 7 }, { body: b, vertex: 0 });
    for (let i = 0; i < 30; i++) tied.step();
    expect(b.update().position[0]).toBeCloseTo(0.4, 6);
    expect(bodyContacts(tied).broad.count).toBe(0);
    // Sharing a corner (a ball joint), turned into each other.
    const shared = new World({ gravity: [0, 0, 0] });
    const c = createBox(shared, { size: 0.5 });
    const turn = quatFromAxisAngle([0, 0, 1], 0.3);
    const corner = rotateVector(turn, [0.25, 0.25, -0.25]);
    const d = createBox(shared, { size: 0.5, rotation: turn, position: [-0.25 - corner[0], 0.25 - corner[1], -0.25 - corner[2]], shared: ballJoint(c, 2, 3) });
    const before = d.update().position.slice();
    for (let i = 0; i < 30; i++) shared.step();
    d.update().position.forEach((x, k) => expect(x).toBeCloseTo(before[k]!, 6));
    expect(bodyContacts(shared).broad.count).toBe(0);
  });

  it('can be switched off, and costs nothing for bodies far apart', () => {
    const world = new World();
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    for (let k = 0; k < 40; k++) createBox(world, { size: 0.3, position: [(k % 8) * 1.0, 0.15, Math.floor(k / 8) * 1.0] });
    for (let i = 0; i < 10; i++) world.step();
    // Sort and sweep: boxes a metre apart give no candidate pair at all.
    expect(bodyContacts(world).broad.count).toBe(0);
    const off = new World();
    bodyContacts(off).enabled = false;
    createBox(off, { size: 0.5 });
    const b = createBox(off, { size: 0.5, position: [0, 1, 0] });
    for (let i = 0; i < 60; i++) off.step();
    expect(b.update().position[1]).toBeLessThan(0); // falls through the other box
  });

  it('allocates nothing: 3,000 steps of boxes, ragdolls and a cloth in contact leave the heap flat', () => {
    const world = new World({ sleep: true });
    world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const cloth = createCloth(world, { width: 12, height: 12, spacing: 0.1, corner: [-0.55, 1.2, -0.55], orientation: 'horizontal', pin: 'corners', radius: 0.02, mass: 2 });
    addSurfaceCollision(world, cloth.body);
    const boxes = [0, 1, 2].map((k) => createBox(world, { size: 0.3, position: [k * 0.1 - 0.1, 0.3 + k * 0.4, 0] }));
    const dolls = [0, 1].map((k) => createRagdoll(world, { feet: [k - 0.5, 1.6 + k, 0.9], rotation: LYING }));
    // Throws everything up again now and then, from inside the step.
    let tick = 0;
    world.addForce({
      apply(w) {
        if (++tick % 240 !== 0) return;
        for (const box of boxes) for (const id of box.vertices) w.particles.previous[id * 3 + 1] = w.particles.position[id * 3 + 1]! - 0.02;
        for (const doll of dolls) for (const id of doll.vertices) w.particles.previous[id * 3 + 1] = w.particles.position[id * 3 + 1]! - 0.02;
      },
    });
    const run = (steps: number) => {
      for (let i = 0; i < steps; i++) world.step();
    };
    run(1500);
    expect(leastAllocation(() => run(3000))).toBeLessThan(16 * 1024);
  }, 120_000);
});
