import RAPIER from '@dimforge/rapier3d-compat';
import type * as RapierTypes from '@dimforge/rapier3d-compat';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createCloth, createRope, World, type KinematicCollider, type Vec3 } from '../../src/core/index.js';
import { bridgeRapier, type RapierWorldLike } from '../../src/rapier/index.js';

// Issue 14, part 3: the bridge against the real Rapier that @react-three/rapier 2.2.0
// bundles (@dimforge/rapier3d-compat 0.19.2), no mocks. Rapier computes in float32.

const R = RAPIER as typeof RapierTypes;

beforeAll(async () => {
  await R.init();
});

function worlds(gravity = -9.81) {
  const rapier = new R.World({ x: 0, y: gravity, z: 0 });
  const sinew = new World({ gravity: [0, gravity, 0] });
  const bridge = bridgeRapier(rapier as unknown as RapierWorldLike, sinew);
  return { rapier, sinew, bridge };
}

function ballBody(rapier: RapierTypes.World, position: Vec3, radius: number, mass: number, velocity: Vec3 = [0, 0, 0], damping = 0) {
  const body = rapier.createRigidBody(
    R.RigidBodyDesc.dynamic()
      .setTranslation(...position)
      .setLinvel(...velocity)
      .setLinearDamping(damping)
      .setAngularDamping(damping),
  );
  rapier.createCollider(R.ColliderDesc.ball(radius).setDensity(mass / ((4 / 3) * Math.PI * radius ** 3)), body);
  return body;
}

const speed = (v: { x: number; y: number; z: number }) => Math.hypot(v.x, v.y, v.z);

/** A body's kinetic plus gravitational potential energy under g = 9.81 (see `energy` in sinew-physics/testing: v over the substep, height at its middle). */
function clothEnergy(world: World, body: { first: number; count: number }): number {
  const p = world.particles.position;
  const q = world.particles.previous;
  const h = world.substep;
  let e = 0;
  for (let i = body.first; i < body.first + body.count; i++) {
    const w = world.particles.inverseMass[i]!;
    if (w === 0) continue;
    for (let k = 0; k < 3; k++) e += (0.5 / w) * ((p[i * 3 + k]! - q[i * 3 + k]!) / h) ** 2;
    e += (9.81 / w) * ((p[i * 3 + 1]! + q[i * 3 + 1]!) / 2);
  }
  return e;
}

describe('sinew-physics/rapier: Rapier colliders as sinew colliders, dynamic bodies coupled two-way', () => {
  it('a sinew hammock catches a 1 kg Rapier ball dropped 0.6 m into it, and it comes to rest', () => {
    const { rapier, sinew, bridge } = worlds();
    const hammock = createCloth(sinew, { width: 16, height: 16, spacing: 0.08, orientation: 'horizontal', corner: [-0.6, 1, -0.6], pin: 'corners', radius: 0.02, mass: 0.5 });
    const radius = 0.15;
    // Rapier's linearDamping 2 is what takes the bob out of it: the coupling itself adds no damping.
    const ball = ballBody(rapier, [0, 1.6, 0], radius, 1, [0, 0, 0], 2);
    expect(ball.mass()).toBeCloseTo(1, 3);
    const g = 9.81;
    const drop = 1 * g * 0.6;
    let lowest = Infinity;
    let most = 0;
    const speeds: number[] = [];
    for (let frame = 0; frame < 600; frame++) {
      sinew.step();
      const y = ball.translation().y;
      lowest = Math.min(lowest, y);
      const s = speed(ball.linvel());
      speeds.push(s);
      most = Math.max(most, 0.5 * s * s + g * (y - 1));
    }
    expect(bridge.mirrored).toBe(1);
    expect(bridge.bodies.size).toBe(1);
    // Caught in the cloth, not through it (free fall would take it to y ≈ −175): the inextensible cloth
    // (tethers), held at its corners at full spread, cannot sag at its middle, and the ball presses a dimple
    // its bottom at most 10.2 cm under the corners' plane (measured: centre at 1.049).
    expect(lowest).toBeGreaterThan(1);
    expect(lowest).toBeLessThan(1.1);
    // Kinetic plus potential energy (from the cloth's height) never above the drop's.
    expect(most).toBeLessThanOrEqual(drop);
    // At rest: under 1 cm/s from 6 s on, lying on the cloth.
    expect(Math.max(...speeds.slice(360))).toBeLessThan(0.01);
    // It keeps turning slowly in place (0.07 rad/s, 1 cm/s at its surface; not damped away by
    // Rapier's angularDamping 2): a small torque the cloth's friction contacts leave each step.
    expect(speed(ball.angvel())).toBeLessThan(0.1);
    let below = Infinity;
    for (let i = hammock.first; i < hammock.first + hammock.count; i++) below = Math.min(below, sinew.getPosition(i)[1]);
    expect(ball.translation().y - radius).toBeGreaterThan(below - 0.03);
    // Resting in the cloth it stays awake (sinew's yield is written back with wakeUp every step,
    // so Rapier, which knows nothing of the cloth, never leaves it asleep in the air); the cloth
    // taken away, it falls.
    expect(ball.isSleeping()).toBe(false);
    sinew.remove(hammock);
    for (let frame = 0; frame < 30; frame++) sinew.step();
    expect(ball.translation().y).toBeLessThan(0.5);
    bridge.remove();
    expect(sinew.colliders).toHaveLength(0);
    expect(sinew.substepStages).toHaveLength(0);
    rapier.free();
  });

  // Issue 29, item 3: @react-three/rapier makes a body's collider first and places the body after
  // (setTranslation), so until Rapier's first step the collider's own translation() reads (0, 0, 0).
  for (const kernel of ['wasm', 'js'] as const) {
    it(`a ball placed above a hammock after its collider was made adds nothing in the first step (${kernel} kernel)`, () => {
      const rapier = new R.World({ x: 0, y: -9.81, z: 0 });
      const sinew = new World({ gravity: [0, -9.81, 0], kernel });
      const bridge = bridgeRapier(rapier as unknown as RapierWorldLike, sinew);
      const hammock = createCloth(sinew, { width: 16, height: 16, spacing: 0.08, orientation: 'horizontal', corner: [-0.6, 1, -0.6], pin: 'corners', radius: 0.02, mass: 0.5 });
      const ball = rapier.createRigidBody(R.RigidBodyDesc.dynamic());
      const collider = rapier.createCollider(R.ColliderDesc.ball(0.15).setMass(1), ball);
      ball.setTranslation({ x: 0, y: 1.6, z: 0 }, true);
      expect(collider.translation().y).toBe(0);
      const start = clothEnergy(sinew, hammock);
      sinew.step();
      // Gravity alone: the cloth's energy does not rise (it loses 1.2 mJ to its own relaxation; read from the
      // collider's stale pose, the ball swept up from the origin through it: +42 mJ, the cloth thrown 12 cm
      // above its pins and the ball flung down at 3.1 m/s).
      expect(clothEnergy(sinew, hammock)).toBeLessThanOrEqual(start);
      let top = -Infinity;
      for (let i = hammock.first; i < hammock.first + hammock.count; i++) top = Math.max(top, sinew.getPosition(i)[1]);
      expect(top).toBeLessThanOrEqual(1);
      // The ball fell freely for one step (g·dt = 0.1635 m/s), 45 cm above the cloth.
      expect(ball.linvel().y).toBeCloseTo(-9.81 / 60, 4);
      expect(ball.translation().y).toBeCloseTo(1.6 - (9.81 / 3600) * (5 / 8), 5);
      bridge.remove();
      rapier.free();
    });
  }

  it('follows a collider set off and turned on a turned body, from before the first step', () => {
    const { rapier, sinew, bridge } = worlds(0);
    const body = rapier.createRigidBody(R.RigidBodyDesc.kinematicPositionBased());
    // 90° about z for the body, 90° about x for the collider within it, the collider 0.5 m along the body's x.
    const h = Math.SQRT1_2;
    const collider = rapier.createCollider(R.ColliderDesc.capsule(0.2, 0.05).setTranslation(0.5, 0, 0).setRotation({ x: h, y: 0, z: 0, w: h }), body);
    body.setTranslation({ x: 1, y: 2, z: 3 }, true);
    body.setRotation({ x: 0, y: 0, z: h, w: h }, true);
    sinew.step();
    const kinematic = sinew.getCollider(bridge.colliders.get(collider.handle)!) as KinematicCollider;
    // Where Rapier's step put it: the offset turned to +y, the capsule's axis (its y) turned to z then kept by
    // the body's turn about z. The first sweep started there too (it stood still).
    const t = collider.translation();
    const r = collider.rotation();
    expect([t.x, t.y, t.z]).toEqual([expect.closeTo(1, 6), expect.closeTo(2.5, 6), expect.closeTo(3, 6)]);
    for (const pose of [kinematic.startPose, kinematic.endPose]) {
      expect(Array.from(pose.subarray(0, 3))).toEqual([expect.closeTo(t.x, 6), expect.closeTo(t.y, 6), expect.closeTo(t.z, 6)]);
      expect(Array.from(pose.subarray(3, 7))).toEqual([expect.closeTo(r.x, 6), expect.closeTo(r.y, 6), expect.closeTo(r.z, 6), expect.closeTo(r.w, 6)]);
    }
    // Standing still it keeps still: no float32 rounding of Rapier's own composition moves it.
    sinew.step();
    expect(Array.from(kinematic.startPose)).toEqual(Array.from(kinematic.endPose));
    expect(Array.from(kinematic.velocity)).toEqual([0, 0, 0]);
    // Moved between steps (setTranslation: a jump), its next step starts where the body is, not where it was.
    body.setTranslation({ x: -1, y: 2, z: 3 }, true);
    sinew.step();
    expect(kinematic.startPose[0]).toBeCloseTo(-1, 6);
    expect(kinematic.endPose[0]).toBeCloseTo(-1, 6);
    bridge.remove();
    rapier.free();
  });

  it('a sinew rope tied to a 2 kg Rapier crate lifts it when its top is pulled up', () => {
    const { rapier, sinew, bridge } = worlds();
    const crate = rapier.createRigidBody(R.RigidBodyDesc.dynamic().setTranslation(0, 0.85, 0));
    rapier.createCollider(R.ColliderDesc.cuboid(0.15, 0.15, 0.15).setMass(2), crate);
    expect(crate.mass()).toBeCloseTo(2, 5);
    const rope = createRope(sinew, { from: [0, 2, 0], to: [0, 1, 0], segments: 10, pinStart: true, mass: 0.1 });
    const constraints = sinew.constraintCount;
    bridge.attach(rope.last, crate, { anchor: [0, 0.15, 0] });
    expect(sinew.constraintCount).toBe(constraints + 1);
    // It bobs on the springy rope (one relaxation pass per substep, no damping): heights are means over 2 s.
    const meanHeight = () => {
      let mean = 0;
      for (let frame = 0; frame < 120; frame++) {
        sinew.step();
        mean += crate.translation().y / 120;
      }
      return mean;
    };
    const hung = meanHeight();
    // Held up by the rope near where it was tied (0.85; the rope stretches under 20 N).
    expect(hung).toBeGreaterThan(0.75);
    for (let frame = 1; frame <= 120; frame++) {
      sinew.setPinTarget(rope.startPin!, [0, 2 + frame / 120, 0]);
      sinew.step();
    }
    // Then held 2 s at the top.
    const lifted = meanHeight() - hung;
    expect(lifted).toBeGreaterThan(0.97);
    expect(lifted).toBeLessThan(1.03);
    // The rope carries the crate's weight: its top end is 1 m above the crate's top.
    expect(sinew.getPosition(rope.first)[1] - (crate.translation().y + 0.15)).toBeGreaterThan(0.98);
    bridge.remove();
    expect(sinew.constraintCount).toBe(constraints);
    expect(sinew.substepStages).toHaveLength(0);
    rapier.free();
  });

  it('a cloth lying on a kinematic Rapier platform moves with it', () => {
    const { rapier, sinew, bridge } = worlds();
    const platform = rapier.createRigidBody(R.RigidBodyDesc.kinematicPositionBased().setTranslation(0, -0.05, 0));
    rapier.createCollider(R.ColliderDesc.cuboid(0.6, 0.05, 0.6), platform);
    const cloth = createCloth(sinew, { width: 7, height: 7, spacing: 0.1, orientation: 'horizontal', corner: [-0.3, 0.02, -0.3], radius: 0.02 });
    for (let frame = 0; frame < 60; frame++) sinew.step();
    const dt = sinew.timeStepValue;
    for (let frame = 1; frame <= 90; frame++) {
      platform.setNextKinematicTranslation({ x: frame * dt, y: -0.05, z: 0 });
      sinew.step();
    }
    const v: Vec3 = [0, 0, 0];
    let mean = 0;
    for (let i = cloth.first; i < cloth.first + cloth.count; i++) mean += sinew.getVelocity(i, v)[0] / cloth.count;
    expect(mean).toBeGreaterThan(0.95);
    expect(mean).toBeLessThan(1.05);
    for (let i = cloth.first; i < cloth.first + cloth.count; i++) expect(sinew.getPosition(i)[1]).toBeGreaterThan(0);
    // The kinematic body is not coupled: nothing is written back to it.
    expect(bridge.bodies.size).toBe(0);
    bridge.remove();
    rapier.free();
  });

  it('keeps momentum in a zero-gravity hit (to Rapier’s float32) and never gains energy', () => {
    const { rapier, sinew, bridge } = worlds(0);
    const cloth = createCloth(sinew, { width: 8, height: 8, spacing: 0.05, corner: [-0.175, 0.175, 0], radius: 0.01, mass: 0.3 });
    const ball = ballBody(rapier, [0.08, 0, -0.5], 0.2, 1, [0, 0, 2]);
    const v: Vec3 = [0, 0, 0];
    const totals = () => {
      const p = [0, 0, 0];
      let e = 0;
      for (let i = cloth.first; i < cloth.first + cloth.count; i++) {
        const m = 1 / sinew.particles.inverseMass[i]!;
        sinew.getVelocity(i, v);
        for (let k = 0; k < 3; k++) p[k]! += m * v[k]!;
        e += 0.5 * m * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2);
      }
      const bv = ball.linvel();
      const w = ball.angvel();
      p[0]! += ball.mass() * bv.x;
      p[1]! += ball.mass() * bv.y;
      p[2]! += ball.mass() * bv.z;
      const I = 0.4 * ball.mass() * 0.2 ** 2;
      e += 0.5 * ball.mass() * speed(bv) ** 2 + 0.5 * I * speed(w) ** 2;
      return { p, e };
    };
    const start = totals();
    let drift = 0;
    for (let frame = 0; frame < 60; frame++) {
      sinew.step();
      const now = totals();
      for (let k = 0; k < 3; k++) drift = Math.max(drift, Math.abs(now.p[k]! - start.p[k]!));
      expect(now.e).toBeLessThanOrEqual(start.e * (1 + 1e-6));
    }
    // The ball gave the cloth momentum (it slowed) and the off-centre hit turned it.
    expect(ball.linvel().z).toBeLessThan(1.9);
    expect(speed(ball.angvel())).toBeGreaterThan(1e-3);
    // Rapier stores velocities in float32 (7 digits of 2 kg·m/s): the coupling itself keeps
    // momentum to 1e-9 in float64 (coupledBody.test.ts).
    expect(drift).toBeLessThan(2e-6);
    bridge.remove();
    rapier.free();
  });

  it('follows balls, cuboids, capsules, convex hulls and trimeshes; names a shape it cannot follow', () => {
    const { rapier, sinew, bridge } = worlds();
    const shapes = [
      R.ColliderDesc.ball(0.2).setTranslation(-2, 0.5, 0),
      R.ColliderDesc.cuboid(0.2, 0.2, 0.2).setTranslation(-1, 0.5, 0),
      R.ColliderDesc.capsule(0.1, 0.2).setTranslation(0, 0.5, 0),
      // A frustum: a flat top 0.7 high for the particle to rest on.
      R.ColliderDesc.convexHull(new Float32Array([-0.2, 0.3, -0.2, 0.2, 0.3, -0.2, -0.2, 0.3, 0.2, 0.2, 0.3, 0.2, -0.1, 0.7, -0.1, 0.1, 0.7, -0.1, -0.1, 0.7, 0.1, 0.1, 0.7, 0.1]))!.setTranslation(
        1,
        0,
        0,
      ),
      R.ColliderDesc.trimesh(new Float32Array([-0.3, 0.5, -0.3, 0.3, 0.5, -0.3, 0, 0.5, 0.3]), new Uint32Array([0, 2, 1])).setTranslation(2, 0, 0),
    ];
    const tops = [0.7, 0.7, 0.8, 0.7, 0.5];
    for (const desc of shapes) rapier.createCollider(desc);
    const cylinder = rapier.createCollider(R.ColliderDesc.cylinder(0.2, 0.2).setTranslation(3, 0.5, 0));
    const warn = vi.fn();
    bridge.remove();
    const named = bridgeRapier(rapier as unknown as RapierWorldLike, sinew, { onUnsupported: warn });
    const drops = [-2, -1, 0, 1, 2, 3].map((x) => sinew.addParticle({ position: [x, 1.2, 0.05], radius: 0.02 }));
    for (let frame = 0; frame < 90; frame++) sinew.step();
    expect(named.mirrored).toBe(5);
    for (let k = 0; k < 5; k++) expect(sinew.getPosition(drops[k]!)[1]).toBeCloseTo(tops[k]! + 0.02, 1);
    // The cylinder is not followed: its particle fell through it.
    expect(sinew.getPosition(drops[5]!)[1]).toBeLessThan(0);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(new RegExp(`collider ${cylinder.handle} is a Cylinder, which sinew cannot follow`));
    // A collider removed from Rapier stops being followed.
    rapier.removeCollider(cylinder, false);
    rapier.removeCollider(rapier.getCollider(named.colliders.keys().next().value!), false);
    sinew.step();
    expect(named.mirrored).toBe(4);
    named.remove();
    named.remove();
    expect(sinew.colliders).toHaveLength(0);
    expect(sinew.substepStages).toHaveLength(0);
    rapier.free();
  });

  it('names bad input', () => {
    const sinew = new World();
    const rapier = new R.World({ x: 0, y: -9.81, z: 0 });
    expect(() => bridgeRapier({} as RapierWorldLike, sinew)).toThrow(/bridgeRapier: rapier must be a Rapier World .*got an object with keys \[\]/);
    expect(() => bridgeRapier(rapier as unknown as RapierWorldLike, null as unknown as World)).toThrow(/bridgeRapier: world must be a sinew World, got null/);
    expect(() => bridgeRapier(rapier as unknown as RapierWorldLike, sinew, { stepRapier: 3 as unknown as () => void })).toThrow(/stepRapier must be a function, got number 3/);
    const bridge = bridgeRapier(rapier as unknown as RapierWorldLike, sinew);
    const body = rapier.createRigidBody(R.RigidBodyDesc.dynamic());
    expect(() => bridge.attach(99 as never, body)).toThrow(/RapierBridge.attach: no particle with id 99/);
    const p = sinew.addParticle({ position: [0, 0, 0] });
    expect(() => bridge.attach(p, {} as never)).toThrow(/RapierBridge.attach: body must be a Rapier RigidBody/);
    expect(() => bridge.attach(p, body, { anchor: [0, Number.NaN, 0] })).toThrow(/anchor/);
    bridge.remove();
    expect(() => bridge.attach(p, body)).toThrow(/the bridge was removed/);
    rapier.free();
  });
});
