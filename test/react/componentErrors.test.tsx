import type { Mesh } from 'three';
import { Cloth } from '../../src/react/components/Cloth.js';
import { Ground } from '../../src/react/components/Ground.js';
import { Particle } from '../../src/react/components/Particle.js';
import { Rope } from '../../src/react/components/Rope.js';
import { Stick } from '../../src/react/components/Stick.js';
import { mountWorld, type Mounted } from './helpers.js';

// A sinew component with bad props renders nothing and reports its error
// (naming every bad prop) to <World onError>, or to the console; the rest of
// the scene keeps running, and fixed props bring the component back.

const rope = <Rope key="rope" name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={8} pinStart />;
const badCloth = <Cloth key="cloth" name="flag" width={-3} height={0} spacing={0.1} corner={[0, 3, 0]} />;
const goodCloth = <Cloth key="cloth" name="flag" width={4} height={3} spacing={0.1} corner={[0, 3, 0]} />;
const badStick = <Stick key="stick" a="nope" b="nada" />;

function meshes(m: Mounted): Mesh[] {
  return m.renderer.scene.findAllByType('Mesh').map((n) => n.instance as Mesh);
}

describe('a sinew component with bad props', () => {
  // Without onError a report goes to console.error; nothing else may log.
  let logged: { mock: { calls: unknown[][] }; mockRestore(): void };
  beforeEach(() => {
    logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  for (const strict of [false, true]) {
    it(`renders nothing, reports every bad prop to onError once, and leaves the rest running${strict ? ' (StrictMode)' : ''}`, async () => {
      const reported: [string, string][] = [];
      const onError = (error: Error, component: string) => void reported.push([component, error.message]);
      const m = await mountWorld([rope, badCloth, badStick], { onError, sleep: false }, strict);

      expect(reported).toEqual([
        ['<Cloth>', '<Cloth>: width must be an integer >= 2, got -3; height must be an integer >= 2, got 0'],
        ['<Stick>', '<Stick>: a names no particle "nope" in this <World>; b names no particle "nada" in this <World>'],
      ]);
      // Only the rope was built: its 9 particles, one tube mesh, no cloth.
      expect(m.world.particles.count).toBe(9);
      expect(meshes(m)).toHaveLength(1);
      const end = m.position('rope.end');
      await m.frames(30);
      expect(m.position('rope.end')[1]).toBeLessThan(end[1] - 0.5);

      // Re-rendering with the same bad values (inline arrays are new objects) reports nothing new.
      await m.update([rope, <Cloth key="cloth" name="flag" width={-3} height={0} spacing={0.1} corner={[0, 3, 0]} />, badStick], { onError, sleep: false });
      expect(reported).toHaveLength(2);

      // Fixed props bring the cloth back: 12 more particles and its mesh.
      await m.update([rope, goodCloth, badStick], { onError, sleep: false });
      expect(m.world.particles.count).toBe(9 + 12);
      expect(meshes(m)).toHaveLength(2);
      expect(m.position('flag.0')).toEqual([0, 3, 0]);
      expect(reported).toHaveLength(2);

      expect(await m.unmount()).toEqual([]);
    });
  }

  it('goes to console.error when the <World> has no onError, and stays down while its props stay bad', async () => {
    {
      // mountWorld turns reported errors into a failed mount; an app's <World> without onError logs them.
      const m = await mountWorld([rope, <Ground key="ground" friction={-1} restitution={2} />], { onError: undefined });
      // Once, and only sinew's report: nothing was thrown into React for it to report as well.
      expect(logged.mock.calls.map(([first]) => (first instanceof Error ? first.message : first))).toEqual([
        '<Ground>: friction must be a finite number in [0, Infinity], got -1; restitution must be a finite number in [0, 1], got 2',
      ]);
      expect(m.world.colliders).toHaveLength(0);
      await m.frames(10);
      expect(m.world.stepCount).toBe(10);
      const calls = logged.mock.calls.length;
      await m.update([rope, <Ground key="ground" friction={-1} restitution={2} />], { onError: undefined });
      expect(logged.mock.calls.length).toBe(calls);
      expect(m.world.colliders).toHaveLength(0);
      expect(await m.unmount()).toEqual([]);
    }
  });

  it('attaches a stick once a later render gives it names that exist', async () => {
    const reported: string[] = [];
    const props = { onError: (error: Error) => void reported.push(error.message) };
    const ends = [<Particle key="p" name="p" position={[0, 1, 0]} />, <Particle key="q" name="q" position={[1, 1, 0]} />];
    const m = await mountWorld([...ends, <Stick key="s" a="p" b="r" />], props);
    expect(reported).toEqual(['<Stick>: b names no particle "r" in this <World>']);
    expect(m.world.constraintCount).toBe(0);
    await m.update([...ends, <Stick key="s" a="p" b="q" />], props);
    expect(m.world.constraintCount).toBe(1);
    expect(await m.unmount()).toEqual([]);
  });
});
