import { particleSlot } from '../ids.js';
import { StickKindCode } from '../constraints/sticks.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';

/** The drag spring's natural frequency (Hz) for the held body's whole mass: a hand's pull, not a rod's. */
export const DRAG_FREQUENCY = 5;
/** The drag spring's damping ratio for the held body's whole mass. */
export const DRAG_DAMPING_RATIO = 0.5;
/** A drag pulls with at most this many times the held body's weight. */
export const DRAG_WEIGHTS = 2;
/** A drag pulls with at most what the held particle's sticks together take back within this share of stretch in one pass. */
export const DRAG_STRETCH = 0.01;
/** Gravity (m/s²) the weight limit takes at least, so that a body is draggable in a world without gravity. */
const STANDARD_GRAVITY = 9.81;

/** A drag spring's pin settings (see {@link dragSpring}), as `world.addPin` and `world.setPin` take them. */
export interface DragSpringSettings {
  /** m/N: 1 / the spring's stiffness. */
  compliance: number;
  /** N·s/m. */
  damping: number;
  /** N: the most the spring pulls with. */
  maxForce: number;
}

/**
 * The spring a drag or an IK handle holds `particle` by, chosen from its body's
 * mass and material so that a pull anywhere and at any speed cannot stretch
 * the body: a zero-length spring with a force limit, the settings of a
 * compliant pin (`world.addPin(particle, target, settings)`).
 *
 * - The spring is {@link DRAG_FREQUENCY} Hz for the body's movable mass M
 *   (k = M·ω², the whole body on the hand), damped at {@link DRAG_DAMPING_RATIO}
 *   of critical for the held particle of mass m on it (c = 2ζ·√(k·m)): its
 *   dashpot, which acts on the particle's own speed, does not eat the force
 *   limit while the particle follows the pointer.
 * - It pulls with at most the smaller of {@link DRAG_WEIGHTS} times the body's
 *   weight (M·g, g at least 9.81 m/s²), enough to lift and swing it, and what
 *   the particle's rigid sticks together take back within {@link DRAG_STRETCH}
 *   of stretch in one relaxation pass: a stick of rest length L between masses
 *   m₁ and m₂ moves them by their reduced mass's share of a stretch, which over
 *   a substep h is the force 0.01·L·m₁m₂/(m₁ + m₂)/h². A 0.5 g particle inside
 *   the README's cotton curtain (sticks 6 cm, 8.5 cm and 12 cm long) is pulled
 *   with at most 0.56 N, one on its hem 0.34 N, a default ragdoll's hand
 *   930 N (1.25 times its weight): the cloth's sticks win against the hand,
 *   and the held particle lags the pointer instead of tearing its neighbours
 *   away (the curtain's sticks stay within 6.5% pulled every way at 1.5 and
 *   20 m/s, where 1.5% let them reach 8% and 4% 13%; see docs/solver.md).
 *
 * Returns undefined for a particle of no body or an immovable one (there is
 * no body to size a spring by), and for one of a body that tears (a cloth with
 * a `tearStrain`: pulling it apart is what it is for): the caller holds it
 * rigidly.
 */
export function dragSpring(world: World, particle: number, out: DragSpringSettings = { compliance: 0, damping: 0, maxForce: 0 }): DragSpringSettings | undefined {
  const body = world.bodyOf(particle);
  if (body === undefined || body.tearStrain !== undefined) return undefined;
  const particles = world.particles;
  const slot = world.checkParticle(particle, 'dragSpring: particle');
  const own = ownInverseMass(world, slot);
  if (own === 0) return undefined;
  let mass = 0;
  for (let i = particleSlot(body.first); i < particleSlot(body.first) + body.count; i++) {
    if ((particles.flags[i]! & ParticleFlag.Alive) === 0) continue;
    const w = ownInverseMass(world, i);
    // Anchors hold the body up: the hand moves the rest.
    if (w > 0 && (i === slot || (particles.flags[i]! & ParticleFlag.Pinned) === 0)) mass += 1 / w;
  }
  const omega = 2 * Math.PI * DRAG_FREQUENCY;
  const gravity = world.gravity;
  const g = Math.max(Math.hypot(gravity[0]!, gravity[1]!, gravity[2]!), STANDARD_GRAVITY);
  const h = world.substep;
  let sticksCarry = 0;
  const sticks = world.sticks;
  for (let row = 0; row < sticks.count; row++) {
    const a = sticks.a[row]!;
    const b = sticks.b[row]!;
    if ((a !== slot && b !== slot) || sticks.compliance[row] !== 0 || sticks.kind[row] === StickKindCode.Min) continue;
    const other = particles.inverseMass[a === slot ? b : a]!;
    const carry = (DRAG_STRETCH * sticks.rest[row]! * sticks.stiffness[row]!) / (own + other) / (h * h);
    sticksCarry += carry;
  }
  // A particle held by no rigid stick (a soft body's, a ragdoll's hand on compliant links) is limited by the weight alone.
  if (sticksCarry === 0) sticksCarry = Infinity;
  const stiffness = mass * omega * omega;
  out.compliance = 1 / stiffness;
  out.damping = 2 * DRAG_DAMPING_RATIO * Math.sqrt(stiffness / own);
  out.maxForce = Math.min(DRAG_WEIGHTS * mass * g, sticksCarry);
  return out;
}

/** The inverse mass of the particle in `slot` of its own, also while a rigid pin holds it (0: immovable). */
export function ownInverseMass(world: World, slot: number): number {
  const particles = world.particles;
  return (particles.flags[slot]! & ParticleFlag.Pinned) !== 0 ? particles.freeInverseMass[slot]! : particles.inverseMass[slot]!;
}
