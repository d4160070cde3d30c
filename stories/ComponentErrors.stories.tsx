import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect } from 'storybook/test';
import { Cloth, Ground, Rope, Stick, World } from '../src/react/index.js';
import { waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { waitForSteps } from './support/softScenes.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Errors/Bad props',
};
export default meta;

/**
 * A scene with two broken components: a `<Cloth>` with a negative width and a
 * zero height, and a `<Stick>` whose ends name no particles. Each renders
 * nothing and reports its error (naming every bad prop) to `<World onError>`,
 * listed over the canvas; the floor and the swinging rope keep running.
 */
function BrokenScene() {
  const [errors, setErrors] = useState<string[]>([]);
  // Lists the components' errors; a slow machine's SlowerThanRealTime notice is about the machine, not the props.
  const onError = (error: Error) => {
    if (error.name === 'SlowerThanRealTime') return;
    setErrors((seen) => (seen.includes(error.message) ? seen : [...seen, error.message]));
  };
  return (
    <Scene
      camera={[0, 1.6, 4.5]}
      overlay={
        <ul data-testid="errors" style={{ margin: 0, paddingLeft: 16, color: '#ff9c8a' }}>
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      }
    >
      <World onError={onError}>
        <Ground />
        <Rope name="rope" from={[-1, 2.2, 0]} to={[0.6, 2.2, 0]} segments={16} pinStart />
        <Cloth name="flag" width={-3} height={0} corner={[0, 2, 0]} />
        <Stick a="nope" b="nada" />
        <WorldProbe />
      </World>
    </Scene>
  );
}

export const BadProps: StoryObj = {
  render: () => <BrokenScene />,
  play: async ({ canvasElement }) => {
    const probe = await waitForProbe();
    const { world } = probe;
    const end = world.getPosition(16);
    await waitForSteps(probe, 20);
    // The rope (17 particles) was built and swings; the cloth added none.
    await expect(world.particleCount).toBe(17);
    await expect(world.getPosition(16)[1]).toBeLessThan(end[1] - 0.05);
    const listed = Array.from(canvasElement.querySelectorAll('[data-testid="errors"] li'), (li) => li.textContent);
    await expect(listed).toEqual([
      '<Cloth>: width must be an integer >= 2, got -3; height must be an integer >= 2, got 0',
      '<Stick>: a names no particle "nope" in this <World>; b names no particle "nada" in this <World>',
    ]);
    // The canvas still draws: the scene was not unmounted.
    await expect(canvasElement.querySelector('canvas')).not.toBeNull();
  },
};
