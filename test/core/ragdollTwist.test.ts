import { describe, expect, it } from 'vitest';
import { createRagdoll, World, type Ragdoll, type StickKernel, type Vec3 } from '../../src/core/index.js';
import { TwistLimits } from '../../src/core/bodies/twistLimits.js';
import { partPosition, ragdollParts, twistLimits, twistStop, type RagdollPart } from '../../src/core/bodies/ragdollSkeleton.js';
import { auditEnergy } from './energyAudit.js';
import { sub, add, scale, dot, cross, norm, unit } from '../support/vectors.js';

// Issue 11: "shoulders and hips have cone and twist limits". A stick upper arm has
// no twist of its own: its twist is the turn of the plane its elbow bends in,
// about the bone, away from the way the elbow folds untwisted (the torso's front
// carried to the upper arm, see elbowHinge.ts). The twist read here is that angle,
// ψ = atan2(ŝ·(û × r̂), ŝ·r̂), computed from positions alone. (The thighs' twist
// is the knee hinge's lean limit, tested with the knees.)

const degrees = Math.PI / 180;
const HEIGHT = 1.8;

type Side = 'left' | 'right';
const STOP = twistStop(twistLimits[0]!);

/**
 * The upper arm's twist (degrees): the elbow's bend plane turned about the upper
 * arm from the way it folds untwisted, the torso's front carried along the great
 * circle from the arm out sideways to the upper arm, as the limit reads it
 * (elbowHinge.ts). The front merely projected off the upper arm, read here before
 * the stop moved to 123°, differs with the arm off sideways: a hand swung up at
 * 2 m/s stops at 122.6° so read and 132.9° that way, the upper arm 46° off the
 * shoulder line. Positive turns the hand down.
 */
function armTwist(world: World, doll: Ragdoll, side: Side): number {
  const p = (name: RagdollPart) => world.getPosition(doll.part(name));
  const u = unit(sub(p(`${side}Elbow`), p(`${side}Shoulder`)));
  const across = sub(p('leftShoulder'), p('rightShoulder'));
  const front = unit(cross(across, sub(p('neck'), p('chest'))));
  const lateral = scale(unit(across), side === 'left' ? 1 : -1);
  const c = dot(lateral, u);
  const w = cross(lateral, u);
  const r = unit(add(add(scale(front, c), cross(w, front)), scale(w, dot(w, front) / (1 + c))));
  const s = unit(sub(p(`${side}Hand`), p(`${side}Elbow`)));
  const down = unit(cross(u, r));
  return (Math.sign(-down[1]!) * Math.atan2(dot(s, down), dot(s, r))) / degrees;
}

/**
 * How far `side`'s arm is outside its twist limit, read from positions: with β
 * the elbow's bend and ψ its twist, sin β·sin(|ψ| − range) − sin(free)·|cos(range)|
 * (≤ 0 within the limit; see twistLimits.ts).
 */
function wedgeExcess(world: World, doll: Ragdoll, side: Side): number {
  const p = (name: RagdollPart) => world.getPosition(doll.part(name));
  const u = unit(sub(p(`${side}Elbow`), p(`${side}Shoulder`)));
  const s = unit(sub(p(`${side}Hand`), p(`${side}Elbow`)));
  const bend = Math.acos(Math.max(-1, Math.min(1, dot(u, s))));
  const psi = armTwist(world, doll, side) * degrees;
  const t = twistLimits[0]!;
  return Math.sin(bend) * Math.sin(Math.abs(psi) - t.range * degrees) - Math.sin(t.free * degrees) * Math.abs(Math.cos(t.range * degrees));
}

/**
 * A ragdoll in a weightless world in the T pose (arms out sideways, where the
 * elbows fold to the front) with `side`'s elbow bent 90° and the forearm twisted
 * `twist` degrees about the upper arm (positive: the hand down).
 */
function twistedArm(side: Side, twist: number, options: { twistLimits?: boolean; world?: World; elbowHinges?: boolean } = {}): { world: World; doll: Ragdoll } {
  const world = options.world ?? new World({ gravity: [0, 0, 0] });
  const joints = Object.fromEntries(ragdollParts.map((p) => [p, scale(partPosition(p, 'T'), HEIGHT)])) as Record<RagdollPart, number[]>;
  const length = norm(sub(joints[`${side}Hand`], joints[`${side}Elbow`]));
  // The torso's front leans 13.5° up from +z (the chest sits forward of the neck); the arm along ±x is square to it.
  const u = unit(sub(joints[`${side}Elbow`], joints[`${side}Shoulder`]));
  const front = unit(cross(sub(joints.leftShoulder, joints.rightShoulder), sub(joints.neck, joints.chest)));
  const cross1 = unit(cross(u, front));
  const down = cross1[1]! < 0 ? cross1 : scale(cross1, -1);
  joints[`${side}Hand`] = add(joints[`${side}Elbow`], scale(add(scale(front, Math.cos(twist * degrees)), scale(down, Math.sin(twist * degrees))), length));
  const doll = createRagdoll(world, { joints: joints as unknown as Record<RagdollPart, Vec3>, elbowHinges: options.elbowHinges ?? true, twistLimits: options.twistLimits ?? true });
  return { world, doll };
}

describe('twist limits of the shoulders (with elbowHinges)', () => {
  it(`an elbow bent 90° twists at most ${STOP.toFixed(1)}° each way (the table's stop)`, () => {
    // sin(ψ − range) = sin(free)·|cos(range)| at the stop (see twistLimits.ts); below
    // 90°, sin ψ − tan(range)·cos ψ = sin(free), the hips' form (hipTwist.ts).
    for (const t of twistLimits) {
      const psi = twistStop(t) * degrees;
      const range = t.range * degrees;
      expect(Math.sin(psi - range)).toBeCloseTo(Math.sin(t.free * degrees) * Math.abs(Math.cos(range)), 12);
      if (t.range < 90) expect(Math.sin(psi) - Math.tan(range) * Math.cos(psi)).toBeCloseTo(Math.sin(t.free * degrees), 12);
    }
    // Past the 90° of a forearm lying flat on the ground beside a body on its back or front.
    expect(STOP).toBeCloseTo(122.7, 1);
  });

  for (const side of ['left', 'right'] as const) {
    for (const twist of [-130, 130]) {
      it(`${side} forearm twisted ${twist}° (elbow bent 90°) is brought within the limit; without it, it stays`, () => {
        const { world, doll } = twistedArm(side, twist);
        expect(armTwist(world, doll, side)).toBeCloseTo(twist, 1);
        expect(wedgeExcess(world, doll, side)).toBeGreaterThan(0.1);
        for (let i = 0; i < 30; i++) world.step();
        // Within sin(2°) of the wedge: twisted back, or straightened into the free zone.
        expect(wedgeExcess(world, doll, side)).toBeLessThan(Math.sin(2 * degrees));
        const free = twistedArm(side, twist, { twistLimits: false });
        for (let i = 0; i < 30; i++) free.world.step();
        expect(wedgeExcess(free.world, free.doll, side)).toBeGreaterThan(0.1);
      });
    }

    it(`${side} hand swung up or down at 2 m/s across the bend plane stops within ${STOP.toFixed(1)}° + 5°`, () => {
      for (const direction of [-1, 1]) {
        const { world, doll } = twistedArm(side, 0);
        world.setVelocity(doll.part(`${side}Hand`), [0, direction * 2, 0]);
        let worst = 0;
        for (let i = 0; i < 60; i++) {
          world.step();
          worst = Math.max(worst, Math.abs(armTwist(world, doll, side)));
        }
        expect(worst).toBeGreaterThan(STOP - 10); // it did reach the limit
        expect(worst).toBeLessThan(STOP + 5);
      }
    });
  }

  it('a twist within the range is left alone; without elbowHinges there is no twist limit', () => {
    const { world, doll } = twistedArm('left', 60);
    world.step();
    expect(armTwist(world, doll, 'left')).toBeCloseTo(60, 6);
    const off = twistedArm('left', 92, { elbowHinges: false });
    for (let i = 0; i < 30; i++) off.world.step();
    expect(armTwist(off.world, off.doll, 'left')).toBeGreaterThan(88);
  });

  it('bad option values are named', () => {
    const world = new World();
    expect(() => createRagdoll(world, { twistLimits: 1 as unknown as boolean })).toThrow('createRagdoll: twistLimits must be true or false, got 1');
    expect(() => createRagdoll(world, { elbowHinges: 'yes' as unknown as boolean })).toThrow('createRagdoll: elbowHinges must be true or false, got yes');
    expect(world.particleCount).toBe(0); // checked before anything is added
  });

  it('one projection moves no net momentum and no torque', () => {
    const { world, doll } = twistedArm('left', 130, { twistLimits: false });
    const arm = {
      shoulder: doll.part('leftShoulder'),
      elbow: doll.part('leftElbow'),
      hand: doll.part('leftHand'),
      leftShoulder: doll.part('leftShoulder'),
      rightShoulder: doll.part('rightShoulder'),
      neck: doll.part('neck'),
      chest: doll.part('chest'),
      side: 1 as const,
    };
    const limit = new TwistLimits(doll.body, [{ particles: arm, range: twistLimits[0]!.range * degrees, free: twistLimits[0]!.free * degrees }], 1, 10 * degrees);
    const before = doll.vertices.map((id) => world.getPosition(id));
    expect(limit.projectRow(world, 0)).toBe(true);
    let p = [0, 0, 0];
    let l = [0, 0, 0];
    let moved = 0;
    doll.vertices.forEach((id, i) => {
      const m = world.getMass(id);
      const d = sub(world.getPosition(id), before[i]!);
      moved += norm(d);
      p = add(p, scale(d, m));
      l = add(l, scale(cross(before[i]!, d), m));
    });
    expect(moved).toBeGreaterThan(1e-3);
    expect(norm(p)).toBeLessThan(1e-12);
    expect(norm(l) / moved).toBeLessThan(1e-4);
  });
});

describe('twist limits gain no energy (damping 0, no contacts, 10 s)', () => {
  const kernels: StickKernel[] = ['wasm', 'js'];
  const settings = [
    { substeps: 10, iterations: 1 },
    { substeps: 1, iterations: 10 },
    { substeps: 20, iterations: 2 },
  ];
  for (const kernel of kernels) {
    for (const { substeps, iterations } of settings) {
      it(`a bent arm's hand flung across its bend plane, ${kernel} kernel, ${substeps} × ${iterations}`, () => {
        for (const [up, forward] of [
          [6, 0],
          [-6, 2],
          [4, -4],
        ] as const) {
          const world = new World({ damping: 0, kernel, substeps, iterations });
          const { doll } = twistedArm('left', 30, { world });
          world.setVelocity(doll.part('leftHand'), [0, up, forward]);
          world.setVelocity(doll.part('rightHand'), [0, -up, forward]);
          const audit = auditEnergy(world, doll.vertices, 10, 'internal');
          expect(audit.maxGain, `hand ${up}, ${forward}`).toBeLessThanOrEqual(0);
        }
      });
    }
  }
});
