import type { ParticleStore } from '../particles.js';
import { ConstraintTable, widen } from './table.js';

/**
 * Pins (paper section 7, inverse kinematics): inside the relaxation loop each
 * pinned particle is set to its target. The world gives pinned particles zero
 * inverse mass while pinned, so sticks treat them as infinitely heavy.
 */
export class PinTable extends ConstraintTable {
  /** Particle id held by each pin. */
  particle: Int32Array;
  /** Targets, xyz interleaved. */
  target: Float64Array;
  protected override readonly savedColumns = ['particle', 'target'] as const;

  constructor(capacity = 16) {
    super(capacity);
    this.particle = new Int32Array(capacity);
    this.target = new Float64Array(capacity * 3);
  }

  /** Appends a pin for constraint `id` holding `particle` at (x, y, z) (m) and returns its row; low-level, `world.addPin` also makes the particle immovable while pinned. */
  add(id: number, particle: number, x: number, y: number, z: number): number {
    const row = this.addRow(id);
    this.particle[row] = particle;
    this.setTarget(row, x, y, z);
    return row;
  }

  /** Moves the target of pin row `row` to (x, y, z) (m); by pin id, use `world.setPinTarget`. */
  setTarget(row: number, x: number, y: number, z: number): void {
    this.target[row * 3] = x;
    this.target[row * 3 + 1] = y;
    this.target[row * 3 + 2] = z;
  }

  protected growColumns(capacity: number): void {
    this.particle = widen(this.particle, capacity);
    this.target = widen(this.target, capacity, 3);
  }

  protected copyRow(from: number, to: number): void {
    this.particle[to] = this.particle[from]!;
    this.target.copyWithin(to * 3, from * 3, from * 3 + 3);
  }
}

/** Moves every pinned particle onto its target. */
export function solvePins(pins: PinTable, particles: ParticleStore): void {
  const pos = particles.position;
  const target = pins.target;
  const particle = pins.particle;
  for (let row = 0; row < pins.count; row++) {
    const p = particle[row]! * 3;
    pos[p] = target[row * 3]!;
    pos[p + 1] = target[row * 3 + 1]!;
    pos[p + 2] = target[row * 3 + 2]!;
  }
}
