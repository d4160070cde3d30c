import * as React from 'react';
import { FailureContext, asError, type FailureChannel } from '../failure.js';

// React's `useEffect` and `useLayoutEffect`, for sinew's own hooks and components.
// Inside a sinew component (one `guarded` wraps) an effect that throws (a builder
// rejecting `width: -3`, a name that names no particle) reports the error to the
// component's failure channel instead of throwing it into React, whose error
// boundaries hand every error to `window.reportError`. Elsewhere (a user's
// component calling `useCloth`) they are React's own and throw as usual.

/**
 * `React.useEffect`, reporting an error inside a sinew component (see above).
 *
 * @internal
 */
export function useEffect(effect: React.EffectCallback, deps?: React.DependencyList): void {
  const channel = React.useContext(FailureContext);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's dependencies, checked at the call site
  React.useEffect(channel ? () => reporting(channel, effect) : effect, deps);
}

/**
 * `React.useLayoutEffect`, reporting an error inside a sinew component (see above).
 *
 * @internal
 */
export function useLayoutEffect(effect: React.EffectCallback, deps?: React.DependencyList): void {
  const channel = React.useContext(FailureContext);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's dependencies, checked at the call site
  React.useLayoutEffect(channel ? () => reporting(channel, effect) : effect, deps);
}

function reporting(channel: FailureChannel, effect: React.EffectCallback): ReturnType<React.EffectCallback> {
  // A failed attempt is about to unmount: its later effects (StrictMode's second run) stay off.
  if (channel.attemptFailed) return undefined;
  try {
    return effect();
  } catch (error) {
    channel.fail(asError(error));
    return undefined;
  }
}
