import { describe, expect, it } from 'vitest';
import { createRagdoll, World, type Ragdoll, type StickKernel, type Vec3, type WorldOptions } from '../../src/core/index.js';
import { HipTwistLimits, type HipTwistParticles } from '../../src/core/bodies/hipTwist.js';
import { angleLimits, partPosition, ragdollParts, twistLimits, twistStop, type RagdollPart } from '../../src/core/bodies/ragdollSkeleton.js';
import { auditEnergy } from './energyAudit.js';
import { sub, add, scale, dot, cross, norm, unit } from '../support/vectors.js';

// Issue 11: "shoulders and hips have cone and twist limits". A stick thigh has no
// twist of its own: its twist is the turn of the plane its knee bends in, about
// the thigh, away from the knee hinge's fold direction n̂ = ĥ × û (ĥ the hip line,
// left minus right; û the thigh). The twist read here is that angle,
// ψ = atan2(ŝ·(û × n̂), ŝ·n̂), computed from positions alone.

const degrees = Math.PI / 180;
const HEIGHT = 1.8;

type Side = 'left' | 'right';
const HIP = twistLimits.find((t) => t.name === 'leftHipTwist')!;
const STOP = twistStop(HIP);
const outwardSign = (side: Side) => (side === 'left' ? 1 : -1);

/** The leg's frame from positions: thigh û, hip line ĥ, untwisted fold n̂ = unit(ĥ × û), and shin ŝ. */
function legFrame(world: World, doll: Ragdoll, side: Side) {
  const p = (name: RagdollPart) => world.getPosition(doll.part(name));
  const u = unit(sub(p(`${side}Knee`), p(`${side}Hip`)));
  const h = unit(sub(p('leftHip'), p('rightHip')));
  const n = unit(cross(h, u));
  const s = unit(sub(p(`${side}Foot`), p(`${side}Knee`)));
  return { u, h, n, s };
}

/** The thigh's twist (degrees), positive turning the shin outward (away from the other leg). */
function hipTwist(world: World, doll: Ragdoll, side: Side): number {
  const { u, n, s } = legFrame(world, doll, side);
  return (outwardSign(side) * Math.atan2(dot(s, cross(u, n)), dot(s, n))) / degrees;
}

/** The angle between the thigh and the hip line (degrees): how far the thigh is spread, whatever its twist. */
function thighToHipLine(world: World, doll: Ragdoll, side: Side): number {
  const { u, h } = legFrame(world, doll, side);
  return Math.acos(outwardSign(side) * dot(u, h)) / degrees;
}

/**
 * How far `side`'s leg is outside its twist limit, read from positions: with β
 * the knee's bend and ψ its twist, sin β·(sin|ψ| − tan(range)·cos ψ) − sin(free)
 * (≤ 0 within the limit; see hipTwist.ts).
 */
function wedgeExcess(world: World, doll: Ragdoll, side: Side): number {
  const { u, s } = legFrame(world, doll, side);
  const bend = Math.acos(Math.max(-1, Math.min(1, dot(u, s))));
  const psi = hipTwist(world, doll, side) * degrees;
  return Math.sin(bend) * (Math.sin(Math.abs(psi)) - Math.tan(HIP.range * degrees) * Math.cos(psi)) - Math.sin(HIP.free * degrees);
}

/**
 * A ragdoll standing in a weightless world (or `options.world`) with `side`'s
 * thigh pointing `thigh` (body coordinates: 'down' as standing, 'forward' raised
 * as sitting), the knee bent by `bend` degrees (default 90) and the shin twisted
 * `twist` degrees about the thigh (positive: outward).
 */
function twistedLeg(
  side: Side,
  thigh: 'down' | 'forward',
  twist: number,
  options: { twistLimits?: boolean; world?: World; bend?: number; jointDamping?: number } = {},
): { world: World; doll: Ragdoll } {
  const world = options.world ?? new World({ gravity: [0, 0, 0] });
  const joints = Object.fromEntries(ragdollParts.map((p) => [p, scale(partPosition(p, 'standing'), HEIGHT)])) as Record<RagdollPart, number[]>;
  const hip = joints[`${side}Hip`];
  const thighLength = norm(sub(joints[`${side}Knee`], hip));
  const shinLength = norm(sub(joints[`${side}Foot`], joints[`${side}Knee`]));
  const u = thigh === 'down' ? [0, -1, 0] : [0, 0, 1];
  const h = unit(sub(joints.leftHip, joints.rightHip));
  const n = unit(cross(h, u));
  const outward = scale(cross(u, n), outwardSign(side));
  const bend = (options.bend ?? 90) * degrees;
  const across = add(scale(n, Math.cos(twist * degrees)), scale(outward, Math.sin(twist * degrees)));
  const shin = add(scale(u, Math.cos(bend)), scale(across, Math.sin(bend)));
  joints[`${side}Knee`] = add(hip, scale(u, thighLength));
  joints[`${side}Foot`] = add(joints[`${side}Knee`], scale(shin, shinLength));
  const doll = createRagdoll(world, { joints: joints as unknown as Record<RagdollPart, Vec3>, twistLimits: options.twistLimits ?? true, jointDamping: options.jointDamping });
  return { world, doll };
}

const legParticles = (doll: Ragdoll, side: Side): HipTwistParticles => ({
  hip: doll.part(`${side}Hip`),
  knee: doll.part(`${side}Knee`),
  foot: doll.part(`${side}Foot`),
  leftHip: doll.part('leftHip'),
  rightHip: doll.part('rightHip'),
});

describe('twist limits of the hips', () => {
  it(`a knee bent 90° twists at most ${STOP.toFixed(1)}° each way (the table's stop)`, () => {
    for (const t of twistLimits.filter((l) => l.name.endsWith('HipTwist'))) {
      const psi = twistStop(t) * degrees;
      expect(Math.sin(psi) - Math.tan(t.range * degrees) * Math.cos(psi)).toBeCloseTo(Math.sin(t.free * degrees), 12);
    }
    expect(STOP).toBeCloseTo(39.9, 1);
  });

  it('the knees have no lean limit of their own (the hips bound their lean)', () => {
    for (const knee of angleLimits.filter((l) => l.name.endsWith('Knee'))) expect(knee.hinge?.sideways).toBeUndefined();
  });

  for (const side of ['left', 'right'] as const) {
    for (const thigh of ['down', 'forward'] as const) {
      for (const twist of [-80, 80]) {
        it(`${side} thigh ${thigh}, knee bent 90°, twisted ${twist}°: it untwists rather than spreading, and ends within the limit`, () => {
          // One projection (1 substep × 1 pass, nothing else violated): how far the
          // twist comes back against how far the thigh turns from the hip line.
          const once = (twistLimits: boolean) => {
            const { world, doll } = twistedLeg(side, thigh, twist, { twistLimits, world: new World({ gravity: [0, 0, 0], substeps: 1, iterations: 1 }) });
            expect(hipTwist(world, doll, side)).toBeCloseTo(twist, 6);
            expect(wedgeExcess(world, doll, side)).toBeGreaterThan(0.2);
            const spread = thighToHipLine(world, doll, side);
            world.step();
            return { untwist: Math.abs(twist) - Math.abs(hipTwist(world, doll, side)), spread: Math.abs(thighToHipLine(world, doll, side) - spread) };
          };
          // Measured: 1.99° back, the thigh 0.06–0.07° off the hip line.
          const limited = once(true);
          expect(limited.untwist).toBeGreaterThan(1.5);
          expect(limited.spread).toBeLessThan(0.05 * limited.untwist);
          // The knee's old lean limit in their place (twistLimits: false): 0.41° back, the thigh spread 1.66°.
          const leaning = once(false);
          expect(leaning.spread).toBeGreaterThan(2 * leaning.untwist);
          // At the default settings, 0.5 s later: within sin(2°) of the wedge.
          const { world, doll } = twistedLeg(side, thigh, twist);
          for (let i = 0; i < 30; i++) world.step();
          expect(wedgeExcess(world, doll, side)).toBeLessThan(Math.sin(2 * degrees));
        });
      }
    }
  }

  it('a twist within the range is left alone', () => {
    for (const twist of [-30, 30]) {
      const { world, doll } = twistedLeg('left', 'down', twist);
      world.step();
      expect(hipTwist(world, doll, 'left')).toBeCloseTo(twist, 6);
    }
  });

  it('the limit is continuous as the knee straightens (no fade): C tends to sin(free)·|N|, no jump on the way', () => {
    // A knee twisted 90° (bent straight sideways), straightened from 90° to 0 in
    // 0.01° steps: C = (sin β·(tan(range)·cos ψ − sin ψ) + sin(free))·cos(range)
    // for the thigh square to the hip line, so it changes by at most |dβ| per step.
    const world = new World({ gravity: [0, 0, 0] });
    const { doll } = twistedLeg('left', 'down', 90, { world });
    const limit = new HipTwistLimits(doll.body, [{ particles: legParticles(doll, 'left'), range: HIP.range * degrees, free: HIP.free * degrees }], 1);
    const io = new Float64Array(12);
    const knee = world.getPosition(doll.part('leftKnee'));
    const shinLength = norm(sub(world.getPosition(doll.part('leftFoot')), knee));
    let previous = NaN;
    let worstJump = 0;
    for (let k = 9000; k >= 0; k--) {
      const bend = (k / 100) * degrees;
      world.setPosition(doll.part('leftFoot'), [knee[0]! + shinLength * Math.sin(bend), knee[1]! - shinLength * Math.cos(bend), knee[2]!]);
      limit.value(world.particles.position, 0, io);
      const closed = (Math.sin(HIP.free * degrees) - Math.sin(bend)) * Math.cos(HIP.range * degrees);
      expect(io[0]).toBeCloseTo(closed, 9);
      if (!Number.isNaN(previous)) worstJump = Math.max(worstJump, Math.abs(io[0]! - previous));
      previous = io[0]!;
    }
    expect(worstJump).toBeLessThanOrEqual(0.01 * degrees * 1.0001);
    expect(previous).toBeCloseTo(Math.sin(HIP.free * degrees) * Math.cos(HIP.range * degrees), 12); // straight: sin(free)·|N|·cos(range), |N| = 1
  });

  it('the limit fades continuously where the thigh lines up with the hip line (N = ĥ × û → 0)', () => {
    // The thigh swung out sideways toward the hip line, the knee bent 90°
    // sideways (twisted 90° from the hinge's fold, along û × N):
    // C = |N|·(sin(free) − 1) → 0.
    const world = new World({ gravity: [0, 0, 0] });
    const { doll } = twistedLeg('left', 'down', 0, { world });
    const limit = new HipTwistLimits(doll.body, [{ particles: legParticles(doll, 'left'), range: HIP.range * degrees, free: HIP.free * degrees }], 1);
    const io = new Float64Array(12);
    const hip = world.getPosition(doll.part('leftHip'));
    const h = unit(sub(world.getPosition(doll.part('leftHip')), world.getPosition(doll.part('rightHip'))));
    for (const angle of [30, 10, 1, 0.01, 0]) {
      // Thigh in the plane of the hip line and −y, `angle` degrees from the hip line; shin square to it in that plane.
      const a = angle * degrees;
      const u = add(scale(h, Math.cos(a)), [0, -Math.sin(a), 0]);
      const knee = add(hip, scale(u, 0.44));
      world.setPosition(doll.part('leftKnee'), knee as Vec3);
      world.setPosition(doll.part('leftFoot'), add(knee, scale(add(scale(h, Math.sin(a)), [0, Math.cos(a), 0]), 0.45)) as Vec3);
      limit.value(world.particles.position, 0, io);
      expect(io[0]).toBeCloseTo(Math.sin(a) * (Math.sin(HIP.free * degrees) - 1) * Math.cos(HIP.range * degrees), 9);
    }
  });

  it('one projection moves no net momentum and no torque', () => {
    for (const side of ['left', 'right'] as const) {
      const { world, doll } = twistedLeg(side, 'forward', 80, { twistLimits: false });
      const limit = new HipTwistLimits(doll.body, [{ particles: legParticles(doll, side), range: HIP.range * degrees, free: HIP.free * degrees }], 1);
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
      // Finite-difference gradient: the torque is the second-order remainder of one projection.
      expect(norm(l) / moved).toBeLessThan(1e-4);
    }
  });

  it('a knee bent the wrong way and twisted is pushed mostly toward straight, as its hinge pushes it', () => {
    // Bent 30° the wrong way, the bend 30° off the plane (twisted 150° from the
    // fold). One projection: the shin turns toward straight (the radial part of its
    // motion seen along the thigh) far more than about the thigh (the tangential
    // part). Measured: 1.90° toward straight, 0.55° about the thigh (times sin β).
    const { world, doll } = twistedLeg('left', 'down', 150, { twistLimits: false, bend: 30 });
    const limit = new HipTwistLimits(doll.body, [{ particles: legParticles(doll, 'left'), range: HIP.range * degrees, free: HIP.free * degrees }], 1);
    const bent = () => Math.acos(dot(legFrame(world, doll, 'left').u, legFrame(world, doll, 'left').s)) / degrees;
    expect(bent()).toBeCloseTo(30, 6);
    expect(limit.projectRow(world, 0)).toBe(true);
    const radial = 30 - bent();
    const tangential = Math.sin(bent() * degrees) * Math.abs(hipTwist(world, doll, 'left') - 150);
    expect(radial).toBeGreaterThan(1);
    expect(tangential).toBeLessThan(0.35 * radial);
  });
});

describe('hip twist limits gain no energy (damping 0, joint damping 0, no contacts, 10 s)', () => {
  const kernels: StickKernel[] = ['wasm', 'js'];
  const settings = [
    { substeps: 10, iterations: 1 },
    { substeps: 1, iterations: 10 },
    { substeps: 20, iterations: 2 },
  ];
  const flings = [
    [6, 0],
    [-6, 2],
    [4, -4],
  ] as const;
  /** The left knee bent 90° and twisted 20° out, the left foot flung at (out, 0, forward) m/s, the right foot mirrored. */
  const flung = (world: World, [out, forward]: readonly [number, number], twistLimits = true) => {
    const { doll } = twistedLeg('left', 'forward', 20, { world, jointDamping: 0, twistLimits });
    world.setVelocity(doll.part('leftFoot'), [out, 0, forward]);
    world.setVelocity(doll.part('rightFoot'), [-out, 0, forward]);
    return doll;
  };

  it('the flings do reach the limits, which hold them', () => {
    // Largest wedge excess over 10 s (jointDamping 0). Measured, the left leg and
    // the right: at 20 substeps × 1 pass and at 10 × 4, 0.000 (reached and held);
    // at the default 10 × 1, 0.000 and up to 0.10 in one step (the right shin 7°
    // past its 42° stop at a 42° bend, one pass a substep against the other
    // limits). The knee's old lean limit in their place let the same flings twist
    // the right knee to 91–97° (excess 0.46–0.74).
    const worstOf = (options: WorldOptions, twistLimits: boolean, fling: readonly [number, number]) => {
      const world = new World({ damping: 0, ...options });
      const doll = flung(world, fling, twistLimits);
      const worst = { left: -Infinity, right: -Infinity };
      for (let i = 0; i < 600; i++) {
        world.step();
        for (const side of ['left', 'right'] as const) worst[side] = Math.max(worst[side], wedgeExcess(world, doll, side));
      }
      return worst;
    };
    for (const fling of flings) {
      for (const side of ['left', 'right'] as const) {
        const held = worstOf({ substeps: 20 }, true, fling)[side];
        expect(held, `${side}, ${fling.join(', ')}`).toBeGreaterThan(-0.02);
        expect(held, `${side}, ${fling.join(', ')}`).toBeLessThan(Math.sin(2 * degrees));
        expect(worstOf({}, true, fling)[side], `${side}, ${fling.join(', ')}`).toBeLessThan(0.12);
      }
    }
    expect(worstOf({}, false, flings[0]!).right).toBeGreaterThan(0.3);
  });

  for (const kernel of kernels) {
    for (const { substeps, iterations } of settings) {
      it(`a bent knee's foot flung across its bend plane, ${kernel} kernel, ${substeps} × ${iterations}`, () => {
        for (const fling of flings) {
          const world = new World({ damping: 0, kernel, substeps, iterations });
          const doll = flung(world, fling);
          const audit = auditEnergy(world, doll.vertices, 10, 'internal');
          expect(audit.maxGain, `foot ${fling.join(', ')}`).toBeLessThanOrEqual(0);
        }
      });
    }
  }
});
