import { BUOYANCY_DEFAULTS } from '../defaults.js';
import { checkNumber } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import type { Force } from './force.js';

/** What {@link Buoyancy} takes. */
export interface BuoyancyOptions {
  /** Height of the water surface (m), measured against gravity: with the default gravity, the plane y = level. */
  level: number;
  /** Density of the liquid in kg/m³, default 1000 (water). */
  density?: number;
  /**
   * Drag of the liquid (1/s): a submerged particle loses velocity at this rate
   * times its submerged fraction, so floating things settle. Default 3, about what
   * water does to a 10 cm ball at walking pace; 0 = none.
   */
  drag?: number;
}

/**
 * Archimedes' buoyancy below a water surface (course notes): a force opposite to
 * gravity equal to the weight of the displaced liquid, ρ·V·|g|. A particle is a
 * sphere of its collision `radius`; the displaced volume is the part of that sphere
 * below the surface (a spherical cap), so a particle half as dense as the liquid
 * floats with its centre exactly at the surface, and one denser than the liquid
 * sinks at g·(1 − ρ_liquid / ρ_particle). Particles of radius 0 have no volume and
 * feel nothing. Properties can be changed at any time.
 *
 * @example
 * ```ts
 * world.addForce(new Buoyancy({ level: 0, density: 1000 }));
 * // 0.1 m ball of 2.09 kg: density 500 kg/m³, floats half submerged
 * world.addParticle({ position: [0, 1, 0], radius: 0.1, mass: 2.094 });
 * ```
 */
export class Buoyancy implements Force {
  // Fields start as numbers (not undefined) so that storing a double, e.g. a rising
  // water level every frame, does not box it.
  private levelValue = 0;
  private densityValue = 0;
  private dragValue = 0;

  constructor(options: BuoyancyOptions) {
    if (!options || typeof options !== 'object') throw new TypeError(`Buoyancy: options must be an object, got ${String(options)}`);
    this.level = checkNumber(options.level, 'Buoyancy: level');
    this.density = checkNumber(options.density ?? BUOYANCY_DEFAULTS.density, 'Buoyancy: density', 0);
    this.drag = checkNumber(options.drag ?? BUOYANCY_DEFAULTS.drag, 'Buoyancy: drag', 0);
  }

  /** Height of the surface (m) along the direction opposite to gravity; a finite number (anything else throws, naming it). */
  get level(): number {
    return this.levelValue;
  }
  set level(value: number) {
    this.levelValue = checkNumber(value, 'Buoyancy: level');
  }

  /** Liquid density (kg/m³, >= 0). */
  get density(): number {
    return this.densityValue;
  }
  set density(value: number) {
    this.densityValue = checkNumber(value, 'Buoyancy: density', 0);
  }

  /** Liquid drag (1/s, >= 0). */
  get drag(): number {
    return this.dragValue;
  }
  set drag(value: number) {
    this.dragValue = checkNumber(value, 'Buoyancy: drag', 0);
  }

  /** Adds this substep's buoyancy and drag on every submerged particle to `world.particles.force`. */
  apply(world: World): void {
    const gravity = world.gravity;
    const gx = gravity[0];
    const gy = gravity[1];
    const gz = gravity[2];
    const g = Math.sqrt(gx * gx + gy * gy + gz * gz);
    if (g === 0) return; // no weight, nothing displaced to weigh
    // Up is against gravity; heights are measured along it.
    const ux = -gx / g;
    const uy = -gy / g;
    const uz = -gz / g;
    const particles = world.particles;
    const pos = particles.position;
    const prev = particles.previous;
    const force = particles.force;
    const w = particles.inverseMass;
    const radius = particles.radius;
    const flags = particles.flags;
    const level = this.level;
    const lift = this.density * g;
    const drag = this.drag;
    const h = world.stepContext.h;
    for (let i = 0, p = 0; i < particles.end; i++, p += 3) {
      const wi = w[i]!;
      const r = radius[i]!;
      if ((flags[i]! & ParticleFlag.Alive) === 0 || wi === 0 || r === 0) continue;
      const x = pos[p]!;
      const y = pos[p + 1]!;
      const z = pos[p + 2]!;
      const bottom = x * ux + y * uy + z * uz - r;
      if (bottom >= level) continue;
      // Height of the submerged cap, clamped to the whole sphere.
      const cap = Math.min(level - bottom, 2 * r);
      const volume = (Math.PI * cap * cap * (3 * r - cap)) / 3;
      const fraction = volume / ((4 / 3) * Math.PI * r * r * r);
      const up = lift * volume;
      // Linear drag, -drag·m·v per submerged fraction, with v = (x - x*) / h.
      const slow = (drag * fraction) / (wi * h);
      force[p] = force[p]! + up * ux - slow * (x - prev[p]!);
      force[p + 1] = force[p + 1]! + up * uy - slow * (y - prev[p + 1]!);
      force[p + 2] = force[p + 2]! + up * uz - slow * (z - prev[p + 2]!);
    }
  }
}
