import type { ForceId } from '../ids.js';
import type { BodyRecord } from '../bodies/body.js';
import { WIND_DEFAULTS } from '../defaults.js';
import { checkNumber, toVec3, type Vec3, type Vec3Like } from '../math.js';
import type { World } from '../world.js';
import type { Force } from './force.js';

/** What {@link createWind} takes. */
export interface WindOptions {
  /** The wind's velocity w in m/s. */
  velocity: Vec3Like;
  /** Factor on the course notes' force (an air density, in kg/m³ if you like). Default 1. */
  coefficient?: number;
  /** Relative strength of gusts: the wind speed swings by up to ± this share. Default 0 (steady). */
  gust?: number;
  /** Gusts per second (the time scale of the gust noise), default 0.5. */
  gustFrequency?: number;
  /** Relative strength of turbulence: each triangle's wind deviates by up to this share of |w| per axis. Default 0. */
  turbulence?: number;
  /** Size of the turbulent eddies in m, default 1. */
  turbulenceScale?: number;
  /**
   * Seed of the gust and turbulence noise. Default: derived from the state of the
   * world's generator (its seed, until jitter draws from it) and the number of its
   * forces, without drawing from the generator, so adding
   * wind (or re-adding it, as React's StrictMode does) leaves the jitter stream alone.
   */
  seed?: number;
  /** The bodies it blows on; default every live body with a surface (cloth, plants, soft bodies). */
  bodies?: readonly BodyRecord[];
}

/**
 * Wind pressure on triangulated surfaces (course notes, "forces"): triangle
 * (p₀, p₁, p₂) with area vector A = ½ (p₁ - p₀) × (p₂ - p₀) feels
 * f = c · |A · w| · w / |w|, a third of it on each vertex. The force is largest
 * when the wind meets the surface head on and zero when it blows along it.
 * Gusts scale w over time and turbulence varies it in space, both from smooth
 * value noise seeded once: identical scenes get identical bits. Allocates
 * nothing per step. All fields may be changed live.
 */
export class Wind implements Force {
  // Numbers from the start (not undefined), so later stores of doubles are not boxed.
  private velocityValue: Vec3 = [0, 0, 0];
  private coefficientValue = 0;
  private gustValue = 0;
  private gustFrequencyValue = 0;
  private turbulenceValue = 0;
  private turbulenceScaleValue = 1;
  private seedValue = 0;
  private bodiesValue: readonly BodyRecord[] | undefined = undefined;
  /** Noise lattice query and answer: [x, y, z, value] (typed, so no double crosses a call). */
  private readonly query = new Float64Array(4);

  constructor(options: WindOptions, seed: number) {
    if (!options || typeof options !== 'object') throw new TypeError(`Wind: options must be an object, got ${String(options)}`);
    this.velocity = options.velocity;
    this.coefficient = options.coefficient ?? WIND_DEFAULTS.coefficient;
    this.gust = options.gust ?? WIND_DEFAULTS.gust;
    this.gustFrequency = options.gustFrequency ?? WIND_DEFAULTS.gustFrequency;
    this.turbulence = options.turbulence ?? WIND_DEFAULTS.turbulence;
    this.turbulenceScale = options.turbulenceScale ?? WIND_DEFAULTS.turbulenceScale;
    this.seed = seed;
    this.bodies = options.bodies;
  }

  /** Mean wind velocity (m/s); mutate in place, or assign finite `[x, y, z]` (anything else throws, naming it). */
  get velocity(): Vec3 {
    return this.velocityValue;
  }
  set velocity(v: Vec3Like) {
    this.velocityValue = toVec3(v, 'Wind: velocity');
  }

  /** See {@link WindOptions.coefficient} (>= 0). */
  get coefficient(): number {
    return this.coefficientValue;
  }
  set coefficient(c: number) {
    this.coefficientValue = checkNumber(c, 'Wind: coefficient', 0);
  }

  /** See {@link WindOptions.gust} (>= 0). */
  get gust(): number {
    return this.gustValue;
  }
  set gust(share: number) {
    this.gustValue = checkNumber(share, 'Wind: gust', 0);
  }

  /** See {@link WindOptions.gustFrequency} (Hz, >= 0). */
  get gustFrequency(): number {
    return this.gustFrequencyValue;
  }
  set gustFrequency(hz: number) {
    this.gustFrequencyValue = checkNumber(hz, 'Wind: gustFrequency', 0);
  }

  /** See {@link WindOptions.turbulence} (>= 0). */
  get turbulence(): number {
    return this.turbulenceValue;
  }
  set turbulence(share: number) {
    this.turbulenceValue = checkNumber(share, 'Wind: turbulence', 0);
  }

  /** See {@link WindOptions.turbulenceScale} (m, > 0). */
  get turbulenceScale(): number {
    return this.turbulenceScaleValue;
  }
  set turbulenceScale(m: number) {
    this.turbulenceScaleValue = checkNumber(m, 'Wind: turbulenceScale', Number.MIN_VALUE);
  }

  /** Seed of the noise (a finite number, taken as a 32-bit integer). */
  get seed(): number {
    return this.seedValue;
  }
  set seed(seed: number) {
    this.seedValue = checkNumber(seed, 'Wind: seed') | 0;
  }

  /** Bodies blown on (an array of body records), or undefined for every body with a surface. */
  get bodies(): readonly BodyRecord[] | undefined {
    return this.bodiesValue;
  }
  set bodies(bodies: readonly BodyRecord[] | undefined) {
    if (bodies !== undefined && !Array.isArray(bodies)) throw new TypeError(`Wind: bodies must be an array of body records, got ${String(bodies)}`);
    this.bodiesValue = bodies;
  }

  /** Adds this substep's wind force on every triangle of the target bodies to `world.particles.force`. */
  apply(world: World): void {
    const list = this.bodies ?? world.bodies;
    for (let b = 0; b < list.length; b++) {
      const body = list[b]!;
      if (body.alive && body.surface !== undefined) this.blowOn(world, body);
    }
  }

  /** Adds the wind force on every triangle of one body's surface. */
  private blowOn(world: World, body: BodyRecord): void {
    const surface = body.surface!;
    const tri = surface.triangles;
    const pos = world.particles.position;
    const force = world.particles.force;
    const q = this.query;
    // Four noise channels per seed (gust, x, y, z); 28 bits of seed keep 4·seed + 3
    // below 2³⁰, a small integer that V8 passes to the noise unboxed.
    const seed = (this.seed & 0xfffffff) * 4;
    // Gusts: the whole wind swings with smooth noise over time.
    q[0] = world.time * this.gustFrequency;
    q[1] = 0;
    q[2] = 0;
    valueNoise(q, seed);
    const strength = 1 + this.gust * q[3]!;
    const mx = this.velocity[0] * strength;
    const my = this.velocity[1] * strength;
    const mz = this.velocity[2] * strength;
    const speed = Math.sqrt(mx * mx + my * my + mz * mz);
    const eddy = this.turbulence * speed;
    const scale = 1 / this.turbulenceScale;
    const time = world.time;
    const third = this.coefficient / 3;
    for (let t = 0; t < surface.triangleCount * 3; t += 3) {
      const a = tri[t]! * 3;
      const b = tri[t + 1]! * 3;
      const c = tri[t + 2]! * 3;
      const ux = pos[b]! - pos[a]!;
      const uy = pos[b + 1]! - pos[a + 1]!;
      const uz = pos[b + 2]! - pos[a + 2]!;
      const vx = pos[c]! - pos[a]!;
      const vy = pos[c + 1]! - pos[a + 1]!;
      const vz = pos[c + 2]! - pos[a + 2]!;
      const ax = 0.5 * (uy * vz - uz * vy);
      const ay = 0.5 * (uz * vx - ux * vz);
      const az = 0.5 * (ux * vy - uy * vx);
      let wx = mx;
      let wy = my;
      let wz = mz;
      if (eddy !== 0) {
        // Frozen turbulence carried along by the mean wind: sample the noise at x - w·t.
        q[0] = ((pos[a]! + pos[b]! + pos[c]!) / 3 - mx * time) * scale;
        q[1] = ((pos[a + 1]! + pos[b + 1]! + pos[c + 1]!) / 3 - my * time) * scale;
        q[2] = ((pos[a + 2]! + pos[b + 2]! + pos[c + 2]!) / 3 - mz * time) * scale;
        valueNoise(q, seed + 1);
        wx += eddy * q[3]!;
        valueNoise(q, seed + 2);
        wy += eddy * q[3]!;
        valueNoise(q, seed + 3);
        wz += eddy * q[3]!;
      }
      const w2 = wx * wx + wy * wy + wz * wz;
      if (w2 === 0) continue;
      // f/3 = c/3 · |A·w| · w/|w|
      const f = (third * Math.abs(ax * wx + ay * wy + az * wz)) / Math.sqrt(w2);
      const fx = f * wx;
      const fy = f * wy;
      const fz = f * wz;
      force[a] = force[a]! + fx;
      force[a + 1] = force[a + 1]! + fy;
      force[a + 2] = force[a + 2]! + fz;
      force[b] = force[b]! + fx;
      force[b + 1] = force[b + 1]! + fy;
      force[b + 2] = force[b + 2]! + fz;
      force[c] = force[c]! + fx;
      force[c + 1] = force[c + 1]! + fy;
      force[c + 2] = force[c + 2]! + fz;
    }
  }
}

/** A {@link Wind} registered with the world, with `remove()` to stop it. */
export type WindHandle = Wind & {
  /** Its force id: `world.remove(wind.id)` stops it. */
  readonly id: ForceId;
  /** Stops the wind: `world.remove(wind.id)`. */
  remove(): void;
};

/**
 * Adds wind to the world: every substep it pushes on the triangles of cloth, plants
 * and soft bodies (or the `bodies` given) by the course notes' pressure formula.
 *
 * @example
 * ```ts
 * const world = new World();
 * createCloth(world, { width: 20, height: 20, spacing: 0.05, position: [0, 2, 0], pin: 'top', mass: 0.2 }); // 200 g
 * const wind = createWind(world, { velocity: [0, 0, 4], gust: 0.5, turbulence: 0.3 });
 * for (let i = 0; i < 60; i++) world.step(); // one second: the cloth billows towards +z
 * wind.velocity[2] = 0; // calm
 * ```
 */
export function createWind(world: World, options: WindOptions): WindHandle {
  const seed = options?.seed ?? Math.imul(world.random.state ^ (world.forces.length + 1), 0x9e3779b1) >>> 2;
  const wind = new Wind(options, seed);
  const id = world.addForce(wind);
  return Object.assign(wind, { id, remove: () => world.remove(id) });
}

/**
 * Smooth 3D value noise in [-1, 1): random values on the integer lattice, blended
 * with a smoothstep. Reads the point from q[0..2] and writes the value to q[3]:
 * doubles passed to or returned from a call V8 does not inline are boxed, an
 * allocation per call in the step loop.
 */
function valueNoise(q: Float64Array, seed: number): void {
  const fx = Math.floor(q[0]!);
  const fy = Math.floor(q[1]!);
  const fz = Math.floor(q[2]!);
  const rx = q[0]! - fx;
  const ry = q[1]! - fy;
  const rz = q[2]! - fz;
  // Smoothstep weights, written out: no double may cross a call here.
  const tx = rx * rx * (3 - 2 * rx);
  const ty = ry * ry * (3 - 2 * ry);
  const tz = rz * rz * (3 - 2 * rz);
  const x = fx | 0;
  const y = fy | 0;
  const z = fz | 0;
  const c000 = lattice(x, y, z, seed);
  const c100 = lattice(x + 1, y, z, seed);
  const c010 = lattice(x, y + 1, z, seed);
  const c110 = lattice(x + 1, y + 1, z, seed);
  const c001 = lattice(x, y, z + 1, seed);
  const c101 = lattice(x + 1, y, z + 1, seed);
  const c011 = lattice(x, y + 1, z + 1, seed);
  const c111 = lattice(x + 1, y + 1, z + 1, seed);
  const y0 = c000 + (c100 - c000) * tx + (c010 + (c110 - c010) * tx - c000 - (c100 - c000) * tx) * ty;
  const y1 = c001 + (c101 - c001) * tx + (c011 + (c111 - c011) * tx - c001 - (c101 - c001) * tx) * ty;
  q[3] = (y0 + (y1 - y0) * tz) / 0x20000000 - 1;
}

/** A hash of a lattice point: an integer in [0, 2³⁰), small enough to stay an unboxed small integer. */
function lattice(x: number, y: number, z: number, seed: number): number {
  let h = Math.imul(x, 0x27d4eb2d) ^ Math.imul(y, 0x165667b1) ^ Math.imul(z, 0x1b873593) ^ Math.imul(seed, 0x2545f491);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & 0x3fffffff;
}
