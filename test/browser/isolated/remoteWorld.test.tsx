import { build, caughtUp, delta, drive, lockstep, options, bits, same } from '../remoteScene.js';
import { World } from '../../../src/core/index.js';
import { RemoteWorld } from '../../../src/worker/index.js';

// Issue 30 in a real browser, cross-origin isolated (COOP and COEP headers: the 'browser-isolated'
// project in vite.config.ts), so SharedArrayBuffer exists and both transports run in a module worker.

it('is cross-origin isolated, so both transports can be tested', () => {
  expect(crossOriginIsolated).toBe(true);
  expect(typeof SharedArrayBuffer).toBe('function');
});

for (const transport of ['shared', 'transfer'] as const) {
  it(`a module worker gives the main-thread world's bits over 120 frames (${transport})`, async () => {
    const { firstDifference, errors, steps, kernel } = await lockstep(transport);
    expect(errors).toEqual([]);
    expect(kernel).toBe('wasm');
    expect(steps).toBeGreaterThan(120); // the uneven deltas hold about 132 steps
    expect(firstDifference).toBe(-1);
  });

  it(`frames sent without waiting all run: none is skipped while buffers are away (${transport})`, async () => {
    const remote = new RemoteWorld({ world: options, transport });
    const plain = new World(options);
    const ps = build(plain, (fn, ...args) => fn(...args));
    const rs = build(remote.world, (fn, ...args) => remote.call(fn, ...args));
    try {
      for (let f = 0; f < 120; f++) {
        drive(plain, ps, f);
        drive(remote.world, rs, f);
        plain.advance(delta(f));
        remote.world.advance(delta(f));
      }
      await caughtUp(remote);
      expect(remote.shadow.stepCount).toBe(plain.stepCount);
      expect(same(bits(plain), bits(remote.shadow))).toBe(true);
    } finally {
      remote.dispose();
    }
  });
}
