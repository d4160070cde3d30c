import {
  addCapsuleEdge,
  createBox,
  createCloth,
  createRagdoll,
  createRope,
  quatFromAxisAngle,
  quatMultiply,
  SeededRandom,
  World,
  type ClothHandle,
  type StickKernel,
  type Vec3,
} from '../../src/core/index.js';
import { CrossingCheck, segmentProbes, type Probe } from './clothCrossing.js';

/*
 * The cloth-as-a-surface scenes: a cloth at the largest spacing the docs use
 * (0.1 m, `createCloth`'s default), every other cloth option at its default
 * (particles of radius 0, light cotton), pinned at its corners 1 m over a floor,
 * and one thing thrown at it: a limb (a ragdoll forearm's capsule), a box or a
 * rope, from 0.5 m away along a direction `angle` from straight down, at `speed`,
 * aimed at a seeded point near the middle and turned by a seeded amount.
 */

/** The cloth's spacing: the largest the docs use, and the default. */
export const SPACING = 0.1;
/** What is thrown: a forearm's capsule, a box, a rope, or a whole ragdoll lying face up. */
export type Thrown = 'limb' | 'box' | 'rope' | 'ragdoll';

/** One throw. */
export interface Throw {
  thrown: Thrown;
  /** Speed (m/s) at release, 0.5 m from the cloth. */
  speed: number;
  /** Angle (rad) of the throw from straight down, tilted towards +x. */
  angle: number;
  seed: number;
  kernel?: StickKernel;
  /** Width and height of the cloth in particles; default 20 (a 1.9 m square). */
  size?: number;
  spacing?: number;
  /** `createCloth`'s option; default true. */
  surfaceContacts?: boolean;
}

/** A built throw: the world, the cloth, the thrown thing's particles and the crossing check following it. */
export interface ThrowScene {
  world: World;
  cloth: ClothHandle;
  ids: number[];
  check: CrossingCheck;
}

/** Builds `t` (nothing stepped yet). */
export function throwScene(t: Throw): ThrowScene {
  const random = new SeededRandom(t.seed);
  const spacing = t.spacing ?? SPACING;
  const size = t.size ?? 20;
  const world = new World({ kernel: t.kernel });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const half = ((size - 1) * spacing) / 2;
  const cloth = createCloth(world, { width: size, height: size, spacing, corner: [-half, 1, -half], orientation: 'horizontal', pin: 'corners', surfaceContacts: t.surfaceContacts });
  // Aimed at a point up to 0.3 m from the middle, released 0.5 m back along the throw.
  const aim: Vec3 = [(random.next() - 0.5) * 0.6, 1, (random.next() - 0.5) * 0.6];
  const dir: Vec3 = [Math.sin(t.angle), -Math.cos(t.angle), 0];
  const centre: Vec3 = [aim[0] - dir[0] * 0.5, aim[1] - dir[1] * 0.5, aim[2]];
  const velocity: Vec3 = [dir[0] * t.speed, dir[1] * t.speed, 0];
  const turn = random.next() * Math.PI;
  const tilt = (random.next() - 0.5) * 0.6;
  // A horizontal unit direction turned by `turn`, tilted by `tilt` out of the horizontal.
  const along: Vec3 = [Math.cos(turn) * Math.cos(tilt), Math.sin(tilt), Math.sin(turn) * Math.cos(tilt)];
  let ids: number[];
  let probes: Probe[];
  if (t.thrown === 'limb') {
    // A forearm: 0.3 m long, of radius 0.045 (a default ragdoll's, 1.75 m tall), 1.5 kg.
    const first = world.addParticles([-0.15, 0.15].map((s) => ({ position: [centre[0] + along[0] * s, centre[1] + along[1] * s, centre[2] + along[2] * s] as Vec3, velocity, mass: 0.75 })));
    world.addBody(first, 2, { kind: 'limb' });
    world.addStick(first, first + 1);
    addCapsuleEdge(world, first, first + 1, 0.045);
    ids = [first, first + 1];
    probes = segmentProbes([[first, first + 1]], 6);
  } else if (t.thrown === 'box') {
    // Turned about the vertical, then tipped: it lands on an edge or a corner, not flat.
    const rotation = quatMultiply(quatFromAxisAngle([0, 1, 0], turn), quatFromAxisAngle([1, 0, 0], tilt * 2));
    const box = createBox(world, { size: 0.3, position: centre, rotation, velocity, mass: 3 });
    ids = [...box.vertices];
    const edges: [number, number][] = [];
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) edges.push([ids[i]!, ids[j]!]);
    // Every corner, and points along every edge and face diagonal.
    probes = segmentProbes(edges, 4);
  } else if (t.thrown === 'ragdoll') {
    // Lying face up along -z, its feet 0.8 m from the middle: its trunk lies across the aim.
    const doll = createRagdoll(world, { feet: [centre[0], centre[1], centre[2] + 0.8], rotation: quatFromAxisAngle([1, 0, 0], -Math.PI / 2), velocity });
    ids = [...doll.vertices];
    probes = segmentProbes(
      doll.limbs.map((limb) => [limb.from, limb.to] as const),
      4,
    );
  } else {
    // A 1 m rope of ten 0.1 m segments, every option at its default (particles of radius 0).
    const rope = createRope(world, {
      from: [centre[0] - along[0] * 0.5, centre[1] - along[1] * 0.5, centre[2] - along[2] * 0.5],
      to: [centre[0] + along[0] * 0.5, centre[1] + along[1] * 0.5, centre[2] + along[2] * 0.5],
      segments: 10,
    });
    ids = Array.from({ length: rope.count }, (_, k) => rope.first + k);
    for (const id of ids) world.setVelocity(id, velocity);
    probes = segmentProbes(
      ids.slice(1).map((id) => [id - 1, id] as const),
      4,
    );
  }
  return { world, cloth, ids, check: new CrossingCheck(world, cloth, probes) };
}

/** Runs `t` for `steps` steps (2 s by default); the crossings found and the world at the end. */
export function runThrow(t: Throw, steps = 120): ThrowScene {
  const scene = throwScene(t);
  for (let i = 0; i < steps; i++) {
    scene.world.step();
    scene.check.observe();
  }
  return scene;
}

/** The throws each test makes: still (dropped 0.5 m) to 8 m/s, straight down to 63° off it, two seeds each. */
export const THROWS: readonly { speed: number; angle: number; seed: number }[] = [0, 2, 4, 8].flatMap((speed) => [0, 0.5, 1.1].flatMap((angle) => [1, 2].map((seed) => ({ speed, angle, seed }))));

/**
 * What a matrix of throws found: the crossings at least `margin` inside the
 * cloth's edge (as it lies at rest), labelled; those nearer the edge; and
 * whether the two kernels agreed bit for bit on every throw.
 */
export interface ThrowReport {
  crossings: number;
  crossed: string[];
  nearEdge: number;
  sameBits: boolean;
}

/**
 * Runs the throws of {@link THROWS} of `thrown` with a seed in `seeds` on both stick kernels;
 * crossings within `margin` of the cloth's edge are counted apart.
 */
export function throwMatrix(thrown: Thrown, margin = 0, extra: Partial<Throw> = {}, seeds: readonly number[] = [1, 2]): ThrowReport {
  const report: ThrowReport = { crossings: 0, crossed: [], nearEdge: 0, sameBits: true };
  const inside = ((extra.size ?? 20) - 1) * (extra.spacing ?? SPACING) * 0.5 - margin;
  for (const t of THROWS) {
    if (!seeds.includes(t.seed)) continue;
    const js = runThrow({ ...t, ...extra, thrown, kernel: 'js' });
    const wasm = runThrow({ ...t, ...extra, thrown, kernel: 'wasm' });
    const a = js.world.particles.position;
    const b = wasm.world.particles.position;
    for (let k = 0; k < js.world.particleCount * 3; k++) if (!Object.is(a[k], b[k])) report.sameBits = false;
    for (const scene of [js, wasm]) {
      const steps: number[] = [];
      scene.check.where.forEach(([x, , z], k) => {
        if (Math.abs(x) < inside && Math.abs(z) < inside) steps.push(scene.check.at[k]!);
        else report.nearEdge++;
      });
      report.crossings += steps.length;
      if (steps.length > 0) report.crossed.push(`${t.speed} m/s at ${t.angle} rad, seed ${t.seed}: ${steps.length} at steps ${steps.slice(0, 4).join(', ')}`);
    }
  }
  return report;
}
