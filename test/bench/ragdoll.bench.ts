import { afterAll, bench, describe } from 'vitest';
import { builtEngine } from './engine.js';
import { median, protocol } from './protocol.js';
import { staircaseMesh } from './scenes.js';

// What keeping a ragdoll's bones within 2% at a 5 m/s impact costs (issue 11): four
// ragdolls shoved down a mesh staircase at 5 m/s (impacts all the way down), timed
// per ragdoll and step over their first 3 s, with the ragdoll's own passes (the
// default: up to 16 per substep while a bone is more than 1% off), without them,
// with 12 passes for the whole ragdoll instead (`iterations: 12`), without the
// elbow hinges and shoulder twist limits (`elbowHinges: false`; on by default), without
// the hips' twist limits (`twistLimits: false`, the knee hinge's lean limit in
// their place), and without the friction of the neck and shoulder limits
// (`limitFriction: 0`). The variants are timed in turns so that all see the same machine.
const p = protocol();
const core = await builtEngine();
type World = InstanceType<typeof core.World>;
const RAGDOLLS = 4;

type Variant = { name: string; options: { ownPasses?: number; iterations?: number; elbowHinges?: boolean; twistLimits?: boolean; limitFriction?: number } };
const variants: Variant[] = [
  { name: 'own passes (default)', options: {} },
  { name: 'without one-way elbows and shoulder twist limits (elbowHinges: false)', options: { elbowHinges: false } },
  { name: 'without the hip twist limits (twistLimits: false)', options: { twistLimits: false } },
  { name: 'no friction at the limits (limitFriction: 0)', options: { limitFriction: 0 } },
  { name: 'no own passes', options: { ownPasses: 0 } },
  { name: 'iterations: 12, no own passes', options: { ownPasses: 0, iterations: 12 } },
];

function scene(options: Variant['options']): { world: World; bones: () => number } {
  const world = new core.World();
  world.addCollider(staircaseMesh(10, 0.3, 0.18, 4));
  const dolls = Array.from({ length: RAGDOLLS }, (_, k) => {
    const doll = core.createRagdoll(world, { feet: [2.85, 9 * 0.18, -1.2 + k * 0.8], rotation: [0, -Math.SQRT1_2, 0, Math.SQRT1_2], ...options });
    doll.hit('chest', [-1, 0, 0], 5 * world.substep);
    return doll;
  });
  const bones = () => {
    let worst = 0;
    for (const doll of dolls)
      for (const limb of doll.limbs) {
        const a = world.getPosition(limb.from);
        const b = world.getPosition(limb.to);
        const length = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
        worst = Math.max(worst, Math.abs(length / world.sticks.rest[world.stickRow(limb.stick)]! - 1));
      }
    return worst;
  };
  return { world, bones };
}

const STEPS = 180;
const results = variants.map(() => ({ cpu: [] as number[], bones: 0 }));
for (let r = 0; r < p.runs; r++) {
  variants.forEach((v, i) => {
    const { world } = scene(v.options);
    const used = process.cpuUsage();
    for (let s = 0; s < STEPS; s++) world.step();
    const spent = process.cpuUsage(used);
    results[i]!.cpu.push((spent.user + spent.system) / 1000 / STEPS / RAGDOLLS);
    // The bone check runs apart from the timing, on a fresh scene.
    const check = scene(v.options);
    for (let s = 0; s < STEPS; s++) {
      check.world.step();
      results[i]!.bones = Math.max(results[i]!.bones, check.bones());
    }
  });
}

afterAll(() => {
  console.log(
    variants
      .map(
        (v, i) => `ragdoll shoved down stairs at 5 m/s, ${v.name}: ${(median(results[i]!.cpu) * 1000).toFixed(0)} µs CPU per ragdoll and step; worst bone ${(results[i]!.bones * 100).toFixed(1)}% off`,
      )
      .join('\n'),
  );
});

describe('ragdoll bones', () => {
  const { world } = scene({});
  bench('step, four ragdolls down stairs', () => void world.step(), { time: 200 });
});
