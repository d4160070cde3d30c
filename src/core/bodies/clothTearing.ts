import type { WorldFeature } from '../features.js';
import { checkNumber } from '../math.js';
import type { World } from '../world.js';
import type { BodyRecord, Surface } from './body.js';

/** The three families of cloth sticks. */
export const enum ClothStickKind {
  /** Between grid neighbours along a row or a column. */
  Structural = 0,
  /** Along both diagonals of each grid square. */
  Shear = 1,
  /** Between particles two apart along a row or a column (resists folding). */
  Bend = 2,
}

/**
 * The sticks of one cloth, in the order they were made: particle ids, rest
 * length, family and constraint id (-1 once torn). A bend stick also remembers
 * the two structural sticks it spans (`spanA`, `spanB`; -1 for other sticks).
 * A triangle remembers the up-to-three sticks along its edges (`triangleSticks`,
 * -1 where no stick lies, e.g. the diagonal when shear is off).
 */
export interface ClothSticks {
  /** Sticks made (entries in use in the arrays below). */
  count: number;
  /** Slot of each stick's first end's particle. */
  a: Int32Array;
  /** Slot of each stick's second end's particle. */
  b: Int32Array;
  /** Rest length of each stick (m). */
  rest: Float64Array;
  /** Family of each stick, a {@link ClothStickKind}. */
  kind: Uint8Array;
  /** Constraint id of each stick, -1 once torn. */
  id: Int32Array;
  /** For a bend stick, the index of the first structural stick it spans; -1 for other sticks. */
  spanA: Int32Array;
  /** For a bend stick, the index of the second structural stick it spans; -1 for other sticks. */
  spanB: Int32Array;
  /** Every triangle the cloth was made with, three particle slots each. */
  allTriangles: Uint32Array;
  /** Three stick indices (into the arrays above) per triangle of `allTriangles`. */
  triangleSticks: Int32Array;
}

/**
 * Cloth tearing: after each step, every structural or shear stick stretched beyond
 * rest · (1 + strain) breaks. A broken structural stick takes the bend sticks that
 * span it along (otherwise they would hold the tear shut), and the surface drops
 * every triangle that used a broken stick. The check allocates nothing; only an
 * actual tear does (removing constraints).
 */
export class ClothTearing implements WorldFeature {
  /** Sticks broken so far. */
  torn = 0;
  /** Break when length > rest · (1 + strain); > 0, Infinity for never (a bad value throws, naming it). */
  get strain(): number {
    return this.strainValue;
  }
  set strain(strain: number) {
    this.strainValue = strain === Infinity ? strain : checkTearStrain(strain, 'ClothTearing: strain');
  }
  private strainValue = 0;
  private readonly sticks: ClothSticks;
  private readonly surface: Surface;
  private readonly body: BodyRecord;
  private readonly world: World;
  /** Its name among the world's features: which sticks are torn is in snapshots. */
  private readonly feature: string;

  constructor(world: World, body: BodyRecord, sticks: ClothSticks, surface: Surface, strain: number) {
    this.world = world;
    this.body = body;
    this.sticks = sticks;
    this.surface = surface;
    this.strain = strain;
    this.feature = world.features.addInstance('clothTearing', this);
  }

  /** Which sticks are whole (their constraint ids, -1 once torn) and how many tore: a restore before a tear mends it, triangles and all. */
  saveState(): { ids: Int32Array; torn: number } {
    return { ids: this.sticks.id.slice(0, this.sticks.count), torn: this.torn };
  }

  /** Returns to {@link ClothTearing.saveState}'s sticks (the stick table brings the mended sticks back) and rebuilds the surface from them. */
  loadState(_world: World, data: unknown): void {
    if (data === undefined) return;
    const state = data as { ids?: unknown; torn?: unknown };
    if (!(state.ids instanceof Int32Array) || state.ids.length !== this.sticks.count || typeof state.torn !== 'number') {
      throw new TypeError(`restore: the snapshot's cloth tearing state must be { ids: Int32Array of ${this.sticks.count}, torn: number }, got ${String(data)}`);
    }
    this.sticks.id.set(state.ids);
    this.torn = state.torn;
    this.rebuildSurface();
  }

  /** The cloth went: its tearing leaves the world's features. */
  bodyRemoved(world: World, body: BodyRecord): void {
    if (body === this.body) world.features.delete(this.feature);
  }

  /** Breaks the overstretched sticks; returns how many broke (bend sticks taken along included). */
  check(): number {
    const s = this.sticks;
    const pos = this.world.particles.position;
    const limit = 1 + this.strain;
    let broken = 0;
    for (let e = 0; e < s.count; e++) {
      if (s.id[e]! < 0 || s.kind[e] === ClothStickKind.Bend) continue;
      const a = s.a[e]! * 3;
      const b = s.b[e]! * 3;
      const dx = pos[b]! - pos[a]!;
      const dy = pos[b + 1]! - pos[a + 1]!;
      const dz = pos[b + 2]! - pos[a + 2]!;
      const max = s.rest[e]! * limit;
      if (dx * dx + dy * dy + dz * dz > max * max) {
        this.breakStick(e);
        broken++;
      }
    }
    if (broken === 0) return 0;
    for (let e = 0; e < s.count; e++) {
      if (s.id[e]! >= 0 && s.kind[e] === ClothStickKind.Bend && (s.id[s.spanA[e]!]! < 0 || s.id[s.spanB[e]!]! < 0)) {
        this.breakStick(e);
        broken++;
      }
    }
    this.rebuildSurface();
    return broken;
  }

  /**
   * Breaks the sticks at `indices` (into the cloth's {@link ClothSticks}; broken ones are
   * skipped) and rebuilds the surface, as `check` does for the sticks it finds overstretched:
   * how a copy of the world that never steps (a worker's shadow, see docs/worker.md) follows
   * the tears of the world that does.
   */
  breakSticks(indices: ArrayLike<number>): void {
    for (let k = 0; k < indices.length; k++) {
      const e = indices[k]!;
      if (e >= 0 && e < this.sticks.count && this.sticks.id[e]! >= 0) this.breakStick(e);
    }
    this.rebuildSurface();
  }

  private breakStick(e: number): void {
    const id = this.sticks.id[e]!;
    this.sticks.id[e] = -1;
    this.torn++;
    // The id stays in body.constraints: removing the body skips ids that are gone.
    if (this.body.alive && this.world.hasConstraint(id)) this.world.removeConstraint(id);
  }

  /** Keeps, in their original order, the triangles whose sticks are all whole. */
  private rebuildSurface(): void {
    const s = this.sticks;
    const out = this.surface.triangles;
    let kept = 0;
    for (let t = 0; t < s.allTriangles.length / 3; t++) {
      let whole = true;
      for (let k = 0; k < 3; k++) {
        const e = s.triangleSticks[t * 3 + k]!;
        if (e >= 0 && s.id[e]! < 0) whole = false;
      }
      if (!whole) continue;
      out[kept * 3] = s.allTriangles[t * 3]!;
      out[kept * 3 + 1] = s.allTriangles[t * 3 + 1]!;
      out[kept * 3 + 2] = s.allTriangles[t * 3 + 2]!;
      kept++;
    }
    this.surface.triangleCount = kept;
  }
}

/** `value` if it is a strain a cloth can tear at (a number > 0); otherwise throws, naming `what` and the value. */
export function checkTearStrain(value: number, what: string): number {
  checkNumber(value, what, 0);
  if (value === 0) throw new RangeError(`${what} must be > 0, got 0`);
  return value;
}
