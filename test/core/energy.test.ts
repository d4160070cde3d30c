import { describe, expect, it } from 'vitest';
import { createBox, createCloth, createRagdoll, createRope, World, type StickKernel, type Vec3 } from '../../src/core/index.js';
import { auditEnergy, hangingFloors } from './energyAudit.js';
import { setRigidMotion } from '../support/rigidMotion.js';

// Issue 9, "nothing gains energy": with damping 0 and nothing to collide with,
// swinging, spinning and tumbling bodies are stepped for 60 simulated seconds and
// their total energy (kinetic + gravitational) is measured after every step (see
// energyAudit.ts for how, and why at the substep's midpoint). It must never rise
// more than 2% above its start. Relaxation takes energy out, so by the end most of
// it is gone, and a gain after such a loss would stay below the start: a second
// bound, `rise`, caps how far the energy may climb above the lowest it has been.
//
// The "2%" is of the motion's own energy, not of an arbitrary potential offset:
// - hanging bodies count potential energy from the lowest each particle can reach,
//   its rest distance from the pin straight below the pin (exact for the chain,
//   which hangs that way at rest; for the cloth a bound, since not every point can
//   hang straight below the pin at once: its scale is up to ~10% generous);
// - free bodies fall for 60 s, but gravity moves only their centre of mass, along
//   a parabola Verlet follows exactly; the constraints can only change the motion
//   about the centre of mass, so its starting kinetic energy is the scale.
//
// Measured, at 10 × 1 (default) / 1 × 10 / 20 × 2 substeps × iterations (both
// kernels give the same positions bit for bit, so the same numbers): largest gain
// above the start, largest rise above the lowest so far, loss by the end.
//   chain            +0.0000% (< 1e-8)     rise 2.5% / 3.7% / 1.7%    loss 84% / 102% / 77%
//   cloth            +0.0000% (< 1e-8)     rise 2.7% / 1.5% / 2.4%    loss 86% / 95% / 88%
//   box, free fall   +0.013% / +0.0003% / +0.007%, rise 0.01–0.03%   loss 0.001% / 0.26% / 0.2%
//   box, no gravity  -0.00001% / +0.0003% / -0.00001%                loss 0.0005% / 0.26% / 0.0001%
//   (before the rigid-motion stage, bodies/rigidMotion.ts: -0.19% / -0.76% / -0.10%,
//   loss 87% / 99% / 78%: the sticks' projection ate the spin, see below)
//   ragdoll tumble   -0.28% / -0.54% / -0.09%, rise 0.17% / 0 / 0.08%, loss 85% / 98% / 76%
//   ragdoll flail    -39% / -44% / -39% (the first step takes the flung hand's and foot's
//                    speed along their bones), rise 0.56% / 0 / 0.45%, loss 91% / 98% / 89%
// The chain's and the cloth's rises are their sticks giving back stretch: one pass
// per substep leaves some, and the next substep's repair of it becomes velocity (the
// chain's loss passes 100% because its stretched links hang below the floors). At
// 10 × 1 the chain whips down stretched by 1.3% and regains 2.5% in the two steps its
// stretch relaxes in. That is in the stick solver; hence 5% for them, 2% for the rest.
// Before the fix to the knee hinge (constraints/hinge.ts) the ragdolls rose by 12.5%
// (tumble, 20 × 2) and 3.6% (flail, 10 × 1): this file failed then.
//
// Angular momentum of the ragdolls only decays: they keep 47% / 17% / 60% (tumble)
// and 77% / 34% / 86% (flail) of it over the 60 s. That is the projection's own loss:
// a stick turning by θ per substep is carried along its tangent and projected back,
// which turns it by θ - θ³, so dω/dt = -h·ω³. A rigid body no longer loses it: the
// rigid-motion stage turns it by the angle its angular momentum asks for, and the box
// keeps 100.000% / 99.90% / 100.000% of it (it kept 37% / 13% / 48%). Read from chord
// velocities, a kept L wobbles by about (ωh)² as the tumbling box's ω changes, so the
// boxes may read that much above the start; the ragdolls not at all.

const SECONDS = 60;
/** The boxes' spin (rad/s), mostly about their middle axis, the unstable one: they tumble. */
const SPIN: Vec3 = [1, 6, 0.5];
const kernels: StickKernel[] = ['wasm', 'js'];
const settings = [
  { substeps: 10, iterations: 1 },
  { substeps: 1, iterations: 10 },
  { substeps: 20, iterations: 2 },
];

interface Built {
  ids: readonly number[];
  scale: 'total' | 'internal';
  floors?: Float64Array;
}

interface Scene {
  name: string;
  gravity?: Vec3;
  /** Largest rise above the lowest energy so far, as a fraction of the scale. */
  rise: number;
  /** For a rigid body, its spin (rad/s): its angular momentum is kept, read within (spin·h)². */
  spin?: number;
  build(world: World): Built;
}

/** A ragdoll in the T pose with nothing but its skeleton: no joint damping, no capsules or tunnelling guard (no contacts). */
function bareRagdoll(world: World, elbowHinges = false) {
  return createRagdoll(world, { pose: 'T', jointDamping: 0, capsules: false, protectFromTunnelling: false, elbowHinges });
}

const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

const scenes: Scene[] = [
  {
    name: 'a 15-link chain released horizontal from its pinned end',
    rise: 0.05,
    build(world) {
      const rope = createRope(world, { from: [0, 0, 0], to: [1.5, 0, 0], segments: 15, pinStart: true });
      const ids = range(rope.first, rope.count);
      return { ids, scale: 'total', floors: hangingFloors(world, ids, [0, 0, 0]) };
    },
  },
  {
    name: 'a 10 × 10 cloth pinned at one corner, released lying flat',
    rise: 0.05,
    build(world) {
      const cloth = createCloth(world, { width: 10, height: 10, spacing: 0.1, orientation: 'horizontal', pin: [0] });
      const ids = range(cloth.first, cloth.count);
      return { ids, scale: 'total', floors: hangingFloors(world, ids, [0, 0, 0]) };
    },
  },
  {
    name: 'a box spinning in free fall',
    rise: 0.02,
    spin: Math.hypot(...SPIN),
    build(world) {
      // Spun mostly about its middle axis, the unstable one: it tumbles. (Rigid bodies
      // take at least 4 passes per substep by default, so at 10 × 1 and 20 × 2 it gets 4.)
      const box = createBox(world, { size: [1, 0.6, 0.3], velocity: [1, 3, 0], angularVelocity: SPIN, collideEdges: false });
      return { ids: box.vertices, scale: 'internal' };
    },
  },
  {
    name: 'a box spinning without gravity',
    gravity: [0, 0, 0],
    rise: 0.02,
    spin: Math.hypot(...SPIN),
    build(world) {
      const box = createBox(world, { size: [1, 0.6, 0.3], angularVelocity: SPIN, collideEdges: false });
      return { ids: box.vertices, scale: 'internal' };
    },
  },
  {
    name: 'a ragdoll tumbling in free fall',
    rise: 0.02,
    build(world) {
      const doll = bareRagdoll(world);
      setRigidMotion(world, doll.vertices, [6, 1, 1], [0, 5, 0]);
      return { ids: doll.vertices, scale: 'internal' };
    },
  },
  {
    name: 'a ragdoll flailing in free fall (a hand and a foot flung)',
    rise: 0.02,
    build(world) {
      const doll = bareRagdoll(world);
      setRigidMotion(world, doll.vertices, [2, 4, 1], [0, 5, 0]);
      world.setVelocity(doll.part('leftHand'), [0, 8, 4]);
      world.setVelocity(doll.part('rightFoot'), [3, -2, 5]);
      return { ids: doll.vertices, scale: 'internal' };
    },
  },
  {
    // The one-way elbows (elbowHinge.ts) in a tumble; forearms flung the wrong way
    // are in ragdollElbowEnergy.test.ts (their rise above the lowest energy, up to
    // 4.3%, is the sticks' given-back stretch and as large without the hinge).
    name: 'a ragdoll with one-way elbows tumbling in free fall',
    rise: 0.02,
    build(world) {
      const doll = bareRagdoll(world, true);
      setRigidMotion(world, doll.vertices, [2, 4, 1], [0, 5, 0]);
      return { ids: doll.vertices, scale: 'internal' };
    },
  },
];

describe('energy audit: with damping 0 and no contacts nothing gains energy over 60 s', () => {
  for (const scene of scenes) {
    for (const kernel of kernels) {
      for (const { substeps, iterations } of settings) {
        it(`${scene.name}, ${kernel} kernel, ${substeps} substeps × ${iterations} iterations`, () => {
          const world = new World({ damping: 0, kernel, substeps, iterations, gravity: scene.gravity });
          expect(world.kernel).toBe(kernel);
          const { ids, scale, floors } = scene.build(world);
          const audit = auditEnergy(world, ids, SECONDS, scale, floors);
          expect(audit.maxGain).toBeLessThanOrEqual(0.02);
          expect(audit.maxRise).toBeLessThanOrEqual(scene.rise);
          // A free body's spin only decays, or for a rigid body is kept (see the top of the file).
          const spin = scene.spin === undefined ? 0 : scene.spin * world.substep;
          if (scale === 'internal') expect(audit.angularMomentumGrowth).toBeLessThanOrEqual(Math.max(1e-9, spin * spin));
          if (scene.spin !== undefined) expect(audit.angularMomentumKept).toBeGreaterThan(0.99);
        });
      }
    }
  }

  // A pump of 0.1% of the velocity per substep measured a gain of 118% and a rise of 177%.
  it('the audit sees a gain: a constraint that speeds every particle up by 0.1% per substep fails it', () => {
    const world = new World({ damping: 0, kernel: 'js' });
    const { ids, floors } = scenes[0]!.build(world);
    const pos = world.particles.position;
    const prev = world.particles.previous;
    world.addConstraint({
      project() {
        for (const id of ids) for (let k = 0; k < 3; k++) pos[id * 3 + k] = pos[id * 3 + k]! + 0.001 * (pos[id * 3 + k]! - prev[id * 3 + k]!);
      },
    });
    const audit = auditEnergy(world, ids, SECONDS, 'total', floors);
    expect(audit.maxGain).toBeGreaterThan(0.02);
    expect(audit.maxRise).toBeGreaterThan(0.05);
  });
});
