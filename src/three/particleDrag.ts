import type { Vec3 } from '../core/math.js';
import { BodyDrag, limitBodySpeed } from '../core/motion/bodyDrag.js';
import type { World } from '../core/world.js';
import { buildOn, makeOn } from '../worker/builders.js';

/** A point or direction as three.js has them (a `Vector3` qualifies). */
interface XYZ {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** Pointer samples kept for the release velocity. */
const SAMPLES = 8;
/** The release velocity is the pointer's mean velocity over this many seconds before release. */
const WINDOW = 0.1;

/**
 * Drags one particle at a time (the Hitman "drag the corpse by the hand"): the
 * grabbed particle is pinned, the pin follows the pointer's ray across a plane
 * through the grab point facing the camera, and on release the pin goes and the
 * particle keeps the pointer's recent velocity, so a flick throws it. Knows
 * nothing about the DOM; `<DragControls>` feeds it rays.
 *
 * A particle of a body is held by a spring with a force limit chosen from the
 * body's mass and sticks, its target kept within the body's reach of its pins
 * (a `BodyDrag`): a cloth or rope pulled anywhere at any speed stays within
 * 10% of its rest length, and on release no particle of the body leaves faster
 * than the pointer moved. A particle of no body is pinned rigidly.
 *
 * The pointer moves once per frame, the world several steps per frame when the
 * frame rate is low; the pin walks to the pointer in equal parts over the
 * frame's steps (a `PinGlide`), so a pull at 10 fps stretches a cloth no
 * more than the same pull at 60 fps.
 *
 * @example
 * ```ts
 * const drag = new ParticleDrag(world);
 * drag.grab(id, cameraDirection, event.timeStamp / 1000);
 * drag.drag(ray.origin, ray.direction, event.timeStamp / 1000); // on every move
 * drag.release(event.timeStamp / 1000); // thrown with the pointer's velocity
 * ```
 */
export class ParticleDrag {
  /** The grabbed particle, -1 when nothing is held. */
  particle = -1;
  /** The pin holding it, -1 when nothing is held. */
  pin = -1;
  /** Velocity given at the latest release (m/s). */
  readonly releaseVelocity: Vec3 = [0, 0, 0];
  private readonly normal: Vec3 = [0, 0, 1];
  private readonly point: Vec3 = [0, 0, 0];
  /** Where the pointer's ray meets the drag plane. */
  private readonly goal: Vec3 = [0, 0, 0];
  /** Holds the particle by its body and walks the pin to the pointer over the steps of each frame. */
  private hold: BodyDrag | null = null;
  private readonly samples = new Float64Array(SAMPLES * 4);
  private sampleCount = 0;
  private newest = -1;

  constructor(readonly world: World) {}

  /** True while a particle is held (and still exists). */
  get active(): boolean {
    if (this.pin >= 0 && !this.world.hasConstraint(this.pin)) this.forget();
    return this.pin >= 0;
  }

  /**
   * Grabs particle `id`: pins it where it is, on a plane through it with normal
   * `facing` (the camera's viewing direction, unit length). `time` in seconds.
   */
  grab(id: number, facing: XYZ, time: number): void {
    this.cancel();
    this.world.getPosition(id, this.point);
    this.normal[0] = facing.x;
    this.normal[1] = facing.y;
    this.normal[2] = facing.z;
    this.pin = this.world.addPin(id, this.point);
    this.particle = id;
    this.hold = makeOn(this.world, BodyDrag, this.world, this.pin);
    this.sampleCount = 0;
    this.record(time, this.point);
  }

  /**
   * Sends the pin to where the ray from `origin` along `direction` meets the
   * drag plane, over the steps of the next frame. Returns false (and leaves the
   * pin) when the ray runs parallel to the plane or points away from it.
   */
  drag(origin: XYZ, direction: XYZ, time: number): boolean {
    if (!this.active) return false;
    const n = this.normal;
    const denominator = n[0] * direction.x + n[1] * direction.y + n[2] * direction.z;
    if (Math.abs(denominator) < 1e-9) return false;
    const t = (n[0] * (this.point[0] - origin.x) + n[1] * (this.point[1] - origin.y) + n[2] * (this.point[2] - origin.z)) / denominator;
    if (t < 0) return false;
    this.goal[0] = origin.x + direction.x * t;
    this.goal[1] = origin.y + direction.y * t;
    this.goal[2] = origin.z + direction.z * t;
    this.hold!.to(this.goal);
    this.record(time, this.goal);
    return true;
  }

  /**
   * Lets go: removes the pin and gives the particle the pointer's velocity over
   * the last 0.1 s; no other particle of its body keeps a speed above that
   * velocity's. Returns that velocity.
   */
  release(time: number): Vec3 {
    const v = this.releaseVelocity;
    v[0] = v[1] = v[2] = 0;
    if (!this.active) return v;
    this.estimateVelocity(time, v);
    const id = this.particle;
    this.world.removeConstraint(this.pin);
    this.forget();
    this.world.setVelocity(id, v);
    buildOn(this.world, limitBodySpeed, this.world, id, Math.hypot(v[0], v[1], v[2]));
    return v;
  }

  /** Lets go without throwing: the particle keeps whatever velocity the pin gave it. */
  cancel(): void {
    this.releaseVelocity[0] = this.releaseVelocity[1] = this.releaseVelocity[2] = 0;
    if (this.active) this.world.removeConstraint(this.pin);
    this.forget();
  }

  private forget(): void {
    this.pin = -1;
    this.particle = -1;
    this.hold?.end();
    this.hold = null;
  }

  private record(time: number, p: Vec3): void {
    this.newest = (this.newest + 1) % SAMPLES;
    const k = this.newest * 4;
    this.samples[k] = time;
    this.samples[k + 1] = p[0];
    this.samples[k + 2] = p[1];
    this.samples[k + 3] = p[2];
    if (this.sampleCount < SAMPLES) this.sampleCount++;
  }

  private estimateVelocity(time: number, out: Vec3): void {
    const s = this.samples;
    const newest = this.newest * 4;
    // The pointer rested before letting go: nothing to throw with.
    if (this.sampleCount < 2 || time - s[newest]! > WINDOW) return;
    let oldest = newest;
    for (let back = 1; back < this.sampleCount; back++) {
      const k = ((this.newest - back + SAMPLES) % SAMPLES) * 4;
      if (s[newest]! - s[k]! > WINDOW) break;
      oldest = k;
    }
    const dt = s[newest]! - s[oldest]!;
    if (dt <= 0) return;
    for (let c = 0; c < 3; c++) out[c] = (s[newest + 1 + c]! - s[oldest + 1 + c]!) / dt;
  }
}
