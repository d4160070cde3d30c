import { useLayoutEffect } from './effects.js';
import { createCloth, pinnedIndices, type ClothHandle, type ClothOptions, type ClothPin } from '../../core/bodies/cloth.js';
import { CLOTH_DEFAULTS, PIN_DEFAULTS } from '../../core/defaults.js';
import { checkCompliance } from '../../core/materials.js';
import { addSurfaceCollision } from '../../core/collision/faces.js';
import { useSinew } from '../context.js';
import { BodyHandle, useBody } from './useBody.js';
import { useLiveParticles } from './useLiveParticles.js';
import { buildOn } from '../../worker/builders.js';

/** Options of {@link useCloth}; the `<Cloth>` props. Those of `createCloth`, plus a name. */
export interface UseClothOptions extends ClothOptions {
  /** Registers the cloth in its `<World>`: `"flag.0"` is its first particle, `"flag.end"` its last, `"flag.topRight"` a corner (see `clothCorners`). */
  name?: string;
  /**
   * Make its triangles solid to the static colliders (`addSurfaceCollision`), so a
   * box corner or a mesh edge cannot poke through between particles, only drape
   * it. Changes in place. Default false: only the particles collide.
   */
  solid?: boolean;
}

/** A stable handle on a cloth; `current` is the core `ClothHandle` while it exists..
 *
 * @example
 * ```ts
 * const corner = flag.particleAt(0, 0); // flag = useCloth(...)
 * ```
 */
export class ClothApi extends BodyHandle<ClothHandle> {
  /** Particle id of grid point (i, j): column i, row j. */
  particleAt(i: number, j: number): number {
    if (!this.current) throw new Error('ClothApi.particleAt: the cloth does not exist (its component is not mounted)');
    return this.current.particle(i, j);
  }
}

/**
 * A cloth (paper section 4): a grid of particles joined by structural, shear and
 * bend sticks. `width`, `height`, `spacing`, `corner`, `orientation` and which
 * stick families exist build the cloth (changing them builds a new one); the
 * stiffnesses, `pin`, `pinCompliance`, `tearStrain`, `solid`, `surfaceContacts`, mass, radius,
 * friction and iterations change in place.
 *
 * @example
 * ```tsx
 * function Flag({ stiffness }: { stiffness: number }) {
 *   const flag = useCloth({ width: 20, height: 12, spacing: 0.05, corner: [0, 2, 0], pin: 'left', structural: { stiffness } });
 *   useFrame(() => flag.current && console.log(flag.current.torn));
 *   return null;
 * }
 * ```
 */
export function useCloth(options: UseClothOptions): ClothApi {
  return useClothAs('useCloth()', options);
}

/** @internal {@link useCloth} with errors that name `who`, the component using it. */
export function useClothAs(who: string, options: UseClothOptions): ClothApi {
  const { world } = useSinew(who);
  if (!options || typeof options !== 'object') throw new TypeError(`${who}: options must be an object, got ${String(options)}`);
  const { width, height, spacing, corner, orientation, shear, bend, name } = options;
  const key = JSON.stringify([width, height, spacing, corner, orientation, shear === false, bend === undefined || bend === false, options.material]);
  const api = useBody<ClothHandle, ClothApi>(
    // Pins are managed below, so that changing them moves pins instead of re-building the cloth.
    { who, builder: 'createCloth', key, name, options, create: (w, o = options) => buildOn(w, createCloth, w, { ...(o as ClothOptions), pin: 'none' }), resolve: clothCorner },
    (w) => new ClothApi(w),
  );
  useLiveParticles(api, who, options);

  const pinKey = JSON.stringify(options.pin ?? CLOTH_DEFAULTS.pin);
  const pinCompliance = options.pinCompliance;
  useLayoutEffect(() => {
    const cloth = api.current;
    if (!cloth) return undefined;
    // Checked here too (createCloth checks it when it builds): a change re-makes only the pins, not the cloth.
    const compliance = checkCompliance(pinCompliance ?? PIN_DEFAULTS.compliance, `${who}: pinCompliance`);
    const pins = pinnedIndices(JSON.parse(pinKey) as ClothPin, cloth.width, cloth.height, who).map((index) => world.addPin(cloth.first + index, undefined, { compliance }));
    return () => {
      for (const pin of pins) if (world.hasConstraint(pin)) world.removeConstraint(pin);
    };
  }, [world, api, pinKey, pinCompliance, key, who]);

  const solid = options.solid ?? false;
  useLayoutEffect(() => {
    const record = solid ? api.current?.body : undefined;
    if (!record) return undefined;
    // The core keeps the solid triangles in step with tearing.
    const faces = buildOn(world, addSurfaceCollision, world, record);
    return () => faces.remove();
  }, [world, api, solid, key]);

  const surfaceContacts = options.surfaceContacts ?? CLOTH_DEFAULTS.surfaceContacts;
  useLayoutEffect(() => {
    const record = api.current?.body;
    if (record) record.collideAs = surfaceContacts ? 'surface' : undefined;
  }, [api, surfaceContacts, key]);

  const structural = options.structural?.stiffness;
  const shearStiffness = shear ? shear.stiffness : undefined;
  const bendStiffness = bend ? bend.stiffness : undefined;
  useLayoutEffect(() => {
    const cloth = api.current;
    if (!cloth) return;
    try {
      if (structural !== undefined) cloth.setStiffness('structural', structural);
      if (shearStiffness !== undefined) cloth.setStiffness('shear', shearStiffness);
      if (bendStiffness !== undefined) cloth.setStiffness('bend', bendStiffness);
      cloth.tearStrain = options.tearStrain;
    } catch (error) {
      throw new RangeError(`${who}: ${(error as Error).message.replace(/^ClothHandle\.\w+: /, '')}`, { cause: error });
    }
  }, [api, who, structural, shearStiffness, bendStiffness, options.tearStrain]);

  return api;
}

/** The corners of a cloth by name (`"flag.topRight"`): row 0 is its top edge, column 0 its left, as `pin` names them. */
export const clothCorners = ['topLeft', 'topRight', 'bottomLeft', 'bottomRight'] as const;

/** A cloth corner's name (see {@link clothCorners}). */
export type ClothCorner = (typeof clothCorners)[number];

function clothCorner(cloth: ClothHandle, part: string): number | undefined {
  const corner = clothCorners.indexOf(part as ClothCorner);
  if (corner < 0) return undefined;
  return cloth.particle(corner & 1 ? cloth.width - 1 : 0, corner & 2 ? cloth.height - 1 : 0);
}
