import { beforeAll, describe, expect, it } from 'vitest';
import { createRagdoll, quatFromAxisAngle, SeededRandom, World, type Ragdoll } from '../../src/core/index.js';

// Issue 11: "ragdolls come to rest: every part slower than 5 cm/s from 3 s after
// landing ... no late twitches over 30 s". The cases in ragdollLimits.test.ts are
// hand-picked; these are 60 drops from 1.2 m (the feet's midpoint at 1.2 m) in
// seeded random orientations, either pose, thrown at up to 2 m/s sideways and
// 2 m/s down. Some start partly inside the floor (about one in seven: a figure
// turned upside down reaches 0.5 m below its feet) and climb out at
// `maxPushOutSpeed`. Landing is as in ragdollLimits.test.ts: the centre of mass,
// having fallen faster than 1 m/s, first slower than 0.3 m/s.
//
// Measured at the default settings (10 substeps × 1 pass, joint damping 2,
// limit friction 0.5, the hips' twist limits, one-way elbows with the shoulders'
// twist stop at 123°): from 3 s after landing all 60 stay below 5 cm/s (2 above
// 1 cm/s, the worst 2.6 cm/s, a knee 3.4 s after landing), and from 6 s after
// landing every part of every drop is below 0.5 cm/s to the end of the 30 s.
// With the elbows off, drop 59 did not: an upper arm rocked on its planted hand
// at up to 10.5 cm/s 3.4 s after landing, the elbow swinging about the
// shoulder–hand line, a pendulum no limit touches, slowed only by the joint
// damping (below 1 cm/s from 6 s; every part of every drop below 0.9 cm/s from
// 6 s). With the elbows on and the twist stop at 78°, 4 did not (13, 38, 56, 59;
// 12 cm/s from 6 s, an arm sliding along its twist stop; see ragdollSkeleton.ts).
// Before the hips' twist limits, with the friction, all 60 stayed below 4.0 cm/s
// from 3 s: the drops land differently.
//
// Without the limits' friction (`limitFriction: 0`, before the hips' twist
// limits) 4 of the 60 were still above 5 cm/s 3 s after landing (6.6–7.8 cm/s:
// the head swinging around its neck limit's cone, slowed only by the joint
// damping), 8 above 1 cm/s, and from 6 s the worst was 3.1 cm/s. Tried before the
// friction: damping the spine and head's motion relative to each other twice as
// hard brought the 3-s worst to 3.6 cm/s, but moved the chaotic landings of
// ragdollLimits.test.ts into cases that failed there (a bone 2.02% off landing on
// the head; a body still rolling down the stairs 3 s after its first stop).
// Joint damping 3 or 4 for the whole body: drop 59 rests, but others kneel
// longer and topple 3 s after landing (44 cm/s at 3, 76 and 138 cm/s at 4).

const DROPS = 60;
const SECONDS = 30;
const ground = { type: 'plane', normal: [0, 1, 0], offset: 0 } as const;

interface Drop {
  landed: number;
  /** Fastest any part moved from `after` s after landing to the end, per `after` in {@link AFTER}. */
  fastest: number[];
}
const AFTER = [3, 6];

function comSpeed(world: World, doll: Ragdoll): number {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const id of doll.vertices) {
    const m = world.getMass(id);
    const v = world.getVelocity(id);
    x += m * v[0];
    y += m * v[1];
    z += m * v[2];
  }
  return Math.hypot(x, y, z) / doll.mass;
}

function drop(random: SeededRandom, options: { limitFriction?: number } = {}): Drop {
  const axis: [number, number, number] = [random.next() - 0.5, random.next() - 0.5, random.next() - 0.5];
  const angle = random.next() * 2 * Math.PI;
  const pose = random.next() < 0.5 ? 'standing' : 'T';
  const velocity: [number, number, number] = [4 * (random.next() - 0.5), -2 * random.next(), 4 * (random.next() - 0.5)];
  const world = new World();
  world.addCollider(ground);
  const doll = createRagdoll(world, { feet: [0, 1.2, 0], rotation: quatFromAxisAngle(axis, angle), pose, velocity, ...options });
  let fell = false;
  let landed = -1;
  const fastest = AFTER.map(() => 0);
  for (let i = 1; i <= SECONDS * 60; i++) {
    world.step();
    const t = i / 60;
    const com = comSpeed(world, doll);
    if (com > 1) fell = true;
    if (fell && landed < 0 && com < 0.3) landed = t;
    if (landed < 0 || t < landed + AFTER[0]!) continue;
    let speed = 0;
    for (const id of doll.vertices) {
      const v = world.getVelocity(id);
      speed = Math.max(speed, Math.hypot(v[0], v[1], v[2]));
    }
    AFTER.forEach((after, k) => {
      if (t >= landed + after) fastest[k] = Math.max(fastest[k]!, speed);
    });
  }
  return { landed, fastest };
}

describe(`${DROPS} seeded random drops from 1.2 m come to rest`, () => {
  let drops: Drop[] = [];
  beforeAll(() => {
    const random = new SeededRandom(11);
    drops = Array.from({ length: DROPS }, () => drop(random));
  }, 120_000);

  it('every drop lands within 5 s', () => {
    for (const [i, d] of drops.entries()) {
      expect(d.landed, `drop ${i}`).toBeGreaterThan(0);
      expect(d.landed, `drop ${i}`).toBeLessThan(5);
    }
  });

  it('no late twitches: from 6 s after landing to 30 s, every part slower than 2 cm/s', () => {
    for (const [i, d] of drops.entries()) expect(d.fastest[1], `drop ${i}`).toBeLessThan(0.02);
  });

  // Reached once the elbows were on by default (with them off, drop 59: see the top of the file).
  it("the issue's bound: from 3 s after landing, every part slower than 5 cm/s", () => {
    for (const [i, d] of drops.entries()) expect(d.fastest[0], `drop ${i}`).toBeLessThan(0.05);
  });
});

describe('what brings them to rest', () => {
  it("the limits' friction: drop 0 of the set, whose head swings around its neck limit, without it and with it", () => {
    const speeds = [0, 0.5].map((limitFriction) => {
      const random = new SeededRandom(11);
      const d = drop(random, { limitFriction });
      return d.fastest[0]!;
    });
    // Measured: 1.69 cm/s without, under 1 cm/s with (6.00 without before the launch guard, which takes
    // back what the ground's repeated push-outs gave the swinging head).
    expect(speeds[0]).toBeGreaterThan(0.01);
    expect(speeds[0]).toBeGreaterThan(2 * speeds[1]!);
    expect(speeds[1]).toBeLessThan(0.01);
  });
});
