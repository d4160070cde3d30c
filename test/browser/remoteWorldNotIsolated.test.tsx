import { RemoteWorld, type WorkerEndpoint } from '../../src/worker/index.js';
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

it('a worker whose script does not load reaches onError, not a silent hang', async () => {
  const errors: Error[] = [];
  const endpoint = new Worker(new URL('./no-such-worker.js', import.meta.url), { type: 'module' });
  const remote = new RemoteWorld({ endpoint: endpoint as unknown as WorkerEndpoint, onError: (e) => errors.push(e) });
  for (let t = 0; t < 100 && errors.length === 0; t++) await new Promise((resolve) => setTimeout(resolve, 20));
  remote.dispose();
  expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^RemoteWorld: the physics worker failed: /)]);
});
