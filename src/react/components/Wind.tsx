import { useImperativeHandle, useRef, type Ref } from 'react';
import { useEffect, useLayoutEffect } from '../hooks/effects.js';
import type { BodyRecord } from '../../core/bodies/body.js';
import { createWind, type WindHandle } from '../../core/forces/wind.js';
import { WIND_DEFAULTS } from '../../core/defaults.js';
import { checkNumber, type Vec3Like } from '../../core/math.js';
import { useSinew } from '../context.js';
import { useLatest } from '../hooks/useLatest.js';
import { useStableVec3 } from '../hooks/useStableVec3.js';
import { subscribeRegistry, type WorldState } from '../store.js';
import { guarded } from '../guarded.js';
import { buildOn } from '../../worker/builders.js';

/** Props of {@link Wind}. All change live. */
export interface WindProps {
  /** Mean wind velocity (m/s). */
  velocity: Vec3Like;
  /** Factor on the pressure force (an air density). Default 1. */
  coefficient?: number;
  /** Gusts: the speed swings by up to ± this share. Default 0. */
  gust?: number;
  /** Gusts per second. Default 0.5. */
  gustFrequency?: number;
  /** Turbulence: each triangle's wind deviates by up to this share of the speed. Default 0. */
  turbulence?: number;
  /** Size of the eddies (m). Default 1. */
  turbulenceScale?: number;
  /** Seed of the gust and turbulence noise; default drawn from the world's seeded generator. Changing it re-seeds. */
  seed?: number;
  /** Names of the bodies it blows on (`<Cloth name="flag" />`); default every body with a surface. */
  bodies?: readonly string[];
  /** Receives the core wind, to change it every frame without re-rendering. */
  ref?: Ref<WindHandle>;
}

/**
 * Wind on every triangulated body (cloth, plants, soft bodies) while mounted:
 * the course notes' pressure force per triangle, with optional gusts and
 * turbulence. Changing a prop changes the wind in place.
 *
 * @example
 * ```tsx
 * <Wind velocity={[0, 0, windSpeed]} gust={0.4} turbulence={0.3} />
 * ```
 */
export const Wind = guarded('<Wind>', function Wind({ velocity, coefficient, gust, gustFrequency, turbulence, turbulenceScale, seed, bodies, ref }: WindProps) {
  // The core's defaults (one owner): a prop left out falls back to what createWind would use.
  coefficient ??= WIND_DEFAULTS.coefficient;
  gust ??= WIND_DEFAULTS.gust;
  gustFrequency ??= WIND_DEFAULTS.gustFrequency;
  turbulence ??= WIND_DEFAULTS.turbulence;
  turbulenceScale ??= WIND_DEFAULTS.turbulenceScale;
  const { world, store } = useSinew('<Wind>');
  const v = useStableVec3(velocity, '<Wind>: velocity');
  if (!v) throw new TypeError('<Wind>: velocity is required, got undefined');
  checkNumber(coefficient, '<Wind>: coefficient', 0);
  checkNumber(gust, '<Wind>: gust', 0);
  checkNumber(gustFrequency, '<Wind>: gustFrequency', 0);
  checkNumber(turbulence, '<Wind>: turbulence', 0);
  checkNumber(turbulenceScale, '<Wind>: turbulenceScale', Number.MIN_VALUE);
  if (seed !== undefined) checkNumber(seed, '<Wind>: seed');

  const wind = useRef<WindHandle | null>(null);
  const latest = useLatest({ v, coefficient, gust, gustFrequency, turbulence, turbulenceScale });
  useLayoutEffect(() => {
    const o = latest.current;
    const created = buildOn(world, createWind, world, {
      velocity: o.v,
      coefficient: o.coefficient,
      gust: o.gust,
      gustFrequency: o.gustFrequency,
      turbulence: o.turbulence,
      turbulenceScale: o.turbulenceScale,
      seed,
    });
    wind.current = created;
    return () => {
      created.remove();
      wind.current = null;
    };
  }, [world, latest, seed]);
  // After the creation effect and without dependencies, so the ref always holds the wind that exists now.
  useImperativeHandle(ref, () => wind.current!);

  useLayoutEffect(() => {
    const w = wind.current;
    if (!w) return;
    // A copy: the core may write into its velocity, and `v` is a memoised prop value.
    w.velocity = [v[0], v[1], v[2]];
    w.coefficient = coefficient;
    w.gust = gust;
    w.gustFrequency = gustFrequency;
    w.turbulence = turbulence;
    w.turbulenceScale = turbulenceScale;
  }, [v, coefficient, gust, gustFrequency, turbulence, turbulenceScale]);

  const bodiesKey = bodies ? JSON.stringify(bodies) : undefined;
  useEffect(() => {
    if (!bodiesKey) {
      if (wind.current) wind.current.bodies = undefined;
      return undefined;
    }
    const names = JSON.parse(bodiesKey) as string[];
    const resolve = (state: WorldState, strict: boolean) => {
      const records: BodyRecord[] = [];
      for (const name of names) {
        const entry = Object.hasOwn(state.bodies, name) ? state.bodies[name] : undefined;
        const record = entry && entry.first >= 0 ? world.bodyOf(entry.first) : undefined;
        if (record) records.push(record);
        else if (strict) throw new Error(`<Wind>: bodies names no body "${name}" in this <World>`);
      }
      if (wind.current) wind.current.bodies = records;
    };
    resolve(store.getState(), true);
    return subscribeRegistry(store, (state) => resolve(state, false));
  }, [world, store, bodiesKey, seed]);
  return null;
});
