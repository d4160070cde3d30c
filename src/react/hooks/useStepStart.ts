import { useEffect } from './effects.js';
import { useSinew } from '../context.js';

/**
 * @internal Runs `capture` with the world as it is at the start of each step, for what a
 * renderer interpolates from there (a rigid body's transform, limb frames): before every step
 * on a main-thread world (`onBeforeStep`); in a `<World worker>`, once per frame that brought
 * new steps, with the shadow's positions set to the start of the latest one
 * (`WorkerLink.atStepStart`: one swap of the positions for all captures), which is what the last `onBeforeStep` of the frame would have seen.
 * `capture` must be stable (memoised): a new one re-registers.
 */
export function useStepStart(who: string, capture: () => void): void {
  const { world, worker } = useSinew(who);
  useEffect(() => {
    if (worker === null) {
      const id = world.onBeforeStep(capture);
      return () => world.remove(id);
    }
    return worker.atStepStart(capture);
  }, [world, worker, capture]);
}
