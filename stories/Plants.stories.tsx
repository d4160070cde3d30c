import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import { Color, DoubleSide } from 'three';
import { DragControls, Plant, Wind, World } from '../src/react/index.js';
import { Scene } from './support/Scene.js';
import { Floor, Hint, documents, seededRandom } from './support/softScenes.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Plants',
  component: documents(Plant),
};
export default meta;

interface GrassArgs {
  /** Mean wind speed (m/s). */
  wind: number;
  /** Stiffness of the blades' support sticks. */
  stiffness: number;
  /** Number of blades in the patch. */
  blades: number;
}

/** Radius of the patch of grass (m). */
const PATCH = 0.9;

/** The same patch on every load: blades scattered over a disc, each turned its own way, in greens from deep to sunlit. */
function grassLayout(count: number) {
  const random = seededRandom(2024);
  const deep = new Color('#2f7a34');
  const light = new Color('#a9c94f');
  const color = new Color();
  return Array.from({ length: count }, (_, i) => {
    // Uniform over the disc, a little denser towards the middle.
    const r = PATCH * Math.pow(random(), 0.6);
    const a = random() * Math.PI * 2;
    const turn = random() * Math.PI;
    const height = 0.3 + 0.35 * random() * (1 - (0.4 * r) / PATCH);
    color.copy(deep).lerp(light, random());
    return {
      key: i,
      root: [r * Math.cos(a), 0, r * Math.sin(a)] as [number, number, number],
      across: [Math.cos(turn), 0, Math.sin(turn)] as [number, number, number],
      height,
      width: 0.035 + 0.02 * random(),
      color: `#${color.getHexString()}`,
    };
  });
}

function GrassScene({ wind, stiffness, blades }: GrassArgs) {
  const layout = useMemo(() => grassLayout(blades), [blades]);
  return (
    <Scene camera={[1.25, 0.85, 1.75]} target={[0, 0.28, 0]} overlay={<Hint>Brush through the grass: grab a blade and pull it over.</Hint>}>
      <World damping={0.5} sleep={false}>
        <Floor />
        {layout.map((blade) => (
          <Plant key={blade.key} root={blade.root} across={blade.across} height={blade.height} width={blade.width} tipWidth={0.004} segments={5} mass={0.01} stiffness={stiffness} castShadow>
            <meshStandardMaterial color={blade.color} side={DoubleSide} roughness={0.7} />
          </Plant>
        ))}
        <Wind velocity={[wind, 0, wind * 0.25]} gust={0.6} gustFrequency={0.5} turbulence={0.5} turbulenceScale={0.6} seed={5} />
        <DragControls radius={12} />
        <WorldProbe />
      </World>
      {/* A patch of earth under the grass. */}
      <mesh rotation-x={-Math.PI / 2} position={[0, 0.004, 0]} receiveShadow>
        <circleGeometry args={[PATCH + 0.15, 48]} />
        <meshStandardMaterial color="#4a3a2a" roughness={1} />
      </mesh>
    </Scene>
  );
}

/**
 * A patch of grass in gusty `<Wind>`: every blade is a `<Plant>`, the paper's
 * section 4 plant, a strip of particles folded along its midrib with support
 * sticks between every two particles that share a neighbour, relaxed with a
 * single pass, so it bends in the wind and springs back. The blades stand at
 * random angles, so each catches the wind differently. Change the wind, the
 * blades' stiffness and their number; grab a blade with the mouse, bend it over
 * and let go.
 */
export const GrassInWind: StoryObj<GrassArgs> = {
  name: 'Grass in wind',
  render: (args) => <GrassScene {...args} />,
  args: { wind: 6, stiffness: 0.5, blades: 80 },
  argTypes: {
    wind: { control: { type: 'range', min: 0, max: 15, step: 0.5 }, description: 'Mean wind speed (m/s); gusts swing it by ±60%.' },
    stiffness: { control: { type: 'range', min: 0.1, max: 1, step: 0.05 }, description: 'Stiffness of the support sticks: how firmly a blade springs back.' },
    blades: { control: { type: 'range', min: 10, max: 200, step: 10 }, description: 'Number of blades in the patch.' },
  },
  parameters: { controls: { include: ['wind', 'stiffness', 'blades'] } },
};
