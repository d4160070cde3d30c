import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { DragControls, ParticleCollisions, SoftBody, World } from '../src/react/index.js';
import { Scene } from './support/Scene.js';
import { Floor, Hint, SOFT_PALETTE, documents, seededRandom } from './support/softScenes.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Soft bodies',
  component: documents(SoftBody),
};
export default meta;

interface JellyArgs {
  /** Stiffness of the soft sticks along and across the surface. */
  stiffness: number;
  /** Share of the volume error repaired per pass. */
  pressure: number;
  /** Number of jellies dropped. */
  count: number;
}

/** Collision radius of every jelly particle; the floor collides this far below where it is drawn. */
const RADIUS = 0.04;

/** Where the jellies start: a loose, leaning tower, so each lands on the ones below. */
function jellyLayout(count: number) {
  const random = seededRandom(11);
  return Array.from({ length: count }, (_, i) => {
    const box = i % 2 === 0;
    const angle = i * 2.2;
    const reach = i === 0 ? 0 : 0.12 + 0.1 * random();
    return {
      key: i,
      shape: box ? ('box' as const) : ('sphere' as const),
      size: box ? 0.42 : 0.46,
      // Boxes: 4 squares per edge (10 cm); balls: 162 particles (6 cm apart). Both closer than two radii.
      resolution: box ? 4 : 2,
      position: [Math.cos(angle) * reach, 0.45 + i * 0.62, Math.sin(angle) * reach] as [number, number, number],
      color: SOFT_PALETTE[i % SOFT_PALETTE.length]!,
    };
  });
}

function JellyScene({ stiffness, pressure, count }: JellyArgs) {
  const [round, setRound] = useState(0);
  const jellies = jellyLayout(count);
  const overlay = (
    <>
      <button type="button" onClick={() => setRound((r) => r + 1)}>
        Drop again
      </button>
      <Hint>Grab a jelly and throw it at the others.</Hint>
    </>
  );
  return (
    <Scene camera={[2.0, 1.9, 3.2]} target={[0, 0.45, 0]} overlay={overlay}>
      <World key={`${round}/${count}`} damping={1.5}>
        <Floor height={-RADIUS} drawnAt={0} />
        <ParticleCollisions />
        {jellies.map((j) => (
          <SoftBody
            key={j.key}
            shape={j.shape}
            size={j.size}
            resolution={j.resolution}
            position={j.position}
            radius={RADIUS}
            mass={1}
            friction={0.6}
            stiffness={stiffness}
            pressure={pressure}
            castShadow
          >
            <meshStandardMaterial color={j.color} roughness={0.25} />
          </SoftBody>
        ))}
        <DragControls />
        <WorldProbe />
      </World>
    </Scene>
  );
}

/**
 * Jelly cubes and balls (`<SoftBody>`: a closed surface of particles held by
 * soft sticks along and across its edges, plus a pressure constraint that keeps
 * its volume) dropped in a leaning tower onto the floor and onto each other
 * (particle–particle collisions). They squash where they land and spring back.
 * Lower the stiffness for wobblier jelly, lower the pressure and they sag like
 * deflating balloons; change the count, press "Drop again", or grab a jelly with
 * the mouse and throw it.
 */
export const JellyDrop: StoryObj<JellyArgs> = {
  name: 'Jelly drop',
  render: (args) => <JellyScene {...args} />,
  args: { stiffness: 0.1, pressure: 1, count: 5 },
  argTypes: {
    stiffness: { control: { type: 'range', min: 0.02, max: 1, step: 0.01 }, description: 'Stiffness of the soft sticks along and across the surface.' },
    pressure: { control: { type: 'range', min: 0, max: 1, step: 0.05 }, description: 'Share of the volume error repaired per pass (0: no volume kept).' },
    count: { control: { type: 'range', min: 1, max: 8, step: 1 }, description: 'Number of jellies dropped (cubes and balls alternate).' },
  },
  parameters: { controls: { include: ['stiffness', 'pressure', 'count'] } },
};
