import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { DoubleSide } from 'three';
import { expect, waitFor } from 'storybook/test';
import { BoxCollider, Cloth, Debug, DragControls, Ground, Ragdoll, RigidBody, Rope, SoftBody, SphereCollider, Wind, World, type RagdollApi } from '../src/index.js';
import { Scene } from './support/Scene.js';
import { WorldProbe } from './support/WorldProbe.js';
import { dragTo, particleOnScreen, pointer, sleep, waitForProbe } from './support/interaction.js';

/** Controls of the playground. */
interface PlaygroundArgs {
  /** Wind speed on the flag (m/s). */
  windSpeed: number;
  /** Show `<Debug>`: particles, sticks coloured by strain, collider wireframes and the stats panel. */
  debug: boolean;
  /** Verlet + relaxation substeps per 1/60 s step. */
  substeps: number;
  /** Relaxation passes per substep. */
  iterations: number;
  /** Simulated seconds per real second. */
  timeScale: number;
}

/** Handles the play function reaches for (set while the story is mounted). */
const handles: { doll: RagdollApi | null } = { doll: null };

/** Quarter turn about x: the ragdoll lies face down, head towards +z. */
const LYING = [Math.SQRT1_2, 0, 0, Math.SQRT1_2] as const;

/**
 * Everything at once in one `<World>`: a flag in the wind, a rope swinging from a
 * beam, a jelly, tumbling boxes and a ragdoll dropped over a boulder, all draggable.
 */
function Playground({ windSpeed, debug, substeps, iterations, timeScale }: PlaygroundArgs) {
  const doll = useRef<RagdollApi>(null);
  return (
    <Scene camera={[0.2, 2.3, 5.6]} target={[0, 0.9, 0]}>
      <World substeps={substeps} iterations={iterations} timeScale={timeScale}>
        <WorldProbe name="playground" />
        <Ground>
          <mesh rotation-x={-Math.PI / 2} receiveShadow>
            <planeGeometry args={[40, 40]} />
            <meshStandardMaterial color="#3a3f47" />
          </mesh>
        </Ground>

        {/* The flag on its pole, in the wind. */}
        <mesh position={[-2.6, 1.35, -1]} castShadow>
          <cylinderGeometry args={[0.035, 0.035, 2.7, 10]} />
          <meshStandardMaterial color="#adb5bd" />
        </mesh>
        <Cloth name="flag" width={26} height={16} spacing={0.065} corner={[-2.6, 2.65, -1]} pin="left" mass={0.3} castShadow>
          <meshStandardMaterial color="#e03131" side={DoubleSide} roughness={0.7} />
        </Cloth>
        <Wind velocity={[windSpeed, 0, windSpeed * 0.25]} gust={0.5} turbulence={0.4} bodies={['flag']} />

        {/* A rope let go from a beam, so it swings. */}
        <mesh position={[1.6, 2.5, -1]} castShadow>
          <boxGeometry args={[1.8, 0.08, 0.08]} />
          <meshStandardMaterial color="#8d6e63" />
        </mesh>
        <mesh position={[2.45, 1.25, -1]} castShadow>
          <boxGeometry args={[0.08, 2.5, 0.08]} />
          <meshStandardMaterial color="#8d6e63" />
        </mesh>
        <Rope name="rope" from={[0.8, 2.45, -1]} to={[2.2, 2.45, -1]} segments={24} pinStart radius={0.02} thickness={0.025} castShadow />

        {/* A jelly dropped on a crate. */}
        <BoxCollider position={[1.5, 0.25, 0.9]} size={[0.9, 0.5, 0.9]}>
          <mesh castShadow receiveShadow>
            <boxGeometry args={[0.9, 0.5, 0.9]} />
            <meshStandardMaterial color="#6c5b4b" />
          </mesh>
        </BoxCollider>
        <SoftBody name="jelly" shape="sphere" position={[1.5, 1.6, 0.9]} size={0.6} radius={0.02} color="#51cf66" castShadow />

        {/* Boxes tumbling down. */}
        <RigidBody shape="box" size={0.35} position={[-0.25, 1.2, 0.4]} rotation={[0.4, 0.2, 0.3]} radius={0.01} color="#ffa94d" castShadow />
        <RigidBody shape="box" size={[0.5, 0.25, 0.3]} position={[0.35, 1.9, 0.2]} rotation={[0.1, 0.7, -0.4]} angularVelocity={[0, 2, 3]} radius={0.01} color="#4dabf7" castShadow />
        <RigidBody shape="box" size={0.28} position={[0.05, 2.6, 0.7]} rotation={[-0.5, 0, 0.6]} radius={0.01} color="#ffd43b" castShadow />

        {/* A ragdoll dropped face down over a boulder. */}
        <SphereCollider position={[-1.35, 0.4, 0.9]} radius={0.4}>
          <mesh castShadow receiveShadow>
            <sphereGeometry args={[0.4, 32, 16]} />
            <meshStandardMaterial color="#868e96" />
          </mesh>
        </SphereCollider>
        <Ragdoll
          ref={(api: RagdollApi | null) => {
            doll.current = api;
            handles.doll = api;
          }}
          name="doll"
          feet={[-1.35, 1.25, 0]}
          rotation={LYING}
          pose="T"
          height={1.6}
          color="#e9c9a7"
          castShadow
        />

        <DragControls />
        {debug && <Debug pointSize={4} />}
      </World>
    </Scene>
  );
}

const meta: Meta<typeof Playground> = {
  title: 'Teaching/Playground',
  component: Playground,
  args: { windSpeed: 4, debug: true, substeps: 10, iterations: 1, timeScale: 1 },
  argTypes: {
    windSpeed: { control: { type: 'range', min: 0, max: 15, step: 0.5 }, description: 'Wind speed on the flag (m/s).' },
    debug: { control: 'boolean', description: '`<Debug>`: particles, sticks coloured by strain, collider wireframes and the stats panel.' },
    substeps: { control: { type: 'range', min: 1, max: 20, step: 1 }, description: 'Verlet + relaxation substeps per 1/60 s step.' },
    iterations: { control: { type: 'range', min: 1, max: 10, step: 1 }, description: 'Relaxation passes per substep.' },
    timeScale: { control: { type: 'range', min: 0.1, max: 2, step: 0.1 }, description: 'Simulated seconds per real second (0.2: slow motion).' },
  },
  parameters: {
    docs: {
      description: {
        component:
          'Every kind of sinew body in one `<World>`: `<Cloth>` (a flag in `<Wind>`), `<Rope>`, `<SoftBody>`, `<RigidBody>` boxes and a `<Ragdoll>`, with `<Ground>`, `<BoxCollider>` and `<SphereCollider>`. `<DragControls>` lets you grab anything; `<Debug>` draws what the solver sees and a stats panel with the measured milliseconds per step.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<typeof Playground>;

/**
 * The ragdoll drops over the boulder, the boxes tumble, the jelly wobbles on its crate, the
 * rope swings and the flag flies. Press on anything and drag it (a flick throws it); turn
 * `debug` off to see the bodies alone, or raise the wind.
 */
export const Everything: Story = {
  play: async ({ canvasElement }) => {
    const probe = await waitForProbe('playground');
    // <Debug>'s stats panel: counts and a measured ms per step.
    await waitFor(
      () => {
        const panel = Array.from(canvasElement.querySelectorAll('div')).find((d) => /^particles \d+ · constraints \d+ · colliders \d+ · \d+\.\d{2} ms\/step$/.test(d.textContent ?? ''));
        expect(panel, 'the stats panel').toBeTruthy();
        expect(Number(/(\d+\.\d{2}) ms\/step/.exec(panel!.textContent!)![1])).toBeGreaterThan(0);
      },
      { timeout: 10_000 },
    );
    // Drag the ragdoll by the head: it follows the pointer.
    await sleep(800);
    const head = handles.doll!.part('head');
    const from = particleOnScreen(probe, head);
    const before = probe.world.getPosition(head);
    const to: [number, number] = [from[0] + 30, from[1] - 120];
    await dragTo(probe.canvas, from, to, 20, 800);
    // Held until the head has risen: a loaded machine runs the world slower than the wall clock.
    await waitFor(() => expect(probe.world.getPosition(head)[1] - before[1], 'the head was lifted').toBeGreaterThan(0.3), { timeout: 5_000 });
    pointer(probe.canvas, 'pointerup', to[0], to[1]);
    // Let go after holding still, it drops where it is and stays in view.
    await sleep(800);
    const [x, y] = particleOnScreen(probe, head);
    const rect = probe.canvas.getBoundingClientRect();
    await expect(x > 0 && x < rect.width && y > 0 && y < rect.height, 'the ragdoll is still in view').toBe(true);
  },
};
