import { useRef } from 'react';
import { useEffect } from './effects.js';
import { PropChecks } from '../badProps.js';
import { requireParticle, resolveParticle, type ParticleRef } from '../particleRef.js';
import { subscribeRegistry, type WorldStore } from '../store.js';
import { useLatest } from './useLatest.js';

/** Something attached to particles (a stick, a pin): the core may remove it with a particle. */
export interface Attachment {
  /** False once the core removed it (its particle went away). */
  alive(): boolean;
  detach(): void;
}

/**
 * Attaches something to the particles `refs` name, in a passive effect: layout
 * effects (where particles and bodies are added) have all run by then, so a
 * `<Stick>` finds a `<Particle>` mounted in the same commit wherever it sits in
 * the tree. An unknown reference at mount is an error naming the component and
 * prop. Afterwards the attachment follows its particles: when one is removed and
 * re-created (a remount, StrictMode's double effects) it is attached again. New
 * `refs` that name the same particles (an inline `{ id }` each render) keep it.
 *
 * @example
 * ```ts
 * const refs = useMemo(() => [a, b], [a, b]);
 * useAttachment(store, '<Stick>', ['a', 'b'], refs, ([ia, ib]) => {
 *   const id = world.addStick(ia!, ib!);
 *   return { alive: () => world.hasConstraint(id), detach: () => world.remove(id) };
 * });
 * ```
 */
export function useAttachment(store: WorldStore, who: string, props: readonly string[], refs: readonly ParticleRef[], attach: (ids: readonly number[]) => Attachment): void {
  const latestAttach = useLatest(attach);
  const latestProps = useLatest(props);
  // Outlives the effect below, so a re-run with the same particles keeps the attachment.
  const held = useRef<Held>({ store: null, ids: [] });
  useEffect(() => () => release(held.current), []);
  useEffect(() => {
    const kept = held.current;
    if (kept.store !== store) release(kept);
    kept.store = store;
    const detach = () => release(kept);
    const sync = (strict: boolean) => {
      const state = store.getState();
      const next: number[] = [];
      // At mount every reference is checked before throwing, so the error names each unknown one.
      const checks = new PropChecks(who);
      for (let i = 0; i < refs.length; i++) {
        const ref = refs[i]!;
        const id = strict ? checks.run(() => requireParticle(state, ref, who, latestProps.current[i] ?? `particle ${i}`)) : resolveParticle(state, ref);
        next.push(id!);
        if (!strict && id === undefined) return detach();
      }
      checks.throwIfAny();
      if (kept.current?.alive() && next.length === kept.ids.length && next.every((id, i) => id === kept.ids[i])) return;
      detach();
      kept.ids = next;
      kept.current = latestAttach.current(next);
    };
    sync(true);
    return subscribeRegistry(store, () => sync(false));
  }, [store, who, refs, latestAttach, latestProps]);
}

/** What an attachment holds between effect runs. */
interface Held {
  store: WorldStore | null;
  ids: number[];
  current?: Attachment;
}

function release(held: Held): void {
  if (held.current?.alive()) held.current.detach();
  held.current = undefined;
  held.ids = [];
}
