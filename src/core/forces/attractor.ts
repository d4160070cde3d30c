import { ATTRACTOR_DEFAULTS } from '../defaults.js';
import { checkNumber, component, toVec3, type Vec3, type Vec3Like } from '../math.js';
import { ParticleFlag } from '../particles.js';
import type { World } from '../world.js';
import type { Force } from './force.js';

/** What {@link Attractor} takes. */
export interface AttractorOptions {
  /** The point particles are pulled towards. */
  position: Vec3Like;
  /** Acceleration (m/s²) at the point; negative repels. */
  strength: number;
  /** Reach (m): the pull fades linearly to zero at this distance. Default Infinity: the same pull everywhere. */
  radius?: number;
}

/**
 * A point attractor: pulls every movable particle towards `position` with an
 * acceleration of `strength` m/s² (heavy and light alike, as gravity does), fading
 * linearly to zero at `radius`: a = strength · (1 − d / radius). Negative strength
 * pushes away. `position`, `strength` and `radius` can be changed at any time.
 *
 * @example
 * ```ts
 * const attractor = new Attractor({ position: [0, 1, 0], strength: 20, radius: 2 });
 * world.addForce(attractor);
 * attractor.position = [1, 1, 0]; // follow the pointer
 * ```
 */
export class Attractor implements Force {
  private readonly point: Vec3 = [0, 0, 0];
  // Initialised with numbers, not left undefined until the constructor runs: a field
  // that starts undefined stays tagged, and every later double stored in it is boxed.
  private strengthValue = 0;
  private radiusValue = Infinity;

  constructor(options: AttractorOptions) {
    if (!options || typeof options !== 'object') throw new TypeError(`Attractor: options must be an object, got ${String(options)}`);
    this.position = options.position;
    this.strengthValue = checkNumber(options.strength, 'Attractor: strength');
    this.radiusValue = checkRadius(options.radius ?? ATTRACTOR_DEFAULTS.radius, 'Attractor: radius');
  }

  /** The point of attraction. Assign a new vector to move it (the array returned is read-only). */
  get position(): Readonly<Vec3> {
    return this.point;
  }
  set position(p: Vec3Like) {
    // Read in place, calling toVec3 only to raise its error: a pointer-following attractor moves every frame.
    if (p === null || typeof p !== 'object' || (Array.isArray(p) && p.length !== 3)) toVec3(p, 'Attractor: position');
    const x = component(p, 0);
    const y = component(p, 1);
    const z = component(p, 2);
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) toVec3(p, 'Attractor: position');
    this.point[0] = x;
    this.point[1] = y;
    this.point[2] = z;
  }

  /** Acceleration at the point in m/s²; negative repels. */
  get strength(): number {
    return this.strengthValue;
  }
  set strength(s: number) {
    // Not `= checkNumber(s)`: a double returned from a call is boxed, and strength may be animated every frame.
    if (Number.isFinite(s)) this.strengthValue = s;
    else checkNumber(s, 'Attractor: strength');
  }

  /** Distance at which the pull has faded to zero (Infinity: no fading). */
  get radius(): number {
    return this.radiusValue;
  }
  set radius(r: number) {
    this.radiusValue = checkRadius(r, 'Attractor: radius');
  }

  /** Adds this substep's pull on every movable particle within reach to `world.particles.force`. */
  apply(world: World): void {
    const particles = world.particles;
    const pos = particles.position;
    const force = particles.force;
    const w = particles.inverseMass;
    const flags = particles.flags;
    const cx = this.point[0];
    const cy = this.point[1];
    const cz = this.point[2];
    const strength = this.strengthValue;
    const radius = this.radiusValue;
    const r2 = radius * radius;
    for (let i = 0, p = 0; i < particles.end; i++, p += 3) {
      const wi = w[i]!;
      if ((flags[i]! & ParticleFlag.Alive) === 0 || wi === 0) continue;
      const dx = cx - pos[p]!;
      const dy = cy - pos[p + 1]!;
      const dz = cz - pos[p + 2]!;
      const d2 = dx * dx + dy * dy + dz * dz;
      // At the point itself the direction is undefined, and the pull is balanced anyway.
      if (d2 === 0 || d2 >= r2) continue;
      const d = Math.sqrt(d2);
      const fade = radius === Infinity ? 1 : 1 - d / radius;
      // Force = m·a along the unit vector: strength·fade / (w·d) per component.
      const scale = (strength * fade) / (wi * d);
      force[p] = force[p]! + dx * scale;
      force[p + 1] = force[p + 1]! + dy * scale;
      force[p + 2] = force[p + 2]! + dz * scale;
    }
  }
}

function checkRadius(r: number, what: string): number {
  if (typeof r !== 'number' || Number.isNaN(r) || r <= 0) throw new RangeError(`${what} must be > 0 (Infinity = no fading), got ${String(r)}`);
  return r;
}
