import { useEffect } from './effects.js';
import type { World } from '../../core/world.js';
import { useSinew } from '../context.js';
import { useLatest } from './useLatest.js';

/**
 * Calls `callback` at the start of every fixed step of the nearest `<World>`
 * (before forces and integration): the place to drive pins, apply forces or
 * read input at the simulation rate. The latest callback is called; it is not
 * re-subscribed when it changes. It runs every step: do not allocate in it.
 *
 * @example
 * ```tsx
 * function Motor({ pin }: { pin: PinHandle }) {
 *   useBeforeStep((world) => pin.setTarget([Math.cos(world.time), 1, Math.sin(world.time)]));
 *   return null;
 * }
 * ```
 */
export function useBeforeStep(callback: (world: World) => void): void {
  useStepCallback('useBeforeStep()', 'before', callback);
}

/**
 * Calls `callback` at the end of every fixed step of the nearest `<World>`
 * (after relaxation and friction): the place to read results or tear things.
 *
 * @example
 * ```tsx
 * function Breaker({ stick }: { stick: StickHandle }) {
 *   const world = useWorld();
 *   useAfterStep(() => {
 *     if (stick.id >= 0 && stick.strain() > 0.5) world.remove(stick.id);
 *   });
 *   return null;
 * }
 * ```
 */
export function useAfterStep(callback: (world: World) => void): void {
  useStepCallback('useAfterStep()', 'after', callback);
}

function useStepCallback(who: string, when: 'before' | 'after', callback: (world: World) => void): void {
  const { world, worker } = useSinew(who);
  if (worker !== null)
    throw new Error(
      `${who} cannot run in a <World worker>: its callback would run in every step, and the steps run in the physics worker, where this thread's variables do not exist. Do the work once per frame in useFrame instead (before the step: priority STEP_PRIORITY - 1, whose changes apply at the start of the next step; after it: the default priority, which reads the latest finished step), or remove the worker prop from this <World>`,
    );
  if (typeof callback !== 'function') throw new TypeError(`${who}: callback must be a function, got ${String(callback)}`);
  const latest = useLatest(callback);
  useEffect(() => {
    const run = (w: World) => latest.current(w);
    const id = when === 'before' ? world.onBeforeStep(run) : world.onAfterStep(run);
    return () => world.remove(id);
  }, [world, when, latest]);
}
