import { useState } from 'react';
import { useLayoutEffect } from './effects.js';
import type { BodyRecord } from '../../core/bodies/body.js';
import type { Vec3Like } from '../../core/math.js';
import { hit } from '../../core/motion/hit.js';
import { World } from '../../core/world.js';
import { combinedError, everyBadOption } from '../badProps.js';
import { settleRange } from '../../three/positions.js';
import { useSinew } from '../context.js';
import type { BodyEntry } from '../store.js';
import { useLatest } from './useLatest.js';
import { buildOn } from '../../worker/builders.js';

/** What every core builder returns (`createCloth`, `createRope`, `createBox`...). */
export interface CoreBody {
  /** The body's record in the core world. */
  readonly body: BodyRecord;
  /** First particle id of the body's contiguous range. */
  readonly first: number;
  /** Particles in the range. */
  readonly count: number;
  /** Removes the body from the world with its constraints. */
  remove(): void;
}

/**
 * A stable handle on a body a component owns. `current` is the core builder's
 * handle while the body exists (null before mount and after unmount); when a
 * structural prop re-creates the body, `current` changes and this object stays.
 *
 * @example
 * ```ts
 * const rope = useRope({ from: [0, 2, 0], to: [1, 2, 0], segments: 10 });
 * rope.hit(10, [0, 0, 1], 0.02); // knock the last particle
 * rope.current?.currentLength();
 * ```
 */
export class BodyHandle<H extends CoreBody> {
  /** The core handle (e.g. a `ClothHandle`), or null while the body does not exist. */
  current: H | null = null;
  constructor(readonly world: World) {}
  /** First particle id of the body's contiguous range, -1 while it does not exist. */
  get first(): number {
    return this.current?.first ?? -1;
  }
  /** Particles in the body, 0 while it does not exist. */
  get count(): number {
    return this.current?.count ?? 0;
  }
  /** Particle id of the body's `index`-th particle. */
  particle(index: number): number {
    if (!this.current) throw new Error('BodyHandle.particle: the body does not exist (its component is not mounted)');
    if (!Number.isInteger(index) || index < 0 || index >= this.current.count) throw new RangeError(`BodyHandle.particle: index must be an integer in [0, ${this.current.count - 1}], got ${index}`);
    return this.current.first + index;
  }
  /** A blow on the body's `index`-th particle: moved `strength` m along `direction` (the paper's section 7). */
  hit(index: number, direction: Vec3Like, strength: number): void {
    buildOn(this.world, hit, this.world, this.particle(index), direction, strength);
  }
}

/** How a body hook builds its body. */
export interface BodyRecipe<H extends CoreBody> {
  /** The component or hook, for errors: `<Rope>`. */
  who: string;
  /** The core builder's name as its errors start (`createRope`), rewritten to `who`. */
  builder: string;
  /**
   * Builds the body; called again whenever `key` changes. Called with other
   * `options` (in a scratch world) only to find every bad option after a failure.
   */
  create(world: World, options?: object): H;
  /** The builder's options: given, a failed build's error names every bad one (see `everyBadOption`), not only the first. */
  options?: object;
  /** The structural options, serialised: a change re-creates the body, anything else is updated in place. */
  key: string;
  /** Registers the body under this name, so `"name.3"` or `"name.end"` names its particles. */
  name?: string;
  /** Resolves part names beyond indices, `start` and `end` (a ragdoll's `"leftHand"`). */
  resolve?(handle: H, part: string): number | undefined;
}

/**
 * Builds a body with a core builder in a layout effect and removes it on
 * unmount (so StrictMode's second mount builds it once more and leaves no
 * duplicate). Returns a stable {@link BodyHandle} (or the subclass `make`
 * constructs). Errors from the builder are rethrown naming the component:
 * `<Rope>: segments must be an integer >= 1, got -3`.
 *
 * @example
 * ```ts
 * const rope = useBody({ who: 'useRope()', builder: 'createRope', key: JSON.stringify(options), create: (w) => createRope(w, options) });
 * ```
 */
export function useBody<H extends CoreBody, T extends BodyHandle<H> = BodyHandle<H>>(recipe: BodyRecipe<H>, make?: (world: World) => T): T {
  const { world, store } = useSinew(recipe.who);
  const [handle] = useState(() => (make ? make(world) : (new BodyHandle<H>(world) as T)));
  const latest = useLatest(recipe);
  const { key, name, who } = recipe;

  useLayoutEffect(() => {
    const { create, builder } = latest.current;
    let core: H;
    try {
      core = create(world);
    } catch (error) {
      const { options } = latest.current;
      if (!(error instanceof Error) || !options) throw renamed(error, builder, who);
      const all = everyBadOption(error, builder, options, (probe) => create(new World({ kernel: 'js' }), probe));
      throw combinedError(
        who,
        all.map((e) => renamed(e, builder, who) as Error),
      );
    }
    settleRange(world, core.first, core.count);
    handle.current = core;
    store.getState().touchRegistry();
    return () => {
      handle.current = null;
      if (core.body.alive) core.remove();
      releaseRecord(core.body);
      store.getState().touchRegistry();
    };
  }, [world, store, handle, latest, key, who]);

  useLayoutEffect(() => {
    if (name === undefined) return undefined;
    if (typeof name !== 'string' || name === '' || name.includes('.')) throw new TypeError(`${who}: name must be a non-empty string without ".", got ${JSON.stringify(name)}`);
    const entry: BodyEntry = {
      get kind() {
        return handle.current?.body.kind ?? 'body';
      },
      get first() {
        return handle.first;
      },
      get count() {
        return handle.count;
      },
      resolve: (part) => (handle.current ? latest.current.resolve?.(handle.current, part) : undefined),
    };
    return store.getState().nameBody(name, entry, who);
  }, [store, handle, latest, name, who]);

  return handle;
}

/**
 * Drops what a removed body's record still holds. The world keeps dead records
 * (their ids are never reused), and with them their constraint ids, surface and
 * cleanup closures: about 5 kB for a small cloth, which made mounting and
 * unmounting a component grow the heap without bound. The record is dead, its
 * constraints gone and its cleanups run, so nothing reads these any more.
 */
function releaseRecord(record: BodyRecord): void {
  if (record.alive) return;
  record.constraints.length = 0;
  record.onRemove.length = 0;
  record.surface = undefined;
}

/** The builder's error with its `createX: ` prefix replaced by the component's name. */
function renamed(error: unknown, builder: string, who: string): unknown {
  if (!(error instanceof Error)) return error;
  // Errors the recipe raised itself already name the component.
  if (error.message.startsWith(`${who}: `)) return error;
  const message = error.message.startsWith(`${builder}: `) ? `${who}: ${error.message.slice(builder.length + 2)}` : `${who}: ${error.message}`;
  const Kind = error.constructor as new (message: string, options: { cause: unknown }) => Error;
  return new Kind(message, { cause: error });
}
