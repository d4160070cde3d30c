import { describe, expect, it } from 'vitest';
import { addCapsuleEdge, createRagdoll, protectFromTunnelling, World, type ColliderShape, type Vec3 } from '../../src/core/index.js';
import { MeshBuilder } from './collisionScenes.js';

/** A thin wall across the x axis, its near face at x = 0: an oriented box 2 cm thick, turned 90° about x (a no-op for its shape). */
const thinBox: ColliderShape = { type: 'obb', position: [0.01, 0, 0], halfExtents: [0.01, 2, 2], rotation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] };
/** The same wall as a single mesh quad facing -x, at x = 0. */
const thinQuad: ColliderShape = new MeshBuilder().quad([0, -2, -2], [0, 2, -2], [0, 2, 2], [0, -2, 2], [-1, 0, 0]).shape();

/** A rigid cube of 8 particles (edge `size`, every pair joined by a stick) registered as a body, its centre at `centre`. */
function cube(world: World, centre: Vec3, size: number, velocity: Vec3) {
  const corners = Array.from({ length: 8 }, (_, k) => ({
    position: [centre[0] + ((k & 1) - 0.5) * size, centre[1] + (((k >> 1) & 1) - 0.5) * size, centre[2] + (((k >> 2) & 1) - 0.5) * size] as Vec3,
    velocity,
    radius: 0.01,
  }));
  const first = world.addParticles(corners);
  for (let i = 0; i < 8; i++) for (let j = i + 1; j < 8; j++) world.addStick(first + i, first + j);
  const body = world.addBody(first, 8, { kind: 'cube' });
  return { body, ids: Array.from({ length: 8 }, (_, k) => first + k) };
}

/** Fires a 20 cm cube at the wall from 1 m away and returns the largest x any of its particles ever reached (and the last centre x). */
function fire(wall: ColliderShape, speed: number, protect: boolean) {
  const world = new World({ gravity: [0, 0, 0] });
  world.addCollider(wall);
  const { body, ids } = cube(world, [-1, 0.3, -0.2], 0.2, [speed, 0, 0]);
  if (protect) protectFromTunnelling(world, body);
  let farthest = -Infinity;
  for (let i = 0; i < 120; i++) {
    world.step();
    for (const id of ids) farthest = Math.max(farthest, world.getPosition(id)[0]);
  }
  const centre = ids.reduce((sum, id) => sum + world.getPosition(id)[0], 0) / 8;
  return { farthest, centre };
}

describe('fast objects and thin walls (paper section 7)', () => {
  it('plain projection holds a slow cube at a thin box wall, but a fast one tunnels through it', () => {
    const slow = fire(thinBox, 2, false);
    expect(slow.farthest).toBeLessThanOrEqual(-0.01 + 1e-9); // particle radius 1 cm
    for (const speed of [40, 80, 200]) expect(fire(thinBox, speed, false).centre).toBeGreaterThan(0.02);
  });

  // (A cube of sticks bounces off any wall, a plane too, with one relaxation pass:
  // its front stops, its back runs on and the sticks push it back. So: which side.)
  it('with the swept test the fast cube never gets past the near face and comes back on its near side', () => {
    // At 40 m/s (7 cm a substep) the front corners enter first; at 2000 m/s the whole cube jumps the wall in one substep.
    for (const speed of [40, 80, 200, 2000]) {
      const { farthest, centre } = fire(thinBox, speed, true);
      expect(farthest).toBeLessThanOrEqual(-0.01 + 1e-9);
      expect(centre).toBeLessThan(-0.11 + 1e-9);
    }
  });

  it('a mesh quad stops the fast cube with or without the body sweep (each particle sweeps its own path)', () => {
    for (const speed of [40, 2000]) {
      for (const protect of [false, true]) {
        const { farthest, centre } = fire(thinQuad, speed, protect);
        expect(farthest).toBeLessThanOrEqual(-0.01 + 1e-9);
        expect(centre).toBeLessThan(-0.11 + 1e-9);
      }
    }
  });

  it("a spinning rod's tip cannot swing through: particles reached from the midpoint only through the wall come back", () => {
    // Centre 20 cm from the wall, half length 30 cm: the tip sweeps 10 cm past the wall's near face, 3 cm a substep.
    const spin = (protect: boolean) => {
      const world = new World({ gravity: [0, 0, 0] });
      world.addCollider(thinBox);
      const omega = 60;
      const first = world.addParticles([
        { position: [-0.2, 0, -0.3], velocity: [-omega * 0.3, 0, 0] },
        { position: [-0.2, 0, 0.3], velocity: [omega * 0.3, 0, 0] },
      ]);
      world.addStick(first, first + 1);
      const body = world.addBody(first, 2, { kind: 'rod' });
      if (protect) protectFromTunnelling(world, body);
      let farthest = -Infinity;
      for (let i = 0; i < 60; i++) {
        world.step();
        farthest = Math.max(farthest, world.getPosition(first)[0], world.getPosition(first + 1)[0]);
      }
      return farthest;
    };
    expect(spin(false)).toBeGreaterThan(0.02);
    expect(spin(true)).toBeLessThanOrEqual(1e-9);
  });

  it('a body that jumps the wall in one substep is set back whole, losing only the velocity into the wall (a glancing hit slides on)', () => {
    // 1000 m/s is 1.7 m a substep: the whole 20 cm cube lands beyond the wall, and the midpoint sweep brings it back.
    for (const speed of [1000, 3000]) {
      const world = new World({ gravity: [0, 0, 0] });
      world.addCollider({ ...thinBox, friction: 0 });
      const { body, ids } = cube(world, [-0.5, 0, 0], 0.2, [speed, 0, 30]);
      protectFromTunnelling(world, body);
      for (let i = 0; i < 30; i++) world.step();
      const p = ids.map((id) => world.getPosition(id));
      // Every stick keeps its length: the cube was translated, not squashed.
      for (let row = 0; row < world.sticks.count; row++) {
        const a = world.getPosition(world.sticks.a[row]!);
        const b = world.getPosition(world.sticks.b[row]!);
        expect(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) / world.sticks.rest[row]!).toBeCloseTo(1, 6);
      }
      for (const q of p) expect(q[0]).toBeLessThanOrEqual(-0.01 + 1e-9);
      const v = ids.map((id) => world.getVelocity(id));
      expect(v.reduce((sum, u) => sum + u[2], 0) / 8).toBeCloseTo(30, 6); // a frictionless wall leaves the sliding alone
      expect(v.reduce((sum, u) => sum + u[0], 0) / 8).toBeLessThanOrEqual(1e-9);
    }
  });
});

describe("the wall cheat: a limb with its ends on both sides of a wall goes to the torso's side", () => {
  /** A torso particle just in front of the wall and an arm of `links` links reaching 0.5 m through it. */
  function arm(links: number, anchored: 'none' | 'explicit' | 'torso') {
    const world = new World({ gravity: [0, 0, 0] });
    world.addCollider(thinBox);
    const first = world.addParticles(Array.from({ length: links + 1 }, (_, k) => ({ position: [-0.05 + (0.55 * k) / links, 0, 0] as Vec3, mass: k === 0 ? 5 : 1 })));
    const body = world.addBody(first, links + 1, { kind: 'arm' });
    for (let k = 0; k < links; k++) {
      world.addStick(first + k, first + k + 1);
      addCapsuleEdge(world, first + k, first + k + 1, 0.02, anchored === 'explicit' ? { anchor: first + k } : {});
    }
    if (anchored === 'torso') protectFromTunnelling(world, body, { torsoParticle: first });
    for (let i = 0; i < 120; i++) world.step();
    return Array.from({ length: links + 1 }, (_, k) => world.getPosition(first + k));
  }

  it('plain projection does not bring the limb back to the torso side', () => {
    // The torso end is the shallower one (5 cm against 50 cm), so the least push is +x: all at once it
    // pushed the limb through to the far side, dragging the torso across; at the push-out speed limit
    // the torso end is held on the wall's face (x = 0), the limb still through it.
    for (const [x] of arm(1, 'none')) expect(x).toBeGreaterThan(-0.02 + 1e-3);
  });

  it('anchored at the torso end, the limb is projected back to the torso side', () => {
    for (const mode of ['explicit', 'torso'] as const) {
      for (const links of [1, 2]) {
        const joints = arm(links, mode);
        for (const [x] of joints) expect(x).toBeLessThanOrEqual(-0.02 + 1e-9);
        // Folded against the wall at full length, not squashed (a squashed limb's sticks would shove it back through).
        for (let k = 0; k < links; k++) {
          const [p, q] = [joints[k]!, joints[k + 1]!];
          expect(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2])).toBeCloseTo(0.55 / links, 3);
        }
        // And calmly: the torso has not been shoved away.
        expect(joints[0]![0]).toBeGreaterThan(-0.1);
      }
    }
  });

  it("anchors a ragdoll's every limb at its torso end: a forearm straddling a 4 cm wall folds back, self-collision on or off", () => {
    for (const selfCollision of [true, false]) {
      const world = new World();
      world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
      const doll = createRagdoll(world, { pose: 'T', selfCollision });
      const elbow = doll.part('rightElbow');
      const hand = doll.part('rightHand');
      const e0 = world.getPosition(elbow);
      const h0 = world.getPosition(hand);
      const forearm = Math.hypot(h0[0] - e0[0], h0[1] - e0[1], h0[2] - e0[2]);
      // A wall 4 cm thick through the middle of the outstretched forearm.
      const wall = (e0[0] + h0[0]) / 2;
      const side = Math.sign(e0[0] - wall);
      world.addCollider({ type: 'box', min: [wall - 0.02, 0, -1], max: [wall + 0.02, 3, 1] });
      const centre = () => doll.vertices.reduce((sum, id) => sum + world.getPosition(id)[0], 0) / doll.vertices.length;
      const start = centre();
      let fastest = 0;
      for (let i = 0; i < 180; i++) {
        world.step();
        for (const id of doll.vertices) fastest = Math.max(fastest, Math.hypot(...world.getVelocity(id)));
      }
      // The hand is back on the elbow's (the torso's) side, the forearm at its length.
      const [e, h] = [world.getPosition(elbow), world.getPosition(hand)];
      expect(Math.sign(h[0] - wall), `selfCollision ${selfCollision}`).toBe(side);
      expect(Math.sign(e[0] - wall)).toBe(side);
      expect(Math.hypot(h[0] - e[0], h[1] - e[1], h[2] - e[2]) / forearm).toBeCloseTo(1, 2);
      // And the body is not flung: before the fix, with self-collision on, its hand counted as one hop from
      // the chest (through a spacer stick), the forearm was anchored at the hand, and the body left at 26 m/s, 2.8 m away.
      expect(Math.abs(centre() - start)).toBeLessThan(0.2);
      expect(fastest).toBeLessThan(6);
    }
  });

  it('rejects a torso particle outside the body', () => {
    const world = new World();
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [1, 0, 0] }]);
    const body = world.addBody(first, 2);
    world.addParticle({ position: [2, 0, 0] });
    expect(() => protectFromTunnelling(world, body, { torsoParticle: 2 })).toThrow('protectFromTunnelling: torsoParticle must be a particle of body 0 (ids 0 to 1), got 2');
  });
});
