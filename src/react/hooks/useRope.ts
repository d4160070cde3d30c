import { useLayoutEffect } from './effects.js';
import { createRope, type RopeHandle, type RopeOptions } from '../../core/bodies/rope.js';
import { bodyContacts } from '../../core/collision/bodyContacts.js';
import { PIN_DEFAULTS, ROPE_DEFAULTS } from '../../core/defaults.js';
import { checkCompliance } from '../../core/materials.js';
import { useSinew } from '../context.js';
import { BodyHandle, useBody } from './useBody.js';
import { useLiveParticles } from './useLiveParticles.js';
import { buildOn } from '../../worker/builders.js';

/** Options of {@link useRope}; the `<Rope>` props. Those of `createRope`, plus a name. */
export interface UseRopeOptions extends RopeOptions {
  /** Registers the rope in its `<World>`: `"rope.start"`, `"rope.end"`, `"rope.3"` name its particles. */
  name?: string;
}

/** A stable handle on a rope; `current` is the core `RopeHandle` while it exists..
 *
 * @example
 * ```ts
 * useAfterStep(() => rope.currentLength() > 2.5 && console.log('stretched'));
 * ```
 */
export class RopeApi extends BodyHandle<RopeHandle> {
  /** Sum of the current segment lengths (m), 0 while the rope does not exist. */
  currentLength(): number {
    return this.current?.currentLength() ?? 0;
  }
}

/**
 * A rope or chain of `segments` sticks from `from` to `to`. The geometry
 * (`from`, `to`, `segments`, `length`, `kind`, whether it has bending sticks)
 * builds the rope; `pinStart`, `pinEnd`, `pinCompliance`, `bendStiffness`, `segmentContacts`, mass,
 * radius, friction and iterations change in place.
 *
 * @example
 * ```tsx
 * function Swing() {
 *   const rope = useRope({ name: 'swing', from: [0, 2, 0], to: [1, 2, 0], segments: 16, kind: 'max', pinStart: true });
 *   useAfterStep(() => console.log(rope.currentLength()));
 *   return <Pin particle="swing.end" target={[1, 1.5, 0]} />;
 * }
 * ```
 */
export function useRope(options: UseRopeOptions): RopeApi {
  return useRopeAs('useRope()', options);
}

/** @internal {@link useRope} with errors that name `who`, the component using it. */
export function useRopeAs(who: string, options: UseRopeOptions): RopeApi {
  const { world } = useSinew(who);
  if (!options || typeof options !== 'object') throw new TypeError(`${who}: options must be an object, got ${String(options)}`);
  const { from, to, segments, length, kind, bendStiffness, pinStart = false, pinEnd = false, name } = options;
  const key = JSON.stringify([from, to, segments, length, kind, bendStiffness === undefined]);
  const pinCompliance = options.pinCompliance;
  const api = useBody<RopeHandle, RopeApi>(
    // End pins are managed below, so toggling them does not re-build the rope.
    { who, builder: 'createRope', key, name, options, create: (w, o = options) => buildOn(w, createRope, w, { ...(o as RopeOptions), pinStart: false, pinEnd: false }) },
    (w) => new RopeApi(w),
  );
  useLiveParticles(api, who, options);

  const segmentContacts = options.segmentContacts ?? ROPE_DEFAULTS.segmentContacts;
  useLayoutEffect(() => {
    const record = api.current?.body;
    if (!record) return;
    record.collideAs = segmentContacts ? 'chain' : undefined;
    if (segmentContacts) buildOn(world, bodyContacts, world);
  }, [world, api, segmentContacts, key]);

  useLayoutEffect(() => {
    const rope = api.current;
    if (!rope) return undefined;
    // Checked here too (createRope checks it when it builds): a change re-makes only the pins, not the rope.
    const compliance = checkCompliance(pinCompliance ?? PIN_DEFAULTS.compliance, `${who}: pinCompliance`);
    const pins: number[] = [];
    if (pinStart) pins.push(world.addPin(rope.first, undefined, { compliance }));
    if (pinEnd) pins.push(world.addPin(rope.last, undefined, { compliance }));
    return () => {
      for (const pin of pins) if (world.hasConstraint(pin)) world.removeConstraint(pin);
    };
  }, [world, api, key, who, pinStart, pinEnd, pinCompliance]);

  useLayoutEffect(() => {
    if (bendStiffness !== undefined && api.current && api.current.bendSticks.length > 0) {
      try {
        api.current.setBendStiffness(bendStiffness);
      } catch (error) {
        throw new RangeError(`${who}: ${(error as Error).message.replace(/^RopeHandle\.\w+: /, '')}`, { cause: error });
      }
    }
  }, [api, who, bendStiffness]);

  return api;
}
