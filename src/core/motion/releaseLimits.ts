import type { BodyRecord } from '../bodies/body.js';
import type { FeatureKind, WorldFeature } from '../features.js';
import { particleSlot } from '../ids.js';
import type { World } from '../world.js';

/** One body let go: the speed its particles may leave at, gravity's pull (m/s²) then, and the steps done of the steps it is watched for. */
interface Release {
  body: BodyRecord;
  speed: number;
  fall: number;
  step: number;
  steps: number;
}

/** What a snapshot keeps of one release: its body by serial, and its numbers. */
interface SavedRelease {
  body: number;
  speed: number;
  fall: number;
  step: number;
  steps: number;
}

/**
 * The bodies let go by a drag whose speed is still limited (see
 * `limitBodySpeed`): after each step, every particle of each body faster than
 * its release speed plus what gravity added since keeps its direction at that
 * speed, for the release's steps. A feature of the world, so a snapshot taken
 * while a body is let go repeats the rest of the release. Its after-step
 * callback is in the world's list while a release is watched, without an id
 * from the world's registry: the ids a world hands out then do not depend on
 * which steps ran (a RemoteWorld's shadow, which never steps, hands out the
 * same ids as its worker).
 */
class ReleaseLimits implements WorldFeature {
  private readonly active: Release[] = [];
  private listening = false;

  /** Limits `body`'s speed to `speed` (m/s) now and over the next `steps` steps. */
  add(world: World, body: BodyRecord, speed: number, fall: number, steps: number): void {
    limitSpeeds(world, body, speed);
    this.active.push({ body, speed, fall, step: 0, steps });
    this.listen(world);
  }

  saveState(): SavedRelease[] {
    return this.active.map((r) => ({ body: r.body.serial, speed: r.speed, fall: r.fall, step: r.step, steps: r.steps }));
  }

  loadState(world: World, data: unknown): void {
    this.active.length = 0;
    for (const saved of Array.isArray(data) ? (data as SavedRelease[]) : []) {
      const body = world.bodies.find((b) => b.alive && b.serial === saved.body);
      if (body !== undefined) this.active.push({ ...saved, body });
    }
    this.listen(world);
  }

  bodyRemoved(world: World, body: BodyRecord): void {
    this.keep((r) => r.body !== body);
    this.listen(world);
  }

  dispose(world: World): void {
    this.active.length = 0;
    this.listen(world);
  }

  /** Registers the after-step callback while a release is watched, and takes it away when none is. */
  private listen(world: World): void {
    if (this.active.length > 0 && !this.listening) {
      world.lists.subscribe(world.afterStep, this.afterStep, 'releaseLimits');
      this.listening = true;
    } else if (this.active.length === 0 && this.listening) {
      world.lists.unsubscribe(world.afterStep, this.afterStep);
      this.listening = false;
    }
  }

  /** Keeps the releases `wanted` says yes to, in order, without allocating. */
  private keep(wanted: (release: Release) => boolean): void {
    let kept = 0;
    for (let k = 0; k < this.active.length; k++) if (wanted(this.active[k]!)) this.active[kept++] = this.active[k]!;
    this.active.length = kept;
  }

  private readonly afterStep = (world: World): void => {
    for (let k = 0; k < this.active.length; k++) {
      const r = this.active[k]!;
      r.step++;
      if (r.body.alive) limitSpeeds(world, r.body, r.speed + r.fall * world.timeStep * r.step);
    }
    this.keep(isWatched);
    this.listen(world);
  };
}

function isWatched(release: Release): boolean {
  return release.step < release.steps && release.body.alive;
}

/** The world's releases (made on first use). */
export const RELEASE_LIMITS: FeatureKind<ReleaseLimits> = { name: 'releaseLimits', create: () => new ReleaseLimits() };

/** Each particle of `body` faster than `speed` (m/s) keeps its direction at that speed. */
function limitSpeeds(world: World, body: BodyRecord, speed: number): void {
  const pos = world.particles.position;
  const prev = world.particles.previous;
  const w = world.particles.inverseMass;
  const most = speed * world.substep;
  for (let i = particleSlot(body.first); i < particleSlot(body.first) + body.count; i++) {
    if (w[i] === 0) continue;
    const p = i * 3;
    const dx = pos[p]! - prev[p]!;
    const dy = pos[p + 1]! - prev[p + 1]!;
    const dz = pos[p + 2]! - prev[p + 2]!;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (d <= most) continue;
    const s = most / d;
    prev[p] = pos[p]! - dx * s;
    prev[p + 1] = pos[p + 1]! - dy * s;
    prev[p + 2] = pos[p + 2]! - dz * s;
  }
}
