import type { World } from '../../src/core/index.js';

/*
 * How the energy audit (energy.test.ts) measures energy.
 *
 * Between steps the world keeps, per particle, the position x_n after the last
 * substep and x_{n-1} after the one before (`previous`). Verlet's velocity is the
 * substep's displacement over the substep length h = timeStep / substeps, and it
 * belongs to the middle of the substep: v = (x_n - x_{n-1}) / h is v_{n-1/2}. So
 * the kinetic energy ½·m·|v_{n-1/2}|² is paired with the potential energy at the
 * same instant, at the midpoint (x_n + x_{n-1}) / 2.
 *
 * Why not ½·m·|v_{n-1/2}|² with the potential at x_n? That is off by m·g·v_y·h/2,
 * an error that swings with the motion: for the swinging chain at 1 substep of
 * 1/60 s it reached 2.2% of the starting energy (0.2% at 10 substeps), as large
 * as the bound under test and no gain of the engine.
 *
 * Why not the centred velocity (x_{n+1} - x_{n-1}) / 2h at x_n? It is as
 * accurate (second order) but needs x_{n+1}, the position after the next
 * substep's projection, which exists only inside the solver: reading it would
 * mean hooking every substep. The midpoint pairing reads the state exactly as the
 * world keeps it between steps, and under uniform gravity alone it is Verlet's
 * exactly conserved energy: ½|v_{n-1/2}|² - g·(x_n + x_{n-1})/2 is the same at
 * every substep of a free fall, so any change it shows comes from the
 * constraints. Either measure differs from the continuous energy by O(h²) terms
 * that stay put while the motion does (a body turning by θ per substep moves
 * along chords, so |v| reads θ²/24 short): an offset, not a drift.
 *
 * Immovable particles (inverse mass 0, pinned ones included) carry no energy.
 */

/** Energies (J) and angular momentum of a set of particles, measured as described above. */
export interface Energies {
  /** ½ Σ m |v|², v the latest substep's velocity. */
  kinetic: number;
  /** Σ m·(-g·x) at the substep's midpoint, each particle counted from its floor (see {@link measureEnergy}). */
  potential: number;
  /** Kinetic energy of the motion relative to the centre of mass: all that the constraints can change in a free fall. */
  internal: number;
  /** Angular momentum about the centre of mass, Σ m (x - c) × v with x and c at the midpoint (kg·m²/s). */
  angularMomentum: [number, number, number];
}

/**
 * Measures the particles `ids`. `floors[i]`, if given, is the lowest potential
 * energy per unit mass that particle `ids[i]` can reach (-g·x at its lowest
 * point), so that `potential` counts from there; without it, from the origin.
 */
export function measureEnergy(world: World, ids: readonly number[], floors?: Float64Array): Energies {
  const pos = world.particles.position;
  const prev = world.particles.previous;
  const w = world.particles.inverseMass;
  const g = world.gravity;
  const h = world.substep;
  let kinetic = 0;
  let potential = 0;
  let mass = 0;
  const centre = [0, 0, 0];
  const velocity = [0, 0, 0];
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (w[id] === 0) continue;
    const m = 1 / w[id]!;
    mass += m;
    let speed2 = 0;
    let height = 0;
    for (let k = 0; k < 3; k++) {
      const v = (pos[id * 3 + k]! - prev[id * 3 + k]!) / h;
      const mid = (pos[id * 3 + k]! + prev[id * 3 + k]!) / 2;
      speed2 += v * v;
      height -= g[k]! * mid;
      centre[k] = centre[k]! + m * mid;
      velocity[k] = velocity[k]! + m * v;
    }
    kinetic += 0.5 * m * speed2;
    potential += m * (height - (floors?.[i] ?? 0));
  }
  const angularMomentum: [number, number, number] = [0, 0, 0];
  if (mass === 0) return { kinetic, potential, internal: 0, angularMomentum };
  for (let k = 0; k < 3; k++) {
    centre[k] = centre[k]! / mass;
    velocity[k] = velocity[k]! / mass;
  }
  let internal = 0;
  for (const id of ids) {
    if (w[id] === 0) continue;
    const m = 1 / w[id]!;
    const r = [0, 0, 0];
    const u = [0, 0, 0];
    for (let k = 0; k < 3; k++) {
      r[k] = (pos[id * 3 + k]! + prev[id * 3 + k]!) / 2 - centre[k]!;
      u[k] = (pos[id * 3 + k]! - prev[id * 3 + k]!) / h - velocity[k]!;
    }
    internal += 0.5 * m * (u[0]! * u[0]! + u[1]! * u[1]! + u[2]! * u[2]!);
    angularMomentum[0] += m * (r[1]! * u[2]! - r[2]! * u[1]!);
    angularMomentum[1] += m * (r[2]! * u[0]! - r[0]! * u[2]!);
    angularMomentum[2] += m * (r[0]! * u[1]! - r[1]! * u[0]!);
  }
  return { kinetic, potential, internal, angularMomentum };
}

/**
 * Floors for particles hanging from the fixed point `pivot`: no particle can get
 * farther below the pivot than its distance from it in the rest shape (for a
 * chain, along the links; for a cloth, whose squares are held rigid by their
 * diagonals and fold only along grid lines, across the flat sheet). Call it
 * before the first step, with the body still in its rest shape.
 */
export function hangingFloors(world: World, ids: readonly number[], pivot: readonly [number, number, number]): Float64Array {
  const g = world.gravity;
  const gn = Math.hypot(g[0], g[1], g[2]);
  const pos = world.particles.position;
  const pivotPotential = -(g[0] * pivot[0] + g[1] * pivot[1] + g[2] * pivot[2]);
  return Float64Array.from(ids, (id) => pivotPotential - gn * Math.hypot(pos[id * 3]! - pivot[0], pos[id * 3 + 1]! - pivot[1], pos[id * 3 + 2]! - pivot[2]));
}

/** What {@link auditEnergy} found; energies as fractions of the run's energy scale. */
export interface EnergyAudit {
  /** Largest (E - E₀) / scale after any step; ≤ 0 when the energy never rose above its start. */
  maxGain: number;
  /** Largest (E₀ - E) / scale after any step. */
  maxLoss: number;
  /** Largest (E - lowest E so far) / scale: a gain after a loss, which `maxGain` would not see. */
  maxRise: number;
  /** The energy scale (J) the fractions refer to. */
  scale: number;
  /** Largest |L| / |L₀| - 1 of the angular momentum about the centre of mass. */
  angularMomentumGrowth: number;
  /** |L| / |L₀| at the end. */
  angularMomentumKept: number;
}

/**
 * Steps `world` for `seconds` and compares the total energy (kinetic + potential
 * from `floors`) of `ids` after every step with its start. `scale` is what the
 * changes are divided by: `'total'`, the starting total energy (meaningful when
 * the floors are the lowest the system can reach, so that the total is what the
 * motion has to spend); `'internal'`, the starting kinetic energy relative to the
 * centre of mass (for a free body: the centre of mass's own energy is fixed by its
 * parabola, only the rest is the constraints' to change).
 */
export function auditEnergy(world: World, ids: readonly number[], seconds: number, scale: 'total' | 'internal', floors?: Float64Array): EnergyAudit {
  const start = measureEnergy(world, ids, floors);
  const e0 = start.kinetic + start.potential;
  const reference = scale === 'total' ? e0 : start.internal;
  const l0 = Math.hypot(...start.angularMomentum);
  let maxGain = -Infinity;
  let maxLoss = -Infinity;
  let maxRise = 0;
  let lowest = e0;
  let growth = -Infinity;
  let kept = 1;
  const steps = Math.round(seconds / world.timeStep);
  for (let s = 0; s < steps; s++) {
    world.step();
    const now = measureEnergy(world, ids, floors);
    const e = now.kinetic + now.potential;
    maxGain = Math.max(maxGain, (e - e0) / reference);
    maxLoss = Math.max(maxLoss, (e0 - e) / reference);
    lowest = Math.min(lowest, e);
    maxRise = Math.max(maxRise, (e - lowest) / reference);
    kept = Math.hypot(...now.angularMomentum) / l0;
    growth = Math.max(growth, kept - 1);
  }
  return { maxGain, maxLoss, maxRise, scale: reference, angularMomentumGrowth: growth, angularMomentumKept: kept };
}
