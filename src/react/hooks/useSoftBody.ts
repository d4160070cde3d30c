import { useLayoutEffect } from './effects.js';
import { checkStiffness } from '../../core/bodies/shapes.js';
import { createSoftBody, type SoftBodyHandle, type SoftBodyOptions } from '../../core/bodies/softBody.js';
import { checkNumber } from '../../core/math.js';
import { BodyHandle, useBody } from './useBody.js';
import { useLiveParticles } from './useLiveParticles.js';
import { buildOn } from '../../worker/builders.js';

/** Options of {@link useSoftBody}; the `<SoftBody>` props. Those of `createSoftBody`, plus a name. */
export interface UseSoftBodyOptions extends SoftBodyOptions {
  /** Registers the body in its `<World>` (`"jelly.0"` is its first particle). */
  name?: string;
}

/** A stable handle on a soft body; `current` is the core `SoftBodyHandle` while it exists..
 *
 * @example
 * ```ts
 * const squash = jelly.volume() / (jelly.current?.restVolume ?? 1);
 * ```
 */
export class SoftBodyApi extends BodyHandle<SoftBodyHandle> {
  /** Volume enclosed now (m³), 0 while the body does not exist. */
  volume(): number {
    return this.current?.volume() ?? 0;
  }
}

/**
 * A soft body: a closed surface of particles held by soft sticks and a pressure
 * constraint that keeps its volume. `shape`, `position`, `size` and `resolution`
 * build it; `stiffness`, `pressure`, `inflation`, mass, radius, friction and
 * iterations change in place.
 *
 * @example
 * ```tsx
 * function Jelly({ squish }: { squish: number }) {
 *   const jelly = useSoftBody({ shape: 'box', position: [0, 1, 0], size: 0.5, stiffness: squish });
 *   useAfterStep(() => console.log(jelly.volume()));
 *   return null;
 * }
 * ```
 */
export function useSoftBody(options: UseSoftBodyOptions = {}): SoftBodyApi {
  return useSoftBodyAs('useSoftBody()', options);
}

/** @internal {@link useSoftBody} with errors that name `who`, the component using it. */
export function useSoftBodyAs(who: string, options: UseSoftBodyOptions = {}): SoftBodyApi {
  if (!options || typeof options !== 'object') throw new TypeError(`${who}: options must be an object, got ${String(options)}`);
  const { shape, position, size, resolution, stiffness, pressure, inflation, name } = options;
  const key = JSON.stringify([shape, position, size, resolution]);
  const api = useBody<SoftBodyHandle, SoftBodyApi>(
    { who, builder: 'createSoftBody', key, name, options, create: (w, o = options) => buildOn(w, createSoftBody, w, o as SoftBodyOptions) },
    (w) => new SoftBodyApi(w),
  );
  useLiveParticles(api, who, options);

  useLayoutEffect(() => {
    const body = api.current;
    if (!body) return;
    if (stiffness !== undefined) body.setStiffness(checkStiffness(stiffness, `${who}: stiffness`));
    if (pressure !== undefined) body.volumeConstraint.pressure = checkNumber(pressure, `${who}: pressure`, 0, 1);
    if (inflation !== undefined) body.volumeConstraint.inflation = checkNumber(inflation, `${who}: inflation`, Number.MIN_VALUE);
  }, [api, who, stiffness, pressure, inflation]);

  return api;
}
