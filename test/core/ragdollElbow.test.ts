import { describe, expect, it } from 'vitest';
import { createRagdoll, World, type Ragdoll } from '../../src/core/index.js';
import { ELBOW_TWIST_GIVE, ElbowHinges } from '../../src/core/bodies/elbowHinge.js';
import { TwistLimits } from '../../src/core/bodies/twistLimits.js';
import { partPosition, ragdollParts, ELBOW_HYPEREXTENSION, type RagdollPart } from '../../src/core/bodies/ragdollSkeleton.js';
import { sub, add, scale, dot, cross, norm, unit, type V } from '../support/vectors.js';

// Issue 11: "elbows and knees bend one way only". An elbow bent the wrong way
// (the forearm pushed past straight) must come back to within the hyperextension
// the skeleton allows, whatever the upper arm's direction: hanging down, held
// forward, stretched sideways (where a hinge about the shoulder line has no
// effect), raised overhead. Which way is "the right way" is written here per pose
// in the torso's frame (x the figure's left, y up, z front): arm down, sideways or
// overhead, the elbow folds to the front; arm forward, toward the other side (the
// palm turned in, as the arm reaches it from sideways; see elbowHinge.ts).

const degrees = Math.PI / 180;
const HEIGHT = 1.8;

/** Upper arm direction and the way the elbow folds, for the left arm (the right one mirrors x). */
const poses = {
  down: { upper: [0, -1, 0], folds: [0, 0, 1] },
  forward: { upper: [0, 0, 1], folds: [-1, 0, 0] },
  sideways: { upper: [1, 0, 0], folds: [0, 0, 1] },
  overhead: { upper: [0, 1, 0], folds: [0, 0, 1] },
} as const;

type Side = 'left' | 'right';

/**
 * The wrong-way bend (degrees) where the hinge stops a forearm bent in the fold
 * plane: the root of sin θ = sin(tolerance) + give·(1 − cos θ) (see elbowHinge.ts),
 * by bisection. 10.6° for 10° and a give of 0.5.
 */
function stopAngle(): number {
  const f = (t: number) => Math.sin(t * degrees) - Math.sin(ELBOW_HYPEREXTENSION * degrees) - ELBOW_TWIST_GIVE * (1 - Math.cos(t * degrees));
  let lo = 0;
  let hi = 60;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < 0) lo = mid;
    else hi = mid;
  }
  return lo;
}
const STOP = stopAngle();

/** The torso's frame (x the figure's left, y up, z front) from the shoulders, neck and chest, as the ragdoll's limb frames read it. */
function torsoFrame(p: (name: RagdollPart) => V): { x: number[]; y: number[]; z: number[] } {
  const x = unit(sub(p('leftShoulder'), p('rightShoulder')));
  const z = unit(cross(x, sub(p('neck'), p('chest'))));
  return { x, y: cross(z, x), z };
}

/** `v` given in the torso frame for the left arm, in world coordinates for `side`'s arm (the right one mirrors x). */
function inWorld(frame: { x: V; y: V; z: V }, v: V, side: Side): number[] {
  return add(add(scale(frame.x, side === 'left' ? v[0]! : -v[0]!), scale(frame.y, v[1]!)), scale(frame.z, v[2]!));
}

/**
 * A weightless-world ragdoll standing, with `side`'s arm in `pose`, its forearm
 * `bend` degrees along the fold (negative: the wrong way) and the hand moving at
 * `swing` m/s along the fold.
 */
function dollWithArm(pose: keyof typeof poses, side: Side, bend: number, swing = 0, elbowHinges = true): { world: World; doll: Ragdoll } {
  const world = new World({ gravity: [0, 0, 0] });
  const joints = Object.fromEntries(ragdollParts.map((p) => [p, scale(partPosition(p, 'standing'), HEIGHT)])) as Record<RagdollPart, number[]>;
  const frame = torsoFrame((name) => joints[name]);
  const shoulder = joints[`${side}Shoulder`];
  const upperLength = norm(sub(joints[`${side}Elbow`], shoulder));
  const foreLength = norm(sub(joints[`${side}Hand`], joints[`${side}Elbow`]));
  const u = inWorld(frame, poses[pose].upper, side);
  const n = inWorld(frame, poses[pose].folds, side);
  const elbow = add(shoulder, scale(u, upperLength));
  const s = add(scale(u, Math.cos(bend * degrees)), scale(n, Math.sin(bend * degrees)));
  joints[`${side}Elbow`] = elbow;
  joints[`${side}Hand`] = add(elbow, scale(s, foreLength));
  const doll = createRagdoll(world, { joints: joints as unknown as Record<RagdollPart, [number, number, number]>, elbowHinges });
  if (swing !== 0) {
    const across = unit(sub(n, scale(s, dot(n, s))));
    world.setVelocity(doll.part(`${side}Hand`), scale(across, swing) as [number, number, number]);
  }
  return { world, doll };
}

/** The elbow's bend along the fold (degrees), with the fold direction carried by the torso: negative is the wrong way. */
function bendAlongFold(world: World, doll: Ragdoll, pose: keyof typeof poses, side: Side): number {
  const p = (name: RagdollPart) => world.getPosition(doll.part(name));
  const n = inWorld(torsoFrame(p), poses[pose].folds, side);
  const u = unit(sub(p(`${side}Elbow`), p(`${side}Shoulder`)));
  const s = unit(sub(p(`${side}Hand`), p(`${side}Elbow`)));
  // Bend in the fold plane: the forearm's angle from the upper arm, signed by the fold.
  const across = sub(n, scale(u, dot(n, u)));
  return Math.atan2(dot(s, unit(across)), dot(s, u)) / degrees;
}

function momentum(world: World, doll: Ragdoll): { linear: number[]; angular: number[] } {
  let linear = [0, 0, 0];
  let angular = [0, 0, 0];
  for (const id of doll.vertices) {
    const m = 1 / world.particles.inverseMass[id]!;
    const v = scale(world.getVelocity(id), m);
    linear = add(linear, v);
    angular = add(angular, cross(world.getPosition(id), v));
  }
  return { linear, angular };
}

describe('one-way elbows', () => {
  for (const side of ['left', 'right'] as const) {
    for (const pose of Object.keys(poses) as (keyof typeof poses)[]) {
      it(`${side} arm ${pose}: a straight elbow swung the wrong way at 2 m/s stops within ${STOP.toFixed(1)}° + 2°, keeping momentum`, () => {
        const { world, doll } = dollWithArm(pose, side, 0, -2);
        const before = momentum(world, doll);
        let worst = 0;
        for (let i = 0; i < 60; i++) {
          world.step();
          worst = Math.min(worst, bendAlongFold(world, doll, pose, side));
        }
        expect(worst).toBeGreaterThan(-STOP - 2);
        // The push is internal (its gradient sums to zero): momentum is kept.
        expect(norm(sub(momentum(world, doll).linear, before.linear))).toBeLessThan(1e-9);
      });

      it(`${side} arm ${pose}: an elbow made 30° the wrong way comes back to within ${STOP.toFixed(1)}° + 1°`, () => {
        const { world, doll } = dollWithArm(pose, side, -30);
        expect(bendAlongFold(world, doll, pose, side)).toBeCloseTo(-30, 6);
        for (let i = 0; i < 120; i++) world.step();
        expect(bendAlongFold(world, doll, pose, side)).toBeGreaterThan(-STOP - 1);
      });

      it(`${side} arm ${pose}: an elbow bent 30° the right way or ${ELBOW_HYPEREXTENSION - 2}° the wrong way is left alone`, () => {
        for (const bend of [30, 2 - ELBOW_HYPEREXTENSION]) {
          const { world, doll } = dollWithArm(pose, side, bend);
          for (let i = 0; i < 30; i++) world.step();
          expect(Math.abs(bendAlongFold(world, doll, pose, side) - bend)).toBeLessThan(0.01);
        }
      });
    }
  }
  it('one projection moves the arm and the torso with no net momentum and no torque', () => {
    for (const pose of Object.keys(poses) as (keyof typeof poses)[]) {
      const { world, doll } = dollWithArm(pose, 'left', -30);
      const hinges = world.stages.constraints.items.find((c) => c instanceof ElbowHinges)!;
      const before = Float64Array.from(world.particles.position);
      expect(hinges.projectElbow(world, 0)).toBe(true);
      let linear = [0, 0, 0];
      let angular = [0, 0, 0];
      let moved = 0;
      for (const id of doll.vertices) {
        const m = 1 / world.particles.inverseMass[id]!;
        const x = world.getPosition(id);
        const dx = sub(x, [before[id * 3]!, before[id * 3 + 1]!, before[id * 3 + 2]!]);
        linear = add(linear, scale(dx, m));
        angular = add(angular, scale(cross(x, dx), m));
        moved += m * norm(dx);
      }
      expect(moved).toBeGreaterThan(0.003); // kg·m: it did push (0.0076 with the arm down)
      expect(norm(linear) / moved).toBeLessThan(1e-12);
      expect(norm(angular) / moved).toBeLessThan(1e-4); // m: the torque's lever, against a metre-sized body
    }
  });

  it('is on by default; with elbowHinges: false an elbow made 30° the wrong way stays there', () => {
    const byDefault = new World();
    expect(createRagdoll(byDefault).vertices.length).toBe(16);
    expect(byDefault.stages.constraints.items.some((c) => c instanceof ElbowHinges)).toBe(true);
    expect(byDefault.stages.constraints.items.some((c) => c instanceof TwistLimits)).toBe(true);
    const { world, doll } = dollWithArm('down', 'left', -30, 0, false);
    expect(world.stages.constraints.items.some((c) => c instanceof ElbowHinges)).toBe(false);
    for (let i = 0; i < 30; i++) world.step();
    expect(bendAlongFold(world, doll, 'down', 'left')).toBeCloseTo(-30, 0);
  });

  it('a hinge about the shoulder line (the earlier attempt) would not see the sideways arm bent the wrong way', () => {
    // The reason for the carried frame: with the upper arm along the shoulder line, ĥ × û = 0.
    const { world, doll } = dollWithArm('sideways', 'left', -30);
    const p = (name: RagdollPart) => world.getPosition(doll.part(name));
    const h = unit(sub(p('rightShoulder'), p('leftShoulder')));
    const u = unit(sub(p('leftElbow'), p('leftShoulder')));
    expect(norm(cross(h, u))).toBeLessThan(1e-9);
  });
});
