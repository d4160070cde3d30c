import type { Vec3 } from '../math.js';
import { ParticleFlag, ParticleStore } from '../particles.js';
import type { World } from '../world.js';

/** Collider passes per query: enough to settle a point pushed from one collider into another (a corner). */
const PASSES = 4;

/**
 * Keeps a point on the free side of a world's static colliders, exactly as a
 * particle of the same radius moving from one point to the next would be kept:
 * each collider projects a one-particle probe, so every collider kind (and any
 * collider of your own) answers the way it answers for particles, the one-sided,
 * swept triangle mesh included. Pin targets go through it (`PinGlide`), so a pointer
 * dragged below the floor holds its particle on the floor instead of under it,
 * where letting go would leave the whole depth to be pushed out.
 *
 * @example
 * ```ts
 * const free = new FreePoint();
 * const target: Vec3 = [0, -0.5, 0];
 * free.project(world, [0, 0.2, 0], target, 0.05); // target is now [0, 0.05, 0] above a floor at y = 0
 * ```
 */
export class FreePoint {
  private readonly probe = new ParticleStore(1);

  constructor() {
    this.probe.allocate(1);
    this.probe.flags[0] = ParticleFlag.Alive;
    this.probe.inverseMass[0] = 1;
    // A probe is a query, not a body: friction would pull the answer back toward `from`.
    this.probe.friction[0] = 0;
  }

  /**
   * Moves `point` (in place) out of every static collider of `world`, treating
   * it as a particle of `radius` that came from `from` (which a one-sided
   * triangle needs to tell front from back). Allocates nothing.
   */
  project(world: World, from: Vec3, point: Vec3, radius: number): void {
    const probe = this.probe;
    const colliders = world.colliders;
    if (colliders.length === 0) return;
    for (let k = 0; k < 3; k++) {
      probe.previous[k] = from[k]!;
      probe.position[k] = point[k]!;
    }
    probe.radius[0] = radius;
    for (let pass = 0; pass < PASSES; pass++) for (let c = 0; c < colliders.length; c++) colliders[c]!.project(probe, 0, 1);
    for (let k = 0; k < 3; k++) point[k] = probe.position[k]!;
    // What the colliders recorded for friction is of no use here: forget it so that it cannot pile up.
    probe.contactDepth[0] = 0;
    probe.contactPush.fill(0);
  }
}
