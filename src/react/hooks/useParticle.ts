import { useRef, useState } from 'react';
import { useLayoutEffect } from './effects.js';
import { PARTICLE_DEFAULTS } from '../../core/defaults.js';
import { particleSlot } from '../../core/ids.js';
import { checkNumber, type Vec3, type Vec3Like } from '../../core/math.js';
import { hit } from '../../core/motion/hit.js';
import type { World } from '../../core/world.js';
import { settleRange } from '../../three/positions.js';
import { useSinew } from '../context.js';
import { useLatest } from './useLatest.js';
import { useStableVec3 } from './useStableVec3.js';
import { buildOn } from '../../worker/builders.js';

/** Options of {@link useParticle}; the `<Particle>` props. */
export interface UseParticleOptions {
  /** Where the particle starts; changing it later teleports the particle (its velocity is kept). */
  position: Vec3Like;
  /** Initial velocity in m/s; changing it later sets the velocity. */
  velocity?: Vec3Like;
  /** kg; 0 or Infinity = immovable. Default 1. Changes live. */
  mass?: number;
  /** Collision radius in m. Default 0. Changes live. */
  radius?: number;
  /** Coulomb friction μ. Default 0.5. Changes live. */
  friction?: number;
  /** Bounciness against colliders in [0, 1] (the larger of this and the collider's applies). Default 0. Changes live. */
  restitution?: number;
  /** Registers the particle under this name in its `<World>`, for `<Stick a="name" />`. */
  name?: string;
}

/**
 * A stable handle on a particle a component owns. `id` is the core particle id
 * while the component is mounted and -1 otherwise; the methods act on it.
 */
export interface ParticleHandle {
  /** Particle id in the core world; -1 while the component is not mounted. */
  readonly id: number;
  /** The core world the particle lives in. */
  readonly world: World;
  /** Current position (not interpolated), written into `out` when given. */
  position(out?: Vec3): Vec3;
  /** Current velocity in m/s. */
  velocity(out?: Vec3): Vec3;
  /** Teleports the particle (velocity kept unless `keepVelocity: false`). */
  setPosition(position: Vec3Like, options?: { keepVelocity?: boolean }): void;
  /** Sets the velocity (m/s), keeping the position. */
  setVelocity(velocity: Vec3Like): void;
  /** Impulse in N·s. */
  applyImpulse(impulse: Vec3Like): void;
  /** A blow (the paper's section 7): moves the particle `strength` m along `direction`, which Verlet turns into velocity. */
  hit(direction: Vec3Like, strength: number): void;
}

/** @internal The handle's implementation; `id` is written by the hook that owns it. */
class LiveParticle implements ParticleHandle {
  id = -1;
  constructor(readonly world: World) {}
  position(out?: Vec3): Vec3 {
    return this.world.getPosition(this.id, out);
  }
  velocity(out?: Vec3): Vec3 {
    return this.world.getVelocity(this.id, out);
  }
  setPosition(position: Vec3Like, options?: { keepVelocity?: boolean }): void {
    this.world.setPosition(this.id, position, options);
  }
  setVelocity(velocity: Vec3Like): void {
    this.world.setVelocity(this.id, velocity);
  }
  applyImpulse(impulse: Vec3Like): void {
    this.world.applyImpulse(this.id, impulse);
  }
  hit(direction: Vec3Like, strength: number): void {
    buildOn(this.world, hit, this.world, this.id, direction, strength);
  }
}

/**
 * Adds a particle to the nearest `<World>` for as long as the calling component
 * is mounted. Mass, radius, friction and restitution change in place; the handle is stable.
 *
 * @example
 * ```tsx
 * function Bob() {
 *   const bob = useParticle({ position: [1, 2, 0], radius: 0.05 });
 *   useStick('anchor', bob);
 *   return null;
 * }
 * ```
 */
export function useParticle(options: UseParticleOptions): ParticleHandle {
  return useParticleAs('useParticle()', options);
}

/** @internal {@link useParticle} with errors that name `who` (the component using it). */
export function useParticleAs(who: string, options: UseParticleOptions): ParticleHandle {
  const { world, store, worker } = useSinew(who);
  if (!options || typeof options !== 'object') throw new TypeError(`${who}: options must be an object, got ${String(options)}`);
  const position = useStableVec3(options.position, `${who}: position`);
  if (!position) throw new TypeError(`${who}: position is required, got undefined`);
  const velocity = useStableVec3(options.velocity, `${who}: velocity`);
  const mass = checkMass(options.mass ?? PARTICLE_DEFAULTS.mass, who);
  const radius = checkNumber(options.radius ?? PARTICLE_DEFAULTS.radius, `${who}: radius`, 0);
  const friction = checkNumber(options.friction ?? PARTICLE_DEFAULTS.friction, `${who}: friction`, 0);
  const restitution = checkNumber(options.restitution ?? PARTICLE_DEFAULTS.restitution, `${who}: restitution`, 0, 1);
  const { name } = options;
  if (name !== undefined && (typeof name !== 'string' || name === '' || name.includes('.'))) {
    throw new TypeError(`${who}: name must be a non-empty string without ".", got ${JSON.stringify(name)}`);
  }

  const [handle] = useState(() => new LiveParticle(world));
  const latest = useLatest({ position, velocity, mass, radius, friction, restitution });
  // What the particle was last given, so that only real prop changes move it.
  const applied = useRef<{ position: Vec3; velocity: Vec3 | undefined }>({ position, velocity });

  useLayoutEffect(() => {
    const o = latest.current;
    const id = world.addParticle(o);
    settleRange(world, id, 1);
    handle.id = id;
    applied.current = { position: o.position, velocity: o.velocity };
    store.getState().touchRegistry();
    return () => {
      handle.id = -1;
      if (world.particles.slotOf(id) >= 0) world.removeParticle(id);
      store.getState().touchRegistry();
    };
  }, [world, store, handle, latest]);

  useLayoutEffect(() => (name === undefined ? undefined : store.getState().nameParticle(name, handle, who)), [store, handle, name, who]);

  useLayoutEffect(() => {
    if (handle.id < 0) return;
    if (applied.current.position !== position) world.setPosition(handle.id, position);
    if (velocity && applied.current.velocity !== velocity) world.setVelocity(handle.id, velocity);
    applied.current = { position, velocity };
  }, [world, handle, position, velocity]);

  useLayoutEffect(() => {
    if (handle.id < 0) return;
    world.setMass(handle.id, mass);
    // The columns are indexed by slot; the id carries its slot's generation once the slot is reused.
    const slot = particleSlot(handle.id);
    if (worker !== null) {
      // Writes into the columns reach only the shadow: the particle keeps what it was made with.
      const p = world.particles;
      if (p.radius[slot] !== radius || p.friction[slot] !== friction || p.restitution[slot] !== restitution)
        throw new Error(
          `${who}: radius, friction and restitution cannot change in a <World worker> once the particle is made (the worker's particle columns are not reachable from this thread); give the component a key that changes with them, to make a new particle`,
        );
      return;
    }
    world.particles.radius[slot] = radius;
    world.particles.friction[slot] = friction;
    world.particles.restitution[slot] = restitution;
  }, [world, worker, handle, mass, radius, friction, restitution, who]);

  return handle;
}

function checkMass(mass: number, who: string): number {
  if (typeof mass !== 'number' || Number.isNaN(mass) || mass < 0) throw new RangeError(`${who}: mass must be >= 0 (0 or Infinity = immovable), got ${String(mass)}`);
  return mass;
}
