import { afterEach, describe, expect, it, vi } from 'vitest';
import { World } from '../../src/core/index.js';
import type { SlowerThanRealTimeReport } from '../../src/core/realTime.js';
import { connectInProcess, RemoteWorld, type ToWorker, type WorkerEndpoint } from '../../src/worker/index.js';

// RemoteWorldOptions.maxLagMs: a worker slower than the frame rate runs the steps it can and
// says it runs slower than real time, instead of queueing one advance per frame without end
// (which the browser benchmark measured: a 200 × 200 cloth at 31 ms a step fell 207 advances
// behind in 5 s at 60 fps, and never said it was slow, since no advance dropped time).

/** An in-process worker whose messages wait in `pending` until `deliver` runs them; `now` is performance.now(). */
function slowWorker() {
  const clock = { now: 0 };
  vi.spyOn(performance, 'now').mockImplementation(() => clock.now);
  const { endpoint: inner, host } = connectInProcess();
  const pending: [ToWorker, Transferable[] | undefined][] = [];
  const advances: number[] = [];
  const endpoint: WorkerEndpoint = {
    onmessage: null,
    postMessage(message, transfer) {
      const m = message as ToWorker;
      if (m.type === 'commands') for (const c of m.commands) if (c.op === 'advance') advances.push(c.seconds);
      pending.push([m, transfer]);
    },
  };
  inner.onmessage = (event) => endpoint.onmessage?.(event);
  /** Runs the first waiting message in the worker; returns the steps it ran. */
  const deliverOne = () => {
    const before = host.world?.stepCount ?? 0;
    const [m, t] = pending.shift()!;
    inner.postMessage(m, t);
    return (host.world?.stepCount ?? 0) - before;
  };
  const deliver = () => {
    while (pending.length > 0) deliverOne();
  };
  return { clock, endpoint, host, pending, advances, deliver, deliverOne };
}

afterEach(() => vi.restoreAllMocks());

describe('RemoteWorld maxLagMs', () => {
  it('once the worker leaves an advance unanswered for longer than maxLagMs, holds back the advances of frames with two in flight, sends their time as one advance, and the frames’ changes in order: the bits of a main-thread world given those deltas', () => {
    const w = slowWorker();
    const remote = new RemoteWorld({ endpoint: w.endpoint, transport: 'transfer' });
    const id = remote.world.addParticle({ position: [0, 1, 0] });
    remote.world.advance(1 / 60);
    w.deliver();
    remote.sync(); // the first frame: the worker is not taken to lag for a second
    expect(remote.stats.framesRead).toBe(1);
    w.clock.now = 1100;
    remote.world.advance(1 / 60); // sent, not answered
    expect(w.advances).toEqual([1 / 60, 1 / 60]);
    w.clock.now = 1344; // the advance of t = 1100 is 244 ms old: within 250
    remote.world.advance(1 / 60);
    expect(w.advances.length).toBe(3);
    w.clock.now = 1354; // 254 ms, two in flight: held back, its change still sent
    remote.world.setPosition(id, [1, 1, 0]);
    remote.world.advance(1 / 60);
    w.clock.now = 1370;
    remote.world.advance(1 / 30);
    expect(w.advances.length).toBe(3);
    expect(w.pending.at(-1)![0]).toMatchObject({ type: 'commands', commands: [{ op: 'call', method: 'setPosition' }] });
    expect(remote.stats.behind).toBe(2);
    w.deliver(); // the worker answers: the next frame sends the time kept
    w.clock.now = 1380;
    remote.world.advance(1 / 60);
    expect(w.advances).toEqual([1 / 60, 1 / 60, 1 / 60, 1 / 60 + (1 / 60 + 1 / 30)]);
    w.deliver();
    remote.sync();
    expect(remote.stats.behind).toBe(0);

    const plain = new World();
    plain.addParticle({ position: [0, 1, 0] });
    for (const seconds of w.advances.slice(0, 3)) plain.advance(seconds);
    plain.setPosition(0, [1, 1, 0]);
    plain.advance(w.advances[3]!);
    expect(remote.shadow.stepCount).toBe(plain.stepCount);
    expect(Array.from(remote.shadow.particles.position.subarray(0, 3))).toEqual(Array.from(plain.particles.position.subarray(0, 3)));
    remote.dispose();
  });

  it('a worker slower than the frames (50 ms a step at 60 fps, 8 s) runs the steps it can and says it runs slower than real time; with maxLagMs Infinity its advances queue without end and it never says so', () => {
    const run = (maxLagMs: number | undefined) => {
      const w = slowWorker();
      const slow: SlowerThanRealTimeReport[] = [];
      const remote = new RemoteWorld({ endpoint: w.endpoint, transport: 'transfer', maxLagMs, onSlow: (report) => slow.push(report) });
      remote.world.addParticle({ position: [0, 1, 0] });
      let busyUntil = 0;
      let mostBehind = 0;
      for (let frame = 1; frame <= 480; frame++) {
        w.clock.now = (frame * 1000) / 60;
        // The worker runs what it has time for: each step takes it 50 ms.
        while (w.pending.length > 0 && busyUntil <= w.clock.now) busyUntil = Math.max(busyUntil, w.clock.now) + 50 * w.deliverOne();
        remote.world.advance(1 / 60);
        mostBehind = Math.max(mostBehind, remote.stats.behind);
      }
      remote.dispose();
      return { steps: remote.shadow.stepCount, behind: remote.stats.behind, mostBehind, slow };
    };
    const held = run(undefined);
    const queued = run(Infinity);
    // 8 s at 50 ms a step: about 160 steps either way.
    expect(held.steps).toBeGreaterThan(150);
    expect(queued.steps).toBeGreaterThan(150);
    // Held back: the frames of the warm-up second and of the next 250 ms went ahead one
    // advance each (75 frames, and one more before the next read), less the 25 the worker
    // answered meanwhile; once those have run, two at most are in flight.
    expect(held.mostBehind).toBeLessThanOrEqual(51);
    expect(held.behind).toBeLessThanOrEqual(2);
    expect(held.slow.length).toBe(1);
    expect(held.slow[0]!.realTimeRatio).toBeLessThan(0.95);
    // Queued: one advance a frame, 60 a second against 20 steps a second, and nothing dropped, so nothing said.
    expect(queued.behind).toBeGreaterThan(300);
    expect(queued.slow).toEqual([]);
  });

  it('refuses a maxLagMs that is not a number of at least 0, naming it', () => {
    const w = slowWorker();
    expect(() => new RemoteWorld({ endpoint: w.endpoint, maxLagMs: -1 })).toThrow('RemoteWorld: maxLagMs must be a finite number in [0, Infinity], got -1');
    expect(() => new RemoteWorld({ endpoint: w.endpoint, maxLagMs: Number.NaN })).toThrow('RemoteWorld: maxLagMs');
  });
});
