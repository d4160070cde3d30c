import { describe, expect, it } from 'vitest';
import { CoupledAttachment, CoupledBody, createCloth, createRope, type KinematicCollider, World, type Vec3 } from '../../src/core/index.js';

// A CoupledBody is a rigid body another engine runs; here a few lines stand in for that
// engine (symplectic Euler, as Rapier integrates), so that the coupling can be checked
// against conservation laws in float64 without Rapier's float32.

interface Driven {
  body: CoupledBody;
  collider: KinematicCollider | null;
  mass: number;
  inverseInertia: number;
  c: Vec3;
  q: [number, number, number, number];
  v: Vec3;
  w: Vec3;
}

function drive(world: World, mass: number, inverseInertia: number, c: Vec3, v: Vec3, shape: 'sphere' | 'none', radius = 0.2): Driven {
  const body = new CoupledBody(world, { mass, inverseInertia });
  const collider = shape === 'sphere' ? (world.getCollider(world.addCollider({ type: 'sphere', radius, kinematic: true, body })) as KinematicCollider) : null;
  const driven: Driven = { body, collider, mass, inverseInertia, c: [...c], q: [0, 0, 0, 1], v: [...v], w: [0, 0, 0] };
  body.setStep(c, driven.q, c, driven.q);
  body.setStep(c, driven.q, c, driven.q);
  collider?.followPath(c, driven.q, c, driven.q);
  return driven;
}

/**
 * The other engine's step (symplectic Euler with linear damping c, as Rapier damps: v / (1 + c·dt)),
 * then sinew's, which gives the body its gravity g over the substeps, then sinew's yield written back.
 */
function stepBoth(world: World, d: Driven, g: number, c = 0): void {
  const dt = world.timeStepValue;
  d.body.gravity[1] = g;
  d.v = d.v.map((x) => x / (1 + c * dt)) as Vec3;
  const end: Vec3 = [d.c[0] + d.v[0] * dt, d.c[1] + d.v[1] * dt, d.c[2] + d.v[2] * dt];
  const [wx, wy, wz] = d.w;
  const [qx, qy, qz, qw] = d.q;
  const h = dt / 2;
  let nq: [number, number, number, number] = [
    qx + h * (wx * qw + wy * qz - wz * qy),
    qy + h * (wy * qw + wz * qx - wx * qz),
    qz + h * (wz * qw + wx * qy - wy * qx),
    qw - h * (wx * qx + wy * qy + wz * qz),
  ];
  const n = Math.hypot(...nq);
  nq = nq.map((x) => x / n) as typeof nq;
  d.body.setStep(d.c, d.q, end, nq);
  d.collider?.followPath(d.c, d.q, end, nq);
  world.step();
  d.v = d.v.map((x, k) => x + d.body.velocityChange[k]!) as Vec3;
  d.w = d.w.map((x, k) => x + d.body.angularVelocityChange[k]!) as Vec3;
  d.c = d.body.endPosition();
  d.q = d.body.endRotation();
}

function particleMomentum(world: World, first: number, count: number): Vec3 {
  const out: Vec3 = [0, 0, 0];
  const v: Vec3 = [0, 0, 0];
  for (let i = first; i < first + count; i++) {
    const w = world.particles.inverseMass[i]!;
    if (w === 0) continue;
    world.getVelocity(i, v);
    for (let k = 0; k < 3; k++) out[k] = out[k]! + v[k]! / w;
  }
  return out;
}

function particleEnergy(world: World, first: number, count: number): number {
  let e = 0;
  const v: Vec3 = [0, 0, 0];
  for (let i = first; i < first + count; i++) {
    const w = world.particles.inverseMass[i]!;
    if (w === 0) continue;
    world.getVelocity(i, v);
    e += (0.5 * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2)) / w;
  }
  return e;
}

describe('CoupledBody: a body run elsewhere that yields to sinew inside its step', () => {
  it('keeps momentum to 1e-9 when a ball strikes a free cloth off-centre in zero gravity, and loses energy', () => {
    for (const kernel of ['js', 'wasm'] as const) {
      const world = new World({ gravity: [0, 0, 0], kernel });
      const cloth = createCloth(world, { width: 8, height: 8, spacing: 0.05, corner: [-0.2, 0.2, 0], radius: 0.01, mass: 0.3 });
      // 1 kg, I = 2/5 m r²; aimed 8 cm off the cloth's middle so that it turns too.
      const d = drive(world, 1, 1 / (0.4 * 0.2 ** 2), [-0.025 + 0.08, 0.025, -0.5], [0, 0, 2], 'sphere');
      const momentum = () => {
        const p = particleMomentum(world, cloth.first, cloth.count);
        return p.map((x, k) => x + d.mass * d.v[k]!);
      };
      const energy = () =>
        particleEnergy(world, cloth.first, cloth.count) + 0.5 * d.mass * (d.v[0] ** 2 + d.v[1] ** 2 + d.v[2] ** 2) + (0.5 * (d.w[0] ** 2 + d.w[1] ** 2 + d.w[2] ** 2)) / d.inverseInertia;
      const p0 = momentum();
      const e0 = energy();
      let touched = false;
      for (let s = 0; s < 60; s++) {
        stepBoth(world, d, 0);
        touched ||= d.body.yielded;
        d.body.yielded = false;
        const p = momentum();
        for (let k = 0; k < 3; k++) expect(Math.abs(p[k]! - p0[k]!)).toBeLessThan(1e-9);
        expect(energy()).toBeLessThanOrEqual(e0 * (1 + 1e-9));
      }
      expect(touched).toBe(true);
      // The ball handed the cloth momentum (it slowed) and was turned by the off-centre hit.
      expect(d.v[2]).toBeLessThan(1.9);
      expect(Math.hypot(...d.w)).toBeGreaterThan(1e-3);
      expect(particleMomentum(world, cloth.first, cloth.count)[2]).toBeGreaterThan(0.1 * 0.3);
    }
  });

  it('a ball dropped into a hammock is caught and comes to rest, its energy never above the drop', () => {
    // The coupling adds no damping of its own: an undamped ball bobs in the sagging cloth for
    // many seconds (0.1 m/s after 14 s), as a real one would without air or fabric losses.
    // Here the ball is damped as Rapier damps (linearDamping 2).
    const world = new World();
    const hammock = createCloth(world, { width: 16, height: 16, spacing: 0.08, orientation: 'horizontal', corner: [-0.6, 1, -0.6], pin: 'corners', radius: 0.02, mass: 0.5 });
    const radius = 0.15;
    const d = drive(world, 1, 1 / (0.4 * radius ** 2), [0, 1.6, 0], [0, 0, 0], 'sphere', radius);
    const g = -9.81;
    const e0 = d.mass * -g * (1.6 - 1);
    let lowest = Infinity;
    let most = 0;
    const speeds: number[] = [];
    for (let s = 0; s < 600; s++) {
      stepBoth(world, d, g, 2);
      lowest = Math.min(lowest, d.c[1]);
      const speed = Math.hypot(...d.v);
      speeds.push(speed);
      // Kinetic energy of the ball against what it had to fall from (relative to the cloth's height).
      most = Math.max(most, 0.5 * d.mass * speed ** 2 + d.mass * -g * (d.c[1] - 1));
    }
    // Caught in the cloth (free fall would pass y = 1 and keep going), its bottom at most 10.3 cm under the
    // corners' plane (measured: centre at 1.047). The cloth is inextensible (tethers): held at its corners at
    // full spread its middle cannot sag, and the ball only presses a dimple among the particles around it
    // (plain relaxation let the sticks stretch, and the ball sank 19 cm).
    expect(lowest).toBeGreaterThan(1);
    expect(lowest).toBeLessThan(1.1);
    expect(most).toBeLessThanOrEqual(e0);
    // At rest: under 1 cm/s from 6 s on, under 1 mm/s at 10 s.
    expect(Math.max(...speeds.slice(360))).toBeLessThan(0.01);
    expect(speeds[599]).toBeLessThan(0.001);
    expect(hammock.count).toBe(256);
  });

  it('a rope tied to a 2 kg body lifts it when its top is pulled up', () => {
    const world = new World();
    const rope = createRope(world, { from: [0, 2, 0], to: [0, 1, 0], segments: 10, pinStart: true, mass: 0.1 });
    const d = drive(world, 2, 6 / (2 * 0.3 ** 2), [0, 0.85, 0], [0, 0, 0], 'none');
    const tie = new CoupledAttachment(world, rope.last, d.body, { anchor: [0, 0.15, 0] });
    const pin = rope.startPin!;
    // Hang 1 s, then pull the top up 1 m over 2 s.
    for (let s = 0; s < 60; s++) stepBoth(world, d, -9.81);
    const hung = d.c[1];
    for (let s = 1; s <= 120; s++) {
      world.setPinTarget(pin, [0, 2 + s / 120, 0]);
      stepBoth(world, d, -9.81);
    }
    for (let s = 0; s < 60; s++) stepBoth(world, d, -9.81);
    expect(d.c[1] - hung).toBeGreaterThan(0.95);
    tie.remove();
    tie.remove();
  });

  it('rides only a constructed CoupledBody: a look-alike object or a static collider with a body is refused by name', () => {
    const world = new World();
    const body = new CoupledBody(world, { mass: 2, inverseInertia: 1 });
    const id = world.addCollider({ type: 'sphere', radius: 0.2, kinematic: true, body });
    expect((world.getCollider(id) as KinematicCollider).body).toBe(body);
    expect(body.riders).toEqual([world.getCollider(id)]);
    const lookalike = Object.assign(Object.create(CoupledBody.prototype) as CoupledBody, { riders: [] });
    expect(() => world.addCollider({ type: 'sphere', radius: 0.2, kinematic: true, body: lookalike })).toThrow(/^addCollider: body must be a CoupledBody, got \[object Object\]$/);
    expect(() => world.addCollider({ type: 'sphere', radius: 0.2, kinematic: true, body: 3 as unknown as CoupledBody })).toThrow(/^addCollider: body must be a CoupledBody, got 3$/);
    expect(() => world.addCollider({ type: 'sphere', radius: 0.2, body })).toThrow(/needs kinematic: true/);
  });
});
