import { Fragment, Suspense, createContext, createElement, useContext, useEffect, useInsertionEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { FailureChannel, FailureContext, asError, isReactSignal } from './failure.js';

/**
 * Where a sinew component's error goes: the nearest `<World>`'s `onError`, or
 * the console when it has none (or the component is outside any `<World>`).
 */
export interface ComponentErrorSink {
  /** Receives `error`, raised by the component `component` (`"<Cloth>"`). */
  report(error: Error, component: string): void;
}

/** @internal What a `<World>` provides for {@link guarded} components; null outside one. */
export const ComponentErrorContext = createContext<ComponentErrorSink | null>(null);

/**
 * Wraps a sinew component so that an error it raises (bad props, an unknown
 * particle name) is a report, not a crash: the component renders nothing, what
 * it had added is removed (its effects clean up), the error goes once to the
 * nearest `<World onError>` (or to `console.error`), and the rest of the scene
 * keeps running. New props, or the same props with an array in them changed
 * (`position={[…]}`), try again, so fixing the prop brings the component back.
 *
 * Nothing is thrown into React: the fiber renderer hands every error an error
 * boundary catches to `window.reportError`, which fires the page's `error`
 * event and logs "Uncaught". So each new set of props is first rendered on
 * trial (in a render React discards: it suspends, so none of its effects run),
 * the component renders for real only with props that passed, and its effects
 * report to the component instead of throwing (see `hooks/effects.ts`). Errors
 * of the user's components among its children stay React's.
 *
 * @internal Every component in `src/react/components` is exported through this.
 */
export function guarded<C extends (props: never) => ReactNode>(who: string, render: C): C {
  const Guarded = (props: object) => createElement(Guard, { who, render: render as unknown as Render, props });
  // Typed as the component itself, so a generic one (`<Pin particle="doll.leftHand">`, checked names) stays generic.
  Guarded.displayName = (render as { displayName?: string }).displayName ?? render.name;
  return Guarded as unknown as C;
}

/** A sinew component's render function, called as part of `Trial` and `Attempt`. */
type Render = (props: object) => ReactNode;

interface GuardProps {
  who: string;
  render: Render;
  props: object;
}

interface Failure {
  error: Error;
  /** The props it failed with; other props try again. */
  props: object | null;
}

function Guard({ who, render, props }: GuardProps) {
  const sink = useContext(ComponentErrorContext);
  const latest = useRef({ who, sink });
  const [failure, setFailure] = useState<Failure | null>(null);
  const [channel] = useState(
    () =>
      new FailureChannel((error, failedWith) => {
        if (error.message !== channel.reported) {
          channel.reported = error.message;
          const { who: component, sink: to } = latest.current;
          if (to) to.report(error, component);
          else console.error(error);
        }
        setFailure({ error, props: failedWith });
      }),
  );
  // Insertion effects run before every layout and passive effect of the commit, so a failing effect knows the props it ran with.
  useInsertionEffect(() => {
    latest.current = { who, sink };
    channel.props = props;
  });
  // Rendered without an error again: a later failure with the same message is news.
  const failed = failure !== null && failure.props !== null && sameProps(props, failure.props);
  useEffect(() => {
    if (!failed && !channel.attemptFailed) channel.reported = null;
  });

  const { children } = props as { children?: ReactNode };
  // The user's children get no failure channel: their errors are theirs, and React's.
  const scoped = useMemo(() => (children == null ? children : createElement(FailureContext.Provider, { value: null }, children)), [children]);
  const given = useMemo(() => (children == null ? props : { ...props, children: scoped }), [props, children, scoped]);

  if (failed) return null;
  return createElement(
    Fragment,
    null,
    createElement(Suspense, { fallback: null }, createElement(Trial, { channel, render, props: given })),
    createElement(FailureContext.Provider, { value: channel }, createElement(Attempt, { channel, render, props: given })),
  );
}

interface PartProps {
  channel: FailureChannel;
  render: Render;
  props: object;
}

/**
 * Renders the component with new props once, on trial, and records whether it
 * threw. The render is then discarded by suspending (a thrown promise that
 * settles at once), so its hooks' effects never run and nothing is committed;
 * the settled promise makes React render this again, which finds the props tried.
 */
function Trial({ channel, render, props }: PartProps): ReactNode {
  if (channel.tried && sameProps(props, channel.tried.props)) return null;
  let error: Error | null = null;
  try {
    render(props);
  } catch (thrown) {
    if (!isReactSignal(thrown)) error = asError(thrown);
  }
  channel.tried = { props, error };
  throw Promise.resolve();
}

/**
 * The component itself, rendered with props its trial passed. With props that
 * failed it renders, for this one commit, what it rendered last (its hooks must
 * run in the same order as before), and reports the failure, which unmounts it.
 */
function Attempt({ channel, render, props }: PartProps): ReactNode {
  // A new attempt: its first failure is reported.
  useState(() => (channel.attemptFailed = false));
  const lastGood = useRef<object | null>(null);
  const rendered: { props: object | null } = { props: null };
  useLayoutEffect(() => {
    if (rendered.props) lastGood.current = rendered.props;
  });
  const tried = channel.tried && sameProps(props, channel.tried.props) ? channel.tried : null;
  if (tried?.error) {
    const report = createElement(Report, { channel, error: tried.error });
    return lastGood.current ? createElement(Fragment, null, render(lastGood.current), report) : report;
  }
  try {
    const out = render(props);
    rendered.props = props;
    return out;
  } catch (thrown) {
    // Props that passed their trial threw after all (something besides the props changed): a
    // first render can still report it, since this attempt is unmounted before it renders again.
    if (isReactSignal(thrown) || lastGood.current) throw thrown;
    return createElement(Report, { channel, error: asError(thrown) });
  }
}

function Report({ channel, error }: { channel: FailureChannel; error: Error }): null {
  useLayoutEffect(() => channel.fail(error), [channel, error]);
  return null;
}

/** Same keys with the same values, arrays compared element by element (inline `position={[0, 1, 0]}` is new every render). */
function sameProps(a: object, b: object): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const key of ka) {
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (Object.is(x, y)) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length || x.some((v, i) => !Object.is(v, y[i]))) return false;
  }
  return true;
}
