import type { BodyRecord } from './bodies/body.js';
import type { Collider } from './colliders/collider.js';
import type { World } from './world.js';

/**
 * What every part of the engine that keeps state for one world answers (the
 * angle and plane tables, capsule edges, solid faces, body contacts, rigid
 * motion, hulls, particle collisions, held bodies…). The world keeps them in
 * its {@link Features} and calls them: a snapshot saves and loads them, a
 * removal tells each what went, so that nothing of the removed thing is left
 * behind to act on whatever takes its slot. Every call is optional.
 *
 * @example
 * ```ts
 * class Glow implements WorldFeature {
 *   readonly heat = new Float64Array(64);
 *   saveState() { return this.heat.slice(); }
 *   loadState(_world: World, data: unknown) { if (data instanceof Float64Array) this.heat.set(data); else this.heat.fill(0); }
 *   particlesRemoved(_world: World, first: number, end: number) { this.heat.fill(0, first, end); }
 * }
 * const GLOW: FeatureKind<Glow> = { name: 'glow', create: () => new Glow() };
 * world.features.of(GLOW).heat[3] = 1;
 * ```
 */
export interface WorldFeature {
  /** The feature's dynamic state as plain data (typed arrays, numbers, arrays): a snapshot keeps it, so it must survive `structuredClone`. */
  saveState?(world: World): unknown;
  /**
   * Returns to what {@link saveState} gave, after the world's particles and tables were
   * restored; `data` is undefined when the snapshot was taken before the feature
   * existed (start from rest then).
   */
  loadState?(world: World, data: unknown): void;
  /** The particles in slots `[first, end)` are being removed: drop every row that refers to one (the slots will be reused). */
  particlesRemoved?(world: World, first: number, end: number): void;
  /** `body` is being removed (before its particles go): drop what belongs to it. */
  bodyRemoved?(world: World, body: BodyRecord): void;
  /** `collider` was removed: drop what refers to it. */
  colliderRemoved?(world: World, collider: Collider): void;
  /** The feature is being taken out of the world ({@link Features.delete}): let go of what it registered. */
  dispose?(world: World): void;
}

/**
 * A kind of feature: its name (the key of its state in a snapshot, unique in a
 * world) and how a world makes its one instance on first use. Made by
 * a module constant, an object literal (so that loading the module does nothing).
 */
export interface FeatureKind<T extends WorldFeature> {
  /** Unique among a world's features; names the feature's state in snapshots and errors. */
  readonly name: string;
  /** Makes the world's instance (called once per world, by {@link Features.of}). */
  readonly create: (world: World) => T;
}

/** What a snapshot holds of the features: each one's saved state by its name. */
export type FeaturesSnapshot = Record<string, unknown>;

/**
 * The features of one world, by name, in the order they were made: the one
 * place per-world state lives (instead of module-level tables keyed by the
 * world). The world calls every one of them on a snapshot, a restore, a
 * removal; features that are instances (a self-collision, an attachment) are
 * added under their own name with {@link Features.add}.
 *
 * @example
 * ```ts
 * const edges = world.features.of(EDGES);  // made on first use
 * world.features.get(EDGES);               // undefined until then
 * world.features.add('selfCollision#3', pass); // an instance, until features.delete('selfCollision#3')
 * ```
 */
export class Features {
  private readonly byName = new Map<string, WorldFeature>();
  /** The features in the order they were made, walked by every call below. */
  private readonly list: WorldFeature[] = [];
  private readonly names: string[] = [];
  private serial = 0;

  constructor(private readonly world: World) {}

  /** The world's feature of `kind`, made (once) on first use. */
  of<T extends WorldFeature>(kind: FeatureKind<T>): T {
    const found = this.byName.get(kind.name);
    if (found !== undefined) return found as T;
    const made = kind.create(this.world);
    // `create` may have made it already through a nested `of` (a system that needs itself): keep the first.
    if (this.byName.has(kind.name)) return this.byName.get(kind.name) as T;
    this.add(kind.name, made);
    return made;
  }

  /** The world's feature of `kind`, or undefined when none was made. */
  get<T extends WorldFeature>(kind: FeatureKind<T>): T | undefined {
    return this.byName.get(kind.name) as T | undefined;
  }

  /** Adds `feature` under `name`; throws when the name is taken. */
  add(name: string, feature: WorldFeature): void {
    if (typeof name !== 'string' || name === '') throw new TypeError(`features.add: name must be a non-empty string, got ${typeof name === 'string' ? "''" : String(name)}`);
    if (this.byName.has(name)) throw new Error(`features.add: this world already has a feature named '${name}'`);
    if (typeof feature !== 'object' || feature === null) throw new TypeError(`features.add('${name}'): feature must be an object, got ${String(feature)}`);
    this.byName.set(name, feature);
    this.list.push(feature);
    this.names.push(name);
  }

  /**
   * Adds a feature that is one instance among several (a set of springs, a
   * self-collision) under a name made from `prefix` and a serial of this world;
   * returns the name, for {@link Features.delete}. A world built the same way
   * gives the same names, so snapshots match them up.
   */
  addInstance(prefix: string, feature: WorldFeature): string {
    const name = `${prefix}#${++this.serial}`;
    this.add(name, feature);
    return name;
  }

  /** True when a feature named `name` is in the world. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Takes the feature named `name` out (calling its `dispose`); false when there is none. */
  delete(name: string): boolean {
    const feature = this.byName.get(name);
    if (feature === undefined) return false;
    this.byName.delete(name);
    const at = this.list.indexOf(feature);
    this.list.splice(at, 1);
    this.names.splice(at, 1);
    feature.dispose?.(this.world);
    return true;
  }

  /** Features in the world. */
  get size(): number {
    return this.list.length;
  }

  /** Each feature's saved state by name (features with no `saveState` are left out). */
  save(): FeaturesSnapshot {
    const out: FeaturesSnapshot = {};
    for (let k = 0; k < this.list.length; k++) {
      const feature = this.list[k]!;
      if (feature.saveState !== undefined) out[this.names[k]!] = feature.saveState(this.world);
    }
    return out;
  }

  /** Gives every feature its state from `snapshot` (undefined for one the snapshot lacks). */
  load(snapshot: FeaturesSnapshot | undefined): void {
    for (let k = 0; k < this.list.length; k++) this.list[k]!.loadState?.(this.world, snapshot?.[this.names[k]!]);
  }

  /** Tells every feature that particles `[first, end)` are going. */
  particlesRemoved(first: number, end: number): void {
    // A copy: a feature may take itself (or another) out when its last row goes.
    for (const feature of this.list.slice()) feature.particlesRemoved?.(this.world, first, end);
  }

  /** Tells every feature that `body` is going. */
  bodyRemoved(body: BodyRecord): void {
    for (const feature of this.list.slice()) feature.bodyRemoved?.(this.world, body);
  }

  /** Tells every feature that `collider` went. */
  colliderRemoved(collider: Collider): void {
    for (const feature of this.list.slice()) feature.colliderRemoved?.(this.world, collider);
  }
}
