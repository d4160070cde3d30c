import { describe, expect, it } from 'vitest';
import { Attachment, Attractor, createCloth, createRope, World, type WorldSnapshot } from '../../src/core/index.js';
import { connectInProcess, RemoteWorld, WorkerHost, type ToWorker, type WorkerEndpoint } from '../../src/worker/index.js';
import { bits, clothScene, delta, firstDifference, plainApi, remoteApi, transports } from './remoteScenes.js';

// Issue 30's engine layer, continued from remoteWorld.test.ts: snapshots through a
// RemoteWorld, what it refuses, how errors reach the app, and how frames are paced.

describe('RemoteWorld: snapshots, refusals, errors, pacing', () => {
  it('a snapshot taken through the remote and restored through it repeats the plain world bit for bit', async () => {
    for (const transport of transports) {
      const plain = new World({ substeps: 2 });
      const remote = new RemoteWorld({ world: { substeps: 2 }, endpoint: connectInProcess().endpoint, transport });
      const [p, r] = [plainApi(plain), remoteApi(remote)];
      const ps = clothScene.build(p);
      const rs = clothScene.build(r);
      const frames = (from: number, to: number) => {
        for (let f = from; f < to; f++) {
          clothScene.drive(p, ps, f);
          clothScene.drive(r, rs, f);
          plain.advance(delta(f));
          remote.world.advance(delta(f));
        }
      };
      frames(0, 15);
      const saved: WorldSnapshot = plain.snapshot();
      const remoteSaved = await remote.snapshot();
      expect(remoteSaved.stepCount).toBe(saved.stepCount);
      expect(new Uint8Array(remoteSaved.particles.position.buffer)).toEqual(new Uint8Array(saved.particles.position.buffer));
      frames(15, 30);
      plain.restore(saved);
      remote.world.restore(remoteSaved);
      frames(15, 30); // the same frames again, from the restored state
      expect(firstDifference(bits(plain), bits(remote.shadow)), transport).toBe(-1);
      expect(remote.shadow.stepCount).toBe(plain.stepCount);
      remote.dispose();
      await expect(remote.snapshot.bind(remote)).toThrow(/after dispose/);
    }
  });

  it('a snapshot that fails in the worker rejects its promise; two remote worlds keep to their own workers', async () => {
    const errors: Error[] = [];
    const { endpoint, host } = connectInProcess();
    const remote = new RemoteWorld({ endpoint, transport: 'transfer', onError: (e) => errors.push(e) });
    const other = new RemoteWorld({ endpoint: connectInProcess().endpoint, transport: 'transfer' });
    remote.world.advance(1 / 60);
    host.world!.snapshot = () => {
      throw new Error('boom');
    };
    await expect(remote.snapshot()).rejects.toThrow('RemoteWorld: snapshot() failed in the worker: boom');
    expect(errors.map((e) => e.message)).toEqual(['sinew worker: snapshot(): boom']);
    const a = remote.world.addParticle({ position: [0, 1, 0] });
    const b = other.world.addParticle({ position: [5, 1, 0] });
    expect(a).toBe(b); // each world hands out its own ids
    for (let f = 0; f < 5; f++) {
      remote.world.advance(1 / 60);
      other.world.advance(1 / 60);
    }
    expect(remote.world.getPosition(a)[0]).toBe(0);
    expect(other.world.getPosition(b)[0]).toBe(5);
    expect(remote.world.getPosition(a)[1]).toBeLessThan(1); // falling, in its own worker
    expect((await other.snapshot()).stepCount).toBe(5);
    remote.dispose();
    other.dispose();
  });

  it('refuses what cannot be sent, naming the call, why and what to do instead', () => {
    const remote = new RemoteWorld({ endpoint: connectInProcess().endpoint, transport: 'transfer' });
    const world = remote.world;
    const id = world.addParticle({ position: [0, 1, 0] });
    expect(() => world.onBeforeStep(() => {})).toThrow(/world\.onBeforeStep\(callback\) is refused: step callbacks would run in the worker/);
    expect(() => world.addForce({ apply: () => {} })).toThrow(
      /world\.addForce\(…\): argument 1\.apply is a function, which cannot be sent to the physics worker; a force made on this thread cannot be sent: make a replayable one with `remote\.construct\(Attractor/,
    );
    expect(() => world.addForce(new Attractor({ position: [0, 0, 0], strength: 1 }))).toThrow(/argument 1 is an instance of Attractor made outside the remote world/);
    expect(() => world.addConstraint({ project: () => {} })).toThrow(/a user constraint runs its own `project` code/);
    expect(() => remote.construct(Attachment, world, [id], { onBreak: () => {} })).toThrow(
      /new Attachment\(…\): argument 3\.onBreak is a function, which cannot be sent to the physics worker; breaks are heard on this thread: pass `onBreak` to the RemoteWorld/,
    );
    expect(() => world.snapshot()).toThrow(/Use `await remote\.snapshot\(\)`/);
    expect(() => remote.call((w: World) => w.addParticle({ position: [0, 0, 0] }), world)).toThrow(/not a replayable engine function/);
    expect(() => new RemoteWorld({ world: { clock: () => 0 }, endpoint: connectInProcess().endpoint })).toThrow(/world\.clock is a function/);
    // Nothing refused reached the shadow or the queue: one particle, and only its command is sent.
    expect(remote.shadow.particleCount).toBe(1);
    expect(remote.shadow.forces.length).toBe(0);
    world.advance(1 / 60);
    expect(remote.stats.commandsSent).toBe(2); // addParticle, advance
    remote.dispose();
  });

  it('a validation error throws synchronously from the shadow; the worker repeats the call as far as it goes, silently', () => {
    const errors: Error[] = [];
    const { endpoint, host } = connectInProcess();
    const remote = new RemoteWorld({ endpoint, transport: 'transfer', onError: (e) => errors.push(e) });
    expect(() => remote.world.addStick(0, 1)).toThrow(RangeError);
    // Failed calls are sent marked to fail: one that changed the world before it threw would
    // change both worlds alike (the engine's builders check their input first, so these change nothing).
    const bad = { width: 3, height: 3, spacing: 0.1, pin: [0, 99] };
    expect(() => remote.call(createCloth, remote.world, bad)).toThrow(/createCloth: pin indices/);
    const id = remote.world.addParticle({ position: [0, 1, 0] });
    remote.world.advance(1 / 60);
    expect(remote.stats.commandsSent).toBe(4);
    expect(errors).toEqual([]);
    expect(host.world!.particles.end).toBe(remote.shadow.particles.end);
    expect(host.world!.getPosition(id)).toEqual(remote.world.getPosition(id));
    remote.dispose();
  });

  it("an error in the worker reaches onError with the worker's stack and the command", () => {
    const errors: Error[] = [];
    const { endpoint, host } = connectInProcess();
    const remote = new RemoteWorld({ endpoint, transport: 'transfer', onError: (e) => errors.push(e) });
    // A command the shadow never saw: the worker cannot resolve its reference.
    host.receive({ type: 'commands', commands: [{ op: 'call', target: 99, method: 'remove', args: [], result: -1 }] });
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe('sinew worker: #99.remove(…): sinew worker: no object with reference #99');
    expect(errors[0]!.stack).toMatch(/in the physics worker[\s\S]*host\.ts/);
    remote.dispose();
  });

  it('reports once when the worker and the shadow no longer agree on ids (a change made on the shadow directly)', () => {
    const errors: Error[] = [];
    const remote = new RemoteWorld({ endpoint: connectInProcess().endpoint, transport: 'shared', onError: (e) => errors.push(e) });
    remote.world.addParticle({ position: [0, 1, 0] });
    remote.world.advance(1 / 60);
    expect(errors).toEqual([]);
    remote.shadow.addParticle({ position: [0, 2, 0] }); // past the proxy: never sent
    remote.world.advance(1 / 60);
    remote.world.advance(1 / 60);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^RemoteWorld: the worker's world and the shadow disagree after command 3: .*particle slots 1 there, 2 here/)]);
    remote.dispose();
  });

  it('world.step() goes to the worker; a handle the app drops is released in the worker once collected', async () => {
    const { endpoint, host } = connectInProcess();
    const remote = new RemoteWorld({ endpoint, transport: 'shared' });
    const plain = new World();
    const kept = remote.call(createCloth, remote.world, { width: 3, height: 3, spacing: 0.1, pin: 'top' });
    createCloth(plain, { width: 3, height: 3, spacing: 0.1, pin: 'top' });
    remote.world.step();
    plain.step();
    expect(firstDifference(bits(plain), bits(remote.shadow))).toBe(-1);
    expect(remote.shadow.stepCount).toBe(1);
    expect(host.refs.size).toBe(2); // the world and the cloth handle
    // A handle made and dropped (the shadow keeps its body, not the handle object).
    ((world: World) => void remote.call(createRope, world, { from: [0, 1, 0], to: [1, 1, 0], segments: 3 }).first)(remote.world);
    remote.flush();
    expect(host.refs.size).toBe(3);
    const gc = (globalThis as { gc?: () => void }).gc;
    expect(gc, 'the core project runs with --expose-gc').toBeTypeOf('function');
    for (let k = 0; k < 20 && host.refs.size > 2; k++) {
      gc!();
      await new Promise((resolve) => setTimeout(resolve, 10));
      remote.flush();
    }
    expect(host.refs.size).toBe(2);
    expect(host.refs.has(1)).toBe(true); // the cloth handle, still held here
    expect(kept.count).toBe(9);
    remote.dispose();
  });

  it('works over a real MessageChannel, messages arriving later (both transports)', async () => {
    for (const transport of transports) {
      const { port1, port2 } = new MessageChannel();
      const host = new WorkerHost((m, t) => port2.postMessage(m, t ?? []));
      port2.onmessage = (e: MessageEvent) => host.receive(e.data as ToWorker);
      const remote = new RemoteWorld({ endpoint: port1 as unknown as WorkerEndpoint, transport });
      const plain = new World();
      const pc = createCloth(plain, { width: 5, height: 5, spacing: 0.1, pin: 'top' });
      const rc = remote.call(createCloth, remote.world, { width: 5, height: 5, spacing: 0.1, pin: 'top' });
      for (let f = 0; f < 20; f++) {
        plain.setPinTarget(pc.pins[0]!, [0.01 * f, 0, 0]);
        remote.world.setPinTarget(rc.pins[0]!, [0.01 * f, 0, 0]);
        plain.advance(1 / 60);
        remote.world.advance(1 / 60);
      }
      expect(remote.stats.behind).toBeGreaterThan(0); // nothing has arrived yet: delivery is asynchronous
      for (let t = 0; t < 200 && (remote.sync(), remote.stats.behind > 0); t++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(remote.shadow.stepCount).toBe(20);
      expect(firstDifference(bits(plain), bits(remote.shadow)), transport).toBe(-1);
      remote.dispose();
      port1.close();
      port2.close();
    }
  });

  it('counts advances sent but not yet read as behind, and reads the latest frame, skipping none of the steps', () => {
    // A worker that answers only when told: three advances wait, then all run at once.
    const { endpoint: inner } = connectInProcess();
    const held: [unknown, Transferable[] | undefined][] = [];
    const endpoint = { ...inner, onmessage: null as typeof inner.onmessage, postMessage: (m: unknown, t?: Transferable[]) => void held.push([m, t]) };
    const remote = new RemoteWorld({ endpoint, transport: 'transfer' });
    inner.onmessage = (e) => endpoint.onmessage?.(e);
    const id = remote.world.addParticle({ position: [0, 1, 0] });
    for (let f = 0; f < 3; f++) remote.world.advance(1 / 60);
    expect(remote.stats.behind).toBe(3);
    expect(remote.shadow.stepCount).toBe(0);
    for (const [m, t] of held.splice(0)) inner.postMessage(m, t);
    expect(remote.sync()).toBe(true);
    expect(remote.stats.behind).toBe(0);
    expect(remote.shadow.stepCount).toBe(3); // the three steps ran; the latest frame shows the third
    const plain = new World();
    plain.addParticle({ position: [0, 1, 0] });
    for (let f = 0; f < 3; f++) plain.advance(1 / 60);
    expect(remote.world.getPosition(id)).toEqual(plain.getPosition(0));
    expect(remote.world.getVelocity(id)).toEqual(plain.getVelocity(0));
    expect(remote.world.getInterpolatedPosition(id)).toEqual(plain.getInterpolatedPosition(0));
    remote.dispose();
  });
});
