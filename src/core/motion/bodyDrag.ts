import type { BodyRecord } from '../bodies/body.js';
import type { FeatureKind, WorldFeature } from '../features.js';
import type { CallbackId, ParticleId } from '../ids.js';
import type { Vec3, Vec3Like } from '../math.js';
import type { World } from '../world.js';
import { BodyReach } from './bodyReach.js';
import { dragSpring, type DragSpringSettings } from './dragSpring.js';
import { PinGlide } from './pinGlide.js';
import { RELEASE_LIMITS } from './releaseLimits.js';

/** A held body gets at least this many relaxation passes per substep while held: its sticks pass the hand's pull on within a step. */
export const HELD_PASSES = 4;

/** Per held body of a world: how many holds it has and its own iteration count, given back when the last hold ends (two IK handles on one ragdoll). */
class Holds implements WorldFeature {
  readonly byBody = new Map<BodyRecord, { count: number; iterations: number | undefined }>();

  /** A removed body is held no more. */
  bodyRemoved(_world: World, body: BodyRecord): void {
    this.byBody.delete(body);
  }
}

/** The world's held bodies as a feature of it (see `World.features`). */
const HOLDS: FeatureKind<Holds> = { name: 'heldBodies', create: () => new Holds() };

/**
 * Holds a pin's particle the way a hand holds a body: for a particle of a body
 * the pin becomes a spring with a force limit ({@link dragSpring}: chosen from
 * the body's mass and its sticks), its target is kept within the body's reach
 * of its anchors ({@link BodyReach}), and the body gets at least
 * {@link HELD_PASSES} relaxation passes while held. Pulled anywhere, at any
 * speed, a cloth or rope then lags the pointer rather than stretch (measured
 * on the README's curtain and rope: under 10% beyond rest), and a ragdoll's
 * bones keep their lengths within 2% whatever an IK handle asks of the hand.
 * A particle of no body is held rigidly, as a plain pin holds it.
 *
 * The target walks to each goal over the steps of a frame (a {@link PinGlide}).
 * The pin belongs to the caller: {@link BodyDrag.end} gives the body back its
 * passes and stops following, and leaves the pin; on letting go, remove the
 * pin and call {@link limitBodySpeed} with the pointer's speed, so that
 * nothing leaves faster than the pointer moved (`ParticleDrag.release` does both).
 *
 * @example
 * ```ts
 * const pin = world.addPin(id);
 * const drag = new BodyDrag(world, pin);
 * drag.to([0.3, 1.5, 0]); // on every pointer move
 * world.advance(1 / 60);
 * drag.end();
 * world.removeConstraint(pin);
 * limitBodySpeed(world, id, pointerSpeed);
 * ```
 */
export class BodyDrag {
  /** The held particle's id. */
  readonly particle: ParticleId;
  /** Its body, or undefined (then the pin stays rigid). */
  readonly body: BodyRecord | undefined;
  /** The spring's settings, or undefined when the particle is held rigidly. */
  readonly spring: DragSpringSettings | undefined;
  private readonly glide: PinGlide;
  private readonly reach: BodyReach | undefined;
  private readonly clamping: CallbackId | undefined;
  private readonly target: Vec3 = [0, 0, 0];
  private ended = false;

  /** @param options.freeSide keep the target out of static colliders (default true, see {@link PinGlide}). */
  constructor(
    readonly world: World,
    readonly pin: number,
    options: { freeSide?: boolean } = {},
  ) {
    const row = world.pinRow(pin);
    if (row < 0) throw new RangeError(`BodyDrag: no pin with id ${String(pin)}`);
    const slot = world.pins.particle[row]!;
    this.particle = world.particles.idOf(slot);
    this.spring = dragSpring(world, this.particle);
    this.body = this.spring === undefined ? undefined : world.bodyAt(slot);
    if (this.spring !== undefined && this.body !== undefined) {
      world.setPin(pin, this.spring);
      this.reach = new BodyReach(world, this.particle);
      const holds = world.features.of(HOLDS).byBody;
      const held = holds.get(this.body);
      if (held === undefined) holds.set(this.body, { count: 1, iterations: this.body.iterations });
      else held.count++;
      this.body.iterations = Math.max(this.body.iterations ?? world.iterations, HELD_PASSES);
    }
    // The glide writes each step's target first; the reach clamps it after.
    this.glide = new PinGlide(world, pin, options);
    if (this.reach !== undefined && this.reach.anchors.length > 0) this.clamping = world.onBeforeStep(this.clamp);
  }

  /** Sends the pin toward `target` over the steps of the next frame (within the body's reach). */
  to(target: Vec3Like): void {
    this.glide.to(target);
  }

  /** Stops following and gives the body back its own passes; the pin stays, the caller's to remove. Safe to call twice. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.glide.remove();
    if (this.clamping !== undefined) this.world.remove(this.clamping);
    const holds = this.world.features.get(HOLDS)?.byBody;
    const held = this.body === undefined ? undefined : holds?.get(this.body);
    if (held === undefined || --held.count > 0) return;
    holds!.delete(this.body!);
    if (this.body!.alive) this.body!.iterations = held.iterations;
  }

  /** Before every step, after the glide: the target within the body's reach of its anchors. */
  private readonly clamp = (world: World): void => {
    const row = world.pinRow(this.pin);
    if (row < 0) return;
    const t = world.pins.target;
    const target = this.target;
    for (let k = 0; k < 3; k++) target[k] = t[row * 3 + k]!;
    this.reach!.clamp(world, target);
    for (let k = 0; k < 3; k++) t[row * 3 + k] = target[k]!;
  };
}

/** After a release, the body's speeds stay limited for this many steps: long enough for the passes to take back what the drag stretched. */
export const RELEASE_STEPS = 12;

/**
 * Lets no particle of `particle`'s body leave faster than `speed` (m/s), now
 * and over the next {@link RELEASE_STEPS} steps, than `speed` plus what
 * gravity has added since: each faster particle keeps its direction at that
 * speed. Called when a drag lets go with the pointer's speed, it keeps a body
 * from leaving faster than the hand moved (no slingshot): the few percent a
 * held cloth was stretched would otherwise spring back as speed in the
 * passes after the release (a curtain let go at 4 m/s had a particle at
 * 4.9 m/s a step later). It only takes energy away. Does nothing for a
 * particle of no body. A snapshot taken meanwhile repeats the rest of the release.
 */
export function limitBodySpeed(world: World, particle: number, speed: number, steps = RELEASE_STEPS): void {
  const body = world.bodyOf(particle);
  if (body === undefined) return;
  const gravity = world.gravity;
  world.features.of(RELEASE_LIMITS).add(world, body, speed, Math.hypot(gravity[0]!, gravity[1]!, gravity[2]!), steps);
}
