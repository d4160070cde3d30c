import { Particle } from '../../src/react/components/Particle.js';
import { Pin } from '../../src/react/components/Pin.js';
import { Rope } from '../../src/react/components/Rope.js';
import { mountWorld } from './helpers.js';

// <Pin compliance damping>: the pin becomes a zero-length spring (see
// test/core/compliantPins.test.ts for the physics); these check the props
// reach the world, change in place, and that bad values are reported naming
// the component, the prop and the value.

describe('<Pin> with a compliance', () => {
  it('hangs its particle on a spring, and changes compliance and damping in place', async () => {
    const scene = (compliance?: number, damping?: number) => [
      <Particle key="p" name="bob" position={[0, 1, 0]} mass={2} />,
      <Pin key="pin" particle="bob" compliance={compliance} damping={damping} />,
    ];
    const m = await mountWorld(scene(1e-3, 50), { sleep: false, damping: 0 });
    const w = m.world;
    expect(w.pins.count).toBe(1);
    expect([w.pins.compliance[0], w.pins.damping[0]]).toEqual([1e-3, 50]);
    await m.seconds(3);
    // Settled α·m·g = 19.6 mm below the target.
    expect(m.position('bob')[1]).toBeCloseTo(1 - 1e-3 * 2 * 9.81, 3);

    // Rigid again: the particle goes back onto the target and is immovable; the same pin, changed in place.
    const id = w.pins.ids[0];
    await m.update(scene(0));
    expect(w.pins.ids[0]).toBe(id);
    expect(w.particles.inverseMass[m.particle('bob')]).toBe(0);
    await m.frames(2);
    expect(m.position('bob')).toEqual([0, 1, 0]);
    expect(await m.unmount()).toEqual([]);
  });

  it('reports bad compliance and damping together, naming the prop and the value', async () => {
    const reported: string[] = [];
    const onError = (error: Error) => void reported.push(error.message);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const m = await mountWorld([<Particle key="p" name="bob" position={[0, 1, 0]} />, <Pin key="pin" particle="bob" compliance={-1} damping={NaN} />], { onError });
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatch(/^<Pin>: compliance .*-1; damping .*NaN$/);
      expect(m.world.pins.count).toBe(0);
      await m.unmount();
    } finally {
      logged.mockRestore();
    }
  });

  it('<Rope pinCompliance> hangs the rope on spring pins; a bad one is named', async () => {
    const reported: string[] = [];
    const onError = (error: Error) => void reported.push(error.message);
    const rope = (pinCompliance: number) => <Rope key="rope" name="rope" from={[0, 2, 0]} to={[0, 1, 0]} segments={4} pinStart pinCompliance={pinCompliance} />;
    const m = await mountWorld(rope(1e-3), { onError, sleep: false });
    expect(m.world.pins.compliance[0]).toBe(1e-3);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await m.update(rope(-5), { onError, sleep: false });
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatch(/^<Rope>: pinCompliance .*got -5$/);
    } finally {
      logged.mockRestore();
    }
    await m.unmount();
  });
});
