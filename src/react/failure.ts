import { createContext } from 'react';

/**
 * How a sinew component fails without throwing into React. The fiber renderer
 * hands every error an error boundary catches to `window.reportError` (its
 * root's `onCaughtError`), which fires the page's `error` event as an uncaught
 * exception would; so a sinew component's own errors never reach React: its
 * render is tried before it runs (see `guarded`) and its effects report to this
 * channel instead of throwing (see `hooks/effects.ts`).
 *
 * @internal One per guarded component instance.
 */
export class FailureChannel {
  /** The props last committed (set before any effect of the commit runs). */
  props: object | null = null;
  /** The props the last trial render ran with, and the error it threw (null: it rendered). */
  tried: { props: object; error: Error | null } | null = null;
  /** The current attempt already failed: later errors of it (StrictMode's second effect run) add nothing. */
  attemptFailed = false;
  /** The message reported last, so that props failing the same way again do not report it again. */
  reported: string | null = null;

  constructor(
    /** Reports `error` and makes the component render nothing until its props change. */
    private readonly onFail: (error: Error, props: object | null) => void,
  ) {}

  /** The current attempt fails with `error` (the first error of an attempt counts). */
  fail(error: Error, props: object | null = this.props): void {
    if (this.attemptFailed) return;
    this.attemptFailed = true;
    this.onFail(error, props);
  }
}

/** @internal The guarded component whose own code is running; null for users' components (their errors stay React's). */
export const FailureContext = createContext<FailureChannel | null>(null);

/** An `Error` for anything thrown. */
export function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

/**
 * What React itself throws through components to suspend them (a thenable, or
 * the `SuspenseException` of `use()`): never a failure, always rethrown.
 */
export function isReactSignal(thrown: unknown): boolean {
  if (thrown !== null && typeof thrown === 'object' && typeof (thrown as { then?: unknown }).then === 'function') return true;
  return thrown instanceof Error && thrown.message.startsWith('Suspense Exception');
}
