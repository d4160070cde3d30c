import type { Engine } from './engine.js';

type World = InstanceType<Engine['World']>;

/**
 * The self-collision bench's scenes, each built with or without
 * `enableSelfCollision` by the engine given (the built library in the bench).
 * Each is a world let go at step 0, with its timing window: `skip` untimed
 * steps, then `steps` timed one by one (the mean and the worst step are what the
 * bench reports); `before(k)`, where a scene has it, runs before timed step k,
 * timed with it.
 */
export interface SelfCollisionScene {
  /** Its name in the bench's table and in `BENCH_SELF`. */
  name: string;
  /** What it is and what is timed, for the table. */
  what: string;
  make(engine: Engine, selfCollide: boolean): { world: World; before?: (k: number) => void };
  skip: number;
  steps: number;
}

/** The 64 × 64 cloth of spacing 0.05 (sinew's defaults: 10 substeps × 1 pass) at thickness 0.02: hanging from its top corners, or lying flat 1.2 m up over a ball of radius 0.5 that it drops onto. */
function cloth64(engine: Engine, selfCollide: boolean, scene: 'hanging' | 'draped'): World {
  const world = new engine.World();
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth =
    scene === 'hanging'
      ? engine.createCloth(world, { width: 64, height: 64, spacing: 0.05, corner: [-1.575, 3.3, 0], pin: 'top-corners' })
      : engine.createCloth(world, { width: 64, height: 64, spacing: 0.05, corner: [-1.575, 1.2, -1.575], orientation: 'horizontal' });
  if (scene === 'draped') world.addCollider({ type: 'sphere', position: [0.1, 0.5, 0.1], radius: 0.5 });
  if (selfCollide) engine.enableSelfCollision(world, cloth.body, { thickness: 0.02 });
  return world;
}

/**
 * Ten Minute Physics' self-collision scene (episode 15, `15-selfCollision.html`): a
 * 30 × 200 cloth of spacing 1 cm, standing in the x–y plane with its lower edge
 * 0.2 m above the ground, not pinned, with bend sticks, 6 kg, self-collision at
 * thickness 1 cm; let go, it falls and piles up on the ground. As in the episode,
 * each particle starts up to 0.01 mm off the plane (seeded), so that the sheet
 * buckles, and rests on the ground at half the thickness (its radius). It lands
 * from frame 12 on and lies in a pile from about frame 80. The bench times frames
 * 0–119, the pile-up included: on main (d6cd66b) self-collision cost, in CPU ms per
 * frame by ten-frame blocks, 30, 594, 4 230, 11 145, 4 260, 1 481, 691, 396, 289, 279,
 * 258, 232 (worst 13.3 s, in frames 30–39); the pile at rest costs about what issue
 * 28 measured (334 ms).
 */
function episode15(engine: Engine, selfCollide: boolean): World {
  const width = 30;
  const height = 200;
  const spacing = 0.01;
  const world = new engine.World();
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth = engine.createCloth(world, { width, height, spacing, corner: [0, 0.2 + (height - 1) * spacing, 0], bend: {}, mass: 6, radius: spacing / 2 });
  const random = new engine.SeededRandom(15);
  for (let k = 0; k < cloth.count; k++) {
    const [x, y, z] = world.getPosition(cloth.first + k);
    world.setPosition(cloth.first + k, [x + (random.next() - 0.5) * 2e-5, y + (random.next() - 0.5) * 2e-5, z + (random.next() - 0.5) * 2e-5]);
  }
  if (selfCollide) engine.enableSelfCollision(world, cloth.body, { thickness: spacing });
  return world;
}

/** The draped cloth; before timed step k, a corner of it pinned (at k = 0) and dragged round a 5 cm circle in 120 steps, as a user grabbing it would. */
function dragged(engine: Engine, selfCollide: boolean): { world: World; before: (k: number) => void } {
  const world = cloth64(engine, selfCollide, 'draped');
  const corner = world.bodies[0]!.first;
  let pin = -1;
  const at = [0, 0, 0];
  const before = (k: number) => {
    if (k === 0) {
      const p = world.getPosition(corner);
      at[0] = p[0];
      at[1] = p[1];
      at[2] = p[2];
      pin = world.addPin(corner);
    }
    const a = (2 * Math.PI * k) / 120;
    world.setPinTarget(pin, [at[0]! + 0.05 * (Math.cos(a) - 1), at[1]! + 0.05 * Math.min(1, k / 30), at[2]! + 0.05 * Math.sin(a)]);
  };
  return { world, before };
}

/**
 * The scenes; `warmup` and `steps` are the protocol's (`BENCH_WARMUP`, `BENCH_STEPS`) for
 * the two that time a cloth going on as it is (the yardstick's 30 + 300 by default).
 */
export function selfCollisionScenes(warmup: number, steps: number): SelfCollisionScene[] {
  const window = `steps ${60 + warmup}–${60 + warmup + steps - 1}`;
  return [
    { name: 'hanging', what: `64² hanging from two corners, ${window}`, make: (e, on) => ({ world: cloth64(e, on, 'hanging') }), skip: 60 + warmup, steps },
    { name: 'draped', what: `64² over a ball, folding and settling, ${window}`, make: (e, on) => ({ world: cloth64(e, on, 'draped') }), skip: 60 + warmup, steps },
    { name: 'drop', what: '64² dropped onto a ball from 0.2 m above it, steps 0–89', make: (e, on) => ({ world: cloth64(e, on, 'draped') }), skip: 0, steps: 90 },
    { name: 'drag', what: 'a corner of the draped 64² dragged round a 5 cm circle, steps 300–419', make: dragged, skip: 300, steps: 120 },
    { name: 'episode15', what: 'Ten Minute Physics 15: 30 × 200, 1 cm, bend sticks, 6 kg, falling and piling up, frames 0–119', make: (e, on) => ({ world: episode15(e, on) }), skip: 0, steps: 120 },
  ];
}
