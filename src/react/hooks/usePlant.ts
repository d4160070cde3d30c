import { useLayoutEffect } from './effects.js';
import { createPlant, type PlantHandle, type PlantOptions } from '../../core/bodies/plant.js';
import { checkStiffness } from '../../core/bodies/shapes.js';
import { BodyHandle, useBody } from './useBody.js';
import { useLiveParticles } from './useLiveParticles.js';
import { buildOn } from '../../worker/builders.js';

/** Options of {@link usePlant}; the `<Plant>` props. Those of `createPlant`, plus a name. */
export interface UsePlantOptions extends PlantOptions {
  /** Registers the plant in its `<World>` (`"grass.end"` is its tip's right edge). */
  name?: string;
}

/** A stable handle on a plant; `current` is the core `PlantHandle` while it exists..
 *
 * @example
 * ```ts
 * grass.current?.setStiffness(0.8); // or change the `stiffness` prop
 * ```
 */
export class PlantApi extends BodyHandle<PlantHandle> {}

/**
 * A plant (paper section 4): a folded strip rooted at its foot that bends and
 * springs back. Its shape options build it; `stiffness`, mass, radius,
 * friction and iterations change in place.
 *
 * @example
 * ```tsx
 * function Blade({ x }: { x: number }) {
 *   usePlant({ root: [x, 0, 0], height: 0.6, width: 0.05, tipWidth: 0.01 });
 *   return null;
 * }
 * ```
 */
export function usePlant(options: UsePlantOptions = {}): PlantApi {
  return usePlantAs('usePlant()', options);
}

/** @internal {@link usePlant} with errors that name `who`, the component using it. */
export function usePlantAs(who: string, options: UsePlantOptions = {}): PlantApi {
  if (!options || typeof options !== 'object') throw new TypeError(`${who}: options must be an object, got ${String(options)}`);
  const { root, height, segments, width, tipWidth, direction, across, fold, stiffness, name } = options;
  const key = JSON.stringify([root, height, segments, width, tipWidth, direction, across, fold]);
  const api = useBody<PlantHandle, PlantApi>({ who, builder: 'createPlant', key, name, options, create: (w, o = options) => buildOn(w, createPlant, w, o as PlantOptions) }, (w) => new PlantApi(w));
  useLiveParticles(api, who, options);
  useLayoutEffect(() => {
    if (stiffness !== undefined) api.current?.setStiffness(checkStiffness(stiffness, `${who}: stiffness`));
  }, [api, who, stiffness]);
  return api;
}
