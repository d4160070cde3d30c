import { createCloth, createRagdoll, createRope, particleSlot, World, type StickKernel, type Vec3 } from '../../src/core/index.js';

/** The README's Getting-started curtain: 25 × 31 particles 0.06 m apart, its top row on seven hooks on a rail at 2 m, in and out by turns. */
export function gettingStartedCurtain(kernel: StickKernel): { world: World; first: number; count: number } {
  const world = new World({ kernel });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth = createCloth(world, { width: 25, height: 31, spacing: 0.06, corner: [-0.72, 2, 0] });
  [0, 4, 8, 12, 16, 20, 24].forEach((i, k) => world.addPin(cloth.first + i, [-0.54 + k * 0.18, 2, k % 2 ? 0.05 : -0.05]));
  return { world, first: cloth.first, count: cloth.count };
}

/** The README's Getting-started rope: 0.9 m in 12 segments from a pin at 1.9 m. */
export function gettingStartedRope(kernel: StickKernel): { world: World; first: number; count: number } {
  const world = new World({ kernel });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const rope = createRope(world, { from: [0.75, 1.9, 0], to: [0.75, 1.9, 0.9], segments: 12, pinStart: true });
  return { world, first: rope.first, count: rope.count };
}

/** A default ragdoll standing on a floor. */
export function standingRagdoll(kernel: StickKernel) {
  const world = new World({ kernel });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const doll = createRagdoll(world, { feet: [0, 0, 0] });
  return { world, doll };
}

/**
 * The worst stretch (share beyond rest) over the world's sticks among particles
 * `[first, first + count)` (ids of one body) that `only` passes (given slots; default all); sticks of kind 'min'
 * (which only push apart, longer than rest by design) are left out.
 */
export function worstStretch(world: World, first: number, count: number, only: (a: number, b: number) => boolean = () => true): number {
  const s = world.sticks;
  const p = world.particles.position;
  const start = particleSlot(first);
  let worst = 0;
  for (let row = 0; row < s.count; row++) {
    const a = s.a[row]!;
    const b = s.b[row]!;
    if (a < start || a >= start + count || b < start || b >= start + count || s.kind[row] === 1 || !only(a, b)) continue;
    const length = Math.hypot(p[b * 3]! - p[a * 3]!, p[b * 3 + 1]! - p[a * 3 + 1]!, p[b * 3 + 2]! - p[a * 3 + 2]!);
    worst = Math.max(worst, length / s.rest[row]! - 1);
  }
  return worst;
}

/** The fastest particle speed (m/s) among `[first, first + count)`. */
export function fastest(world: World, first: number, count: number): number {
  const v: Vec3 = [0, 0, 0];
  let most = 0;
  for (let i = first; i < first + count; i++) most = Math.max(most, Math.hypot(...world.getVelocity(i, v)));
  return most;
}
