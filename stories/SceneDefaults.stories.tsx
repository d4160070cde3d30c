import type { Meta, StoryObj } from '@storybook/react-vite';
import { OrbitControls } from '@react-three/drei';
import { Canvas } from '@react-three/fiber';
import { expect } from 'storybook/test';
import { DragControls, Ground, Ragdoll, World } from '../src/react/index.js';
import { particleOnScreen, pointer, waitForProbe } from './support/interaction.js';
import { waitForSteps } from './support/softScenes.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Scene defaults',
};
export default meta;

/**
 * What a first scene gets with nothing but defaults: `<Ground />` draws a floor,
 * and `<OrbitControls />` without `makeDefault` stays still while
 * `<DragControls />` drags the ragdoll (pressing beside it still orbits).
 */
function FirstScene() {
  return (
    <div style={{ width: '100%', height: '100vh', minHeight: 480 }}>
      <Canvas camera={{ position: [0, 1.5, 4], fov: 50 }}>
        <color attach="background" args={['#15171c']} />
        <hemisphereLight args={['#dfe8ff', '#2a2620', 0.9]} />
        <directionalLight position={[4, 8, 3]} intensity={1.6} />
        <OrbitControls target={[0, 0.6, 0]} />
        <World>
          <Ground />
          <Ragdoll name="doll" feet={[0, 0.05, 0]} pose="T" />
          <DragControls />
          <WorldProbe />
        </World>
      </Canvas>
    </div>
  );
}

export const OrbitControlsWithoutMakeDefault: StoryObj = {
  render: () => <FirstScene />,
  play: async () => {
    const probe = await waitForProbe();
    const { world, camera, canvas } = probe;
    await waitForSteps(probe, 30); // standing, about to fall
    const body = world.bodies.find((b) => b.kind === 'ragdoll' && b.alive);
    if (!body) throw new Error('no ragdoll');
    // The ragdoll's highest particle: its head.
    let head = body.first;
    for (let i = body.first; i < body.first + body.count; i++) if (world.getPosition(i)[1] > world.getPosition(head)[1]) head = i;
    const cameraAt = camera.position.toArray();
    const headX = world.getPosition(head)[0];
    const [x, y] = particleOnScreen(probe, head);
    pointer(canvas, 'pointerdown', x, y);
    for (let k = 1; k <= 10; k++) {
      await waitForSteps(probe, 2);
      pointer(canvas, 'pointermove', x + 8 * k, y - 6 * k);
    }
    await waitForSteps(probe, 4);
    await expect(world.pins.count).toBeGreaterThan(0); // held
    await expect(world.getPosition(head)[0]).toBeGreaterThan(headX + 0.2); // and dragged to the right
    pointer(canvas, 'pointerup', x + 80, y - 60);
    // Dragged, and the camera did not orbit.
    await expect(camera.position.toArray()).toEqual(cameraAt);
  },
};
