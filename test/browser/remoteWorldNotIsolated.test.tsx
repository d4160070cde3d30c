import { lockstep } from './remoteScene.js';

// Issue 30 on a page that is not cross-origin isolated (no SharedArrayBuffer): a RemoteWorld
// picks the transfer path and its module worker gives the main-thread world's bits.

it('not cross-origin isolated: transfers frames, and gives the main-thread bits over 120 frames', async () => {
  expect(globalThis.crossOriginIsolated).toBe(false);
  const { firstDifference, errors, transport, steps } = await lockstep('auto');
  expect(transport).toBe('transfer');
  expect(errors).toEqual([]);
  expect(steps).toBeGreaterThan(120);
  expect(firstDifference).toBe(-1);
});
