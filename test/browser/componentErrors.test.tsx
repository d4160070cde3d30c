import { Component, type ReactNode } from 'react';
import { Cloth, Particle, Rope, Stick, World } from '../../src/react/index.js';
import { frames, mountPage, until, type PageScene } from './scene.js';

// A sinew component with bad props is a report, not a crash: in Chromium, with
// the fiber renderer (which hands every error an error boundary catches to
// window.reportError), nothing reaches the window's error event, window.onerror
// or the console as "Uncaught", and each bad component is reported exactly once.

interface PageErrors {
  /** Errors that fired the window's `error` event. */
  events: unknown[];
  /** Errors `window.onerror` received. */
  onerror: unknown[];
  /** Everything logged with console.error or console.warn, as text. */
  logged: string[];
  /** Errors logged with console.error, as given. */
  consoleErrors: unknown[];
}

let page: PageErrors;
let stop: () => void;
let scene: PageScene | undefined;

beforeEach(() => {
  page = { events: [], onerror: [], logged: [], consoleErrors: [] };
  // Capturing and first, as an error monitor would; cancelling keeps the test runner's own
  // handler from failing the run before the assertions below say what happened.
  const onEvent = (event: ErrorEvent) => {
    page.events.push(event.error);
    event.preventDefault();
  };
  window.addEventListener('error', onEvent, true);
  const previous = window.onerror;
  window.onerror = (_message, _source, _line, _column, error) => void page.onerror.push(error);
  const error = console.error;
  const warn = console.warn;
  console.error = (...args: unknown[]) => {
    page.consoleErrors.push(args[0]);
    page.logged.push(args.map(String).join(' '));
  };
  console.warn = (...args: unknown[]) => void page.logged.push(args.map(String).join(' '));
  stop = () => {
    window.removeEventListener('error', onEvent, true);
    window.onerror = previous;
    console.error = error;
    console.warn = warn;
  };
});

afterEach(() => {
  scene?.unmount();
  scene = undefined;
  stop();
});

/** Nothing reached the window as an uncaught error. */
function expectNoCrash() {
  expect(page.events, "the window's error event").toEqual([]);
  expect(page.onerror, 'window.onerror').toEqual([]);
  expect(
    page.logged.filter((line) => line.includes('Uncaught')),
    'console lines saying "Uncaught"',
  ).toEqual([]);
}

const rope = <Rope key="rope" name="rope" from={[-1, 2, 0]} to={[0, 2, 0]} segments={8} pinStart />;
const CLOTH_ERROR = '<Cloth>: width must be an integer >= 2, got -3; height must be an integer >= 2, got 0';
const STICK_ERROR = '<Stick>: a names no particle "nope" in this <World>; b names no particle "nada" in this <World>';

for (const strict of [false, true]) {
  describe(`a sinew component with bad props${strict ? ' (StrictMode)' : ''}`, () => {
    it('reports each bad component once to onError, and nothing reaches the window', async () => {
      const reported: [string, string][] = [];
      const onError = (error: Error, component: string) => void reported.push([component, error.message]);
      const content = (cloth: ReactNode) => (handle: ReactNode) => (
        <World onError={onError} sleep={false}>
          {rope}
          {cloth}
          <Stick a="nope" b="nada" />
          {handle}
        </World>
      );
      scene = await mountPage(content(<Cloth name="flag" width={-3} height={0} corner={[0, 3, 0]} />), strict);
      await until(() => reported.length >= 2, 'both errors were reported');
      await frames(10);
      expect(reported).toEqual([
        ['<Cloth>', CLOTH_ERROR],
        ['<Stick>', STICK_ERROR],
      ]);
      expectNoCrash();
      expect(page.consoleErrors).toEqual([]);

      // The rest of the scene runs: the rope was built and the world steps.
      const world = scene.world();
      expect(world.particleCount).toBe(9);
      const steps = world.stepCount;
      await frames(10);
      expect(world.stepCount).toBeGreaterThan(steps);

      // The same bad values again (new inline arrays) report nothing new; fixed props bring the cloth back.
      await scene.render(content(<Cloth name="flag" width={-3} height={0} corner={[0, 3, 0]} />));
      expect(reported).toHaveLength(2);
      await scene.render(content(<Cloth name="flag" width={4} height={3} corner={[0, 3, 0]} />));
      await until(() => world.particleCount === 9 + 12, 'the fixed cloth was built');
      expect(reported).toHaveLength(2);
      expectNoCrash();
    });

    it('reports a prop that turns bad on a later render once, and removes what the component had added', async () => {
      const reported: string[] = [];
      const content = (compliance: number) => (handle: ReactNode) => (
        <World onError={(error) => void reported.push(error.message)}>
          {rope}
          <Stick a="rope.0" b="rope.end" compliance={compliance} />
          {handle}
        </World>
      );
      scene = await mountPage(content(0), strict);
      const world = scene.world();
      await until(() => world.constraintCount > 8, 'the stick was added');
      const withStick = world.constraintCount;
      await scene.render(content(-1));
      await until(() => reported.length > 0, 'the error was reported');
      await frames(5);
      expect(reported).toEqual(['<Stick>: compliance must be a finite number in [0, Infinity], got -1']);
      expect(world.constraintCount).toBe(withStick - 1);
      expectNoCrash();
      await scene.render(content(1e-4));
      await until(() => world.constraintCount === withStick, 'the fixed stick was added again');
      expect(reported).toHaveLength(1);
    });

    it('goes to console.error once per bad component without onError, and nothing reaches the window', async () => {
      scene = await mountPage(
        (handle) => (
          <World>
            {rope}
            <Cloth name="flag" width={-3} height={0} corner={[0, 3, 0]} />
            <Stick a="nope" b="nada" />
            {handle}
          </World>
        ),
        strict,
      );
      await until(() => page.consoleErrors.length >= 2, 'both errors were logged');
      await frames(10);
      expect(page.consoleErrors.map((error) => (error as Error).message)).toEqual([CLOTH_ERROR, STICK_ERROR]);
      expectNoCrash();
    });
  });
}

class UserBoundary extends Component<{ caught: Error[]; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error) {
    this.props.caught.push(error);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

function Boom(): ReactNode {
  throw new Error('a user component broke');
}

it("leaves a user's own error to React: it reaches the user's error boundary, not onError", async () => {
  const reported: string[] = [];
  const caught: Error[] = [];
  scene = await mountPage((handle) => (
    <World onError={(error) => void reported.push(error.message)}>
      {rope}
      <UserBoundary caught={caught}>
        <Particle name="p" position={[1, 1, 0]}>
          <Boom />
        </Particle>
      </UserBoundary>
      {handle}
    </World>
  ));
  await until(() => caught.length > 0, "the user's boundary caught the error");
  expect(caught.map((error) => error.message)).toEqual(['a user component broke']);
  expect(reported).toEqual([]);
  // React's own path under the fiber renderer: the caught error goes to window.reportError.
  expect(page.events.map((error) => (error as Error).message)).toContain('a user component broke');
});
