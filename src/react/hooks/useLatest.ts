import { useRef, type RefObject } from 'react';
import { useLayoutEffect } from './effects.js';

/**
 * A ref that holds the latest value, for effects that must read current props
 * without re-running (creation effects read the initial options from it;
 * step callbacks call the latest function without re-subscribing).
 *
 * @example
 * ```ts
 * const latest = useLatest(options);
 * useLayoutEffect(() => create(latest.current), [world]); // re-created only with the world
 * ```
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  // Declared before the effects that read it, so it is current when they run.
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
