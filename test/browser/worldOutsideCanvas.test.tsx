import { createRoot } from 'react-dom/client';
import { Cloth, World } from '../../src/react/index.js';

// <World> outside <Canvas> says so in one clear error, not the fiber renderer's generic hook error.

it('<World> outside <Canvas> fails with one error that says where it belongs', async () => {
  const errors: unknown[] = [];
  const onEvent = (event: ErrorEvent) => {
    errors.push(event.error);
    event.preventDefault();
  };
  window.addEventListener('error', onEvent, true);
  const error = console.error;
  const logged: string[] = [];
  console.error = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
  const element = document.createElement('div');
  document.body.append(element);
  const root = createRoot(element);
  try {
    // As an app renders it (not inside act(), which would rethrow the error instead of reporting it).
    root.render(
      <World>
        <Cloth width={4} height={4} />
      </World>,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    window.removeEventListener('error', onEvent, true);
    console.error = error;
    root.unmount();
    element.remove();
  }
  const messages = errors.map((e) => (e as Error).message);
  expect(messages).toEqual([expect.stringMatching(/^<World> must be rendered inside @react-three\/fiber's <Canvas>/)]);
  expect([...messages, ...logged].filter((line) => line.includes('R3F: Hooks can only be used'))).toEqual([]);
});
