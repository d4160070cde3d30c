import type { CallbackId } from '../ids.js';
import { FreePoint } from '../colliders/freePoint.js';
import { collisionReach } from '../collision/edges.js';
import { component, type Vec3, type Vec3Like } from '../math.js';
import type { World } from '../world.js';

/**
 * Moves a pin's target to a goal over the steps of the next frame instead of at
 * its first step. Input such as a pointer arrives once per frame, while a frame
 * at a low frame rate holds several steps: set at once, the whole move lands on
 * one step and tears what the pin holds. Gliding, the pin goes `1/n` of the way
 * at each of the frame's `n` steps (`World.frameStep` / `frameSteps`), so a pull
 * at 12 fps takes the path the same pull takes at 60 fps.
 *
 * Each step's target is also kept on the free side of the world's static
 * colliders (see {@link FreePoint}; `freeSide: false` turns that off): held under
 * the floor, a particle would be pushed out by the whole depth once let go, and
 * its neighbours dragged in with it.
 *
 * @example
 * ```ts
 * const pin = world.addPin(hand);
 * const glide = new PinGlide(world, pin);
 * glide.to([0.3, 1.5, 0]); // on every pointer move
 * world.advance(1 / 12); // five steps, 1/5 of the way each
 * glide.remove(); // before removing the pin
 * ```
 */
export class PinGlide {
  /** Where the pin is going. */
  private readonly goal: Vec3 = [0, 0, 0];
  /** The pin's target when the current frame began. */
  private readonly from: Vec3 = [0, 0, 0];
  private readonly target: Vec3 = [0, 0, 0];
  /** The target of the previous step: where a collider sweep starts. */
  private readonly last: Vec3 = [0, 0, 0];
  private readonly free: FreePoint | null;
  /** True from `to()` until the pin arrives: only then does the glide write the pin (and wake its body). */
  private moving = false;
  private readonly following: CallbackId;
  private removed = false;
  /** Its name among the world's features: where the glide is going and has got to is in snapshots. */
  private readonly feature: string;

  /** @param options.freeSide keep the target out of static colliders (default true). */
  constructor(
    readonly world: World,
    readonly pin: number,
    options: { freeSide?: boolean } = {},
  ) {
    const row = world.pinRow(pin);
    if (row < 0) throw new RangeError(`PinGlide: no pin with id ${String(pin)}`);
    const freeSide = options.freeSide ?? true;
    if (typeof freeSide !== 'boolean') throw new TypeError(`PinGlide: freeSide must be true or false, got ${String(freeSide)}`);
    this.free = freeSide ? new FreePoint() : null;
    for (let k = 0; k < 3; k++) this.goal[k] = this.from[k] = this.last[k] = world.pins.target[row * 3 + k]!;
    this.following = world.onBeforeStep(this.follow);
    this.feature = world.features.addInstance('pinGlide', this);
  }

  /** The glide's goal, where the frame began, the latest targets and whether it is still moving: a restored glide goes on as it did. */
  saveState(): Float64Array {
    return Float64Array.from([...this.goal, ...this.from, ...this.target, ...this.last, this.moving ? 1 : 0]);
  }

  /** Returns to {@link PinGlide.saveState}'s glide; without one (it began after the snapshot) it stays. */
  loadState(_world: World, data: unknown): void {
    if (data === undefined) return;
    if (!(data instanceof Float64Array) || data.length !== 13) throw new TypeError(`restore: the snapshot's pin glide state must be a Float64Array of 13 numbers, got ${String(data)}`);
    for (let k = 0; k < 3; k++) {
      this.goal[k] = data[k]!;
      this.from[k] = data[3 + k]!;
      this.target[k] = data[6 + k]!;
      this.last[k] = data[9 + k]!;
    }
    this.moving = data[12] === 1;
  }

  /** Sends the pin to `target`, over the steps of the next frame. Called per pointer move, so it copies nothing. */
  to(target: Vec3Like): void {
    if (typeof target !== 'object' || target === null) throw new TypeError(`PinGlide.to: target must be [x, y, z] or {x, y, z}, got ${String(target)}`);
    const x = component(target, 0);
    const y = component(target, 1);
    const z = component(target, 2);
    if (!Number.isFinite(x + y + z)) throw new RangeError(`PinGlide.to: target must be finite numbers, got [${x}, ${y}, ${z}]`);
    this.goal[0] = x;
    this.goal[1] = y;
    this.goal[2] = z;
    this.moving = true;
  }

  /** Stops gliding (the pin stays where it got to). Call it before removing the pin. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    this.world.remove(this.following);
    this.world.features.delete(this.feature);
  }

  /** Before every step: the pin's share of the way from where the frame began to the goal. */
  private readonly follow = (world: World): void => {
    // Arrived, or the pin went with its particle: leave the pin (and the body's sleep) alone.
    if (!this.moving || world.pinRow(this.pin) < 0) return;
    const share = (world.frameStep + 1) / world.frameSteps;
    for (let k = 0; k < 3; k++) this.target[k] = this.from[k]! + (this.goal[k]! - this.from[k]!) * share;
    if (this.free !== null) {
      const particle = world.pins.particle[world.pinRow(this.pin)]!;
      this.free.project(world, this.last, this.target, collisionReach(world, particle));
      for (let k = 0; k < 3; k++) this.last[k] = this.target[k]!;
    }
    world.setPinTarget(this.pin, this.target);
    if (share === 1) {
      for (let k = 0; k < 3; k++) this.from[k] = this.goal[k]!;
      this.moving = false;
    }
  };
}
