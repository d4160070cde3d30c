import { Rope } from '../../src/react/components/Rope.js';
import { mountWorld } from './helpers.js';

// <World> forwards the world's word that it runs slower than real time: once, to
// onError (from "<World>"), or to console.warn; the store's stats carry the flag.

const rope = <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={8} pinStart />;

describe('a <World> slower than real time', () => {
  it('tells onError once, with the report as the cause, and the store publishes the flag until it keeps up', async () => {
    const reported: [Error, string][] = [];
    const m = await mountWorld(rope, { onError: (error, component) => void reported.push([error, component]), maxStepsPerAdvance: 2, statsInterval: 0 });
    // Frames of 0.1 s: 6 steps due, 2 run: a third of real time.
    await m.frames(30, 0.1);
    expect(reported).toHaveLength(1);
    const [error, component] = reported[0]!;
    expect(component).toBe('<World>');
    expect(error.name).toBe('SlowerThanRealTime');
    expect(error.message).toMatch(/^World: running at 0\.33 of real time/);
    expect((error.cause as { realTimeRatio: number }).realTimeRatio).toBeCloseTo(1 / 3, 12);
    expect(m.store.getState().stats).toMatchObject({ slowerThanRealTime: true });
    expect(m.store.getState().stats.realTimeRatio).toBeCloseTo(1 / 3, 12);

    await m.frames(90);
    expect(m.store.getState().stats).toMatchObject({ slowerThanRealTime: false, realTimeRatio: 1 });
    expect(reported).toHaveLength(1);
    expect(await m.unmount()).toEqual([]);
  });

  it('warns on the console without onError', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const m = await mountWorld(rope, { onError: undefined, maxStepsPerAdvance: 2 });
      await m.frames(30, 0.1);
      // three.js deprecation notices aside.
      const sinew = warn.mock.calls.map(([message]) => String(message)).filter((message) => !message.startsWith('THREE.'));
      expect(sinew).toEqual([expect.stringMatching(/^World: running at 0\.33 of real time/)]);
      expect(await m.unmount()).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it("is no failure in mountWorld's scenes: a test chooses its frames' deltas", async () => {
    const m = await mountWorld(rope, { maxStepsPerAdvance: 2 });
    await m.frames(30, 0.1);
    expect(m.world.stats.slowerThanRealTime).toBe(true);
    await expect(m.update(rope)).resolves.toBeUndefined();
    expect(await m.unmount()).toEqual([]);
  });
});
