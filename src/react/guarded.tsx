import { Component, createContext, createElement, type ContextType, type FunctionComponent, type ReactNode } from 'react';

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
 * particle name) leaves the rest of the scene running: the component renders
 * nothing, React unmounts what it had added (its effects clean up), and the
 * error goes to the nearest `<World onError>`, or to `console.error`. New
 * props, or the same props with an array in them changed (`position={[…]}`), try
 * again, so fixing the prop brings the component back.
 *
 * @internal Every component in `src/react/components` is exported through this.
 */
export function guarded<C extends (props: never) => ReactNode>(who: string, render: C): C {
  const Guarded = (props: object) => createElement(ErrorBoundary, { who, render: render as unknown as FunctionComponent<object>, props });
  // Typed as the component itself, so a generic one (`<Pin particle="doll.leftHand">`, checked names) stays generic.
  Guarded.displayName = (render as { displayName?: string }).displayName ?? render.name;
  return Guarded as unknown as C;
}

interface BoundaryProps {
  who: string;
  render: FunctionComponent<object>;
  props: object;
}

interface BoundaryState {
  error: Error | null;
  /** The props the component failed with; other props retry it. */
  failedWith: object | null;
}

class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  static override contextType = ComponentErrorContext;
  override state: BoundaryState = { error: null, failedWith: null };
  /** The message reported last, so that re-rendering with props that fail the same way does not report it again. */
  private reported: string | null = null;

  static getDerivedStateFromError(thrown: unknown): Partial<BoundaryState> {
    return { error: thrown instanceof Error ? thrown : new Error(String(thrown)) };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.error && state.failedWith && !sameProps(props.props, state.failedWith)) return { error: null, failedWith: null };
    return null;
  }

  override componentDidCatch(thrown: unknown): void {
    const error = thrown instanceof Error ? thrown : new Error(String(thrown));
    this.setState({ failedWith: this.props.props });
    if (error.message === this.reported) return;
    this.reported = error.message;
    const sink = this.context as ContextType<typeof ComponentErrorContext>;
    if (sink) sink.report(error, this.props.who);
    else console.error(error);
  }

  override componentDidUpdate(): void {
    // Rendered without an error again: a later failure with the same message is news.
    if (!this.state.error) this.reported = null;
  }

  override render(): ReactNode {
    return this.state.error ? null : createElement(this.props.render, this.props.props);
  }
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
