import { expectAsleep, expectAtRest, expectEnergyNotGrowing, expectFinite, expectStickLength, mountHook } from 'sinew-physics/testing';
import { describe, expect, it } from 'vitest';
import { useSwingingSign } from '../src/useSwingingSign.js';

const useShopSign = () => useSwingingSign({ position: [0, 2, 0] });

describe('useSwingingSign', () => {
  it('hangs still until pushed, then swings to and fro about its hooks', async () => {
    const hook = await mountHook(useShopSign, { damping: 1, strict: true });
    await hook.seconds(4); // it was built upright; it settles with its centre under the hinge
    expect(Math.abs(hook.result.current.angle())).toBeLessThan(0.02); // within about a degree
    expectAtRest(hook, 'sign.0');

    hook.result.current.push(2);
    await hook.seconds(0.2);
    const out = hook.result.current.angle();
    expect(out).toBeGreaterThan(0.2); // swung out towards +z
    let back = out;
    for (let i = 0; i < 60 && back > -0.2; i++) {
      await hook.frames(1);
      back = hook.result.current.angle();
    }
    expect(back).toBeLessThan(-0.2); // and back through the vertical
    expect(hook.position('signHookLeft')).toEqual([-0.5, 2, -0.02]); // the hooks never move
    expectStickLength(hook, 'sign.2', 'sign.0'); // the board stays rigid
    expect(await hook.unmount()).toEqual([]);
  });

  it('never gains energy while it swings freely', async () => {
    const hook = await mountHook(useShopSign, { damping: 0 });
    hook.result.current.push(1.5);
    await expectEnergyNotGrowing(hook, { seconds: 3, body: 'sign' });
    expectFinite(hook);
    await hook.unmount();
  });

  it('comes to rest hanging straight and falls asleep', async () => {
    const hook = await mountHook(useShopSign, { damping: 2 });
    hook.result.current.push(2);
    await hook.seconds(8);
    expect(Math.abs(hook.result.current.angle())).toBeLessThan(0.02);
    expectAsleep(hook, 'sign');
    await hook.unmount();
  });
});
