import { describe, expect, it } from 'vitest';
import {
  Attachment,
  Attractor,
  createBox,
  createCloth,
  createRagdoll,
  createRope,
  createWind,
  enableSelfCollision,
  explode,
  hit,
  wasmKernelAvailable,
  World,
  type StickKernel,
  type WorldOptions,
  type WorldSnapshot,
} from '../../src/core/index.js';
import { connectInProcess, RemoteWorld, WorkerHost, type ToWorker, type TransportKind, type WorkerEndpoint } from '../../src/worker/index.js';

// Issue 30's engine layer: a scene built and driven through a RemoteWorld (its worker side
// in-process, messages structured-cloned as postMessage does) gives bit for bit the positions
// of the same scene on a plain World, frame after frame, given the same commands and deltas.

const kernels: StickKernel[] = wasmKernelAvailable() ? ['wasm', 'js'] : ['js'];
const transports: TransportKind[] = ['transfer', 'shared'];

/** What a scene is built and driven with: a plain world, or a remote one. */
interface Api {
  world: World;
  call<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R;
  construct<A extends unknown[], T>(Class: new (...args: A) => T, ...args: A): T;
}

const plainApi = (world: World): Api => ({ world, call: (fn, ...args) => fn(...args), construct: (Class, ...args) => new Class(...args) });
const remoteApi = (remote: RemoteWorld): Api => ({ world: remote.world, call: (fn, ...args) => remote.call(fn, ...args), construct: (Class, ...args) => remote.construct(Class, ...args) });

/** Frame deltas of an uneven display: frames of one, two and no steps. */
const delta = (frame: number) => [1 / 60, 1 / 30, 1 / 144, 1 / 50][frame % 4]!;

/** The positions, step-start positions and previous positions of `world` as raw bits (what a frame carries). */
function bits(world: World): Uint8Array[] {
  const n = world.particles.end * 3;
  const copy = (a: Float64Array) => new Uint8Array(a.slice(0, n).buffer);
  return [copy(world.particles.position), copy(world.stepStartPositions), copy(world.particles.previous)];
}

/** Index of the first differing byte of a and b (or of their lengths), or -1. */
function firstDifference(a: Uint8Array[], b: Uint8Array[]): number {
  for (let k = 0; k < a.length; k++) {
    if (a[k]!.length !== b[k]!.length) return 0;
    for (let i = 0; i < a[k]!.length; i++) if (a[k]![i] !== b[k]![i]) return i;
  }
  return -1;
}

type Scene<S> = { build(api: Api): S; drive(api: Api, state: S, frame: number): void };

/**
 * Runs `scene` for `frames` frames on a plain world and on a remote one with the same
 * options, deltas and commands; returns the first frame whose positions differ (-1: none)
 * and how far the plain world's particles moved in all (so a test can see the scene ran).
 */
function compare<S>(scene: Scene<S>, options: WorldOptions, transport: TransportKind, frames: number) {
  const plain = new World(options);
  const remote = new RemoteWorld({
    world: options,
    endpoint: connectInProcess().endpoint,
    transport,
    onError: (e) => {
      throw e;
    },
  });
  const p = plainApi(plain);
  const r = remoteApi(remote);
  const ps = scene.build(p);
  const rs = scene.build(r);
  const start = plain.particles.position.slice(0, plain.particles.end * 3);
  let differs = -1;
  for (let f = 0; f < frames && differs < 0; f++) {
    scene.drive(p, ps, f);
    scene.drive(r, rs, f);
    plain.advance(delta(f));
    remote.world.advance(delta(f));
    if (firstDifference(bits(plain), bits(remote.shadow)) >= 0 || plain.stepCount !== remote.shadow.stepCount || plain.alpha !== remote.shadow.alpha) differs = f;
  }
  let moved = 0;
  for (let i = 0; i < start.length; i++) moved += Math.abs(plain.particles.position[i]! - start[i]!);
  const stats = { ...remote.stats };
  remote.dispose();
  return { differs, moved, steps: plain.stepCount, stats };
}

/** A cloth hanging from two pins, one pin carried in a circle, wind changed every frame (assigned and written in place), a kinematic capsule swept through it. */
const clothScene: Scene<{ cloth: ReturnType<typeof createCloth>; wind: ReturnType<typeof createWind>; bat: number }> = {
  build: (api) => {
    api.world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    const cloth = api.call(createCloth, api.world, { width: 10, height: 10, spacing: 0.1, corner: [-0.5, 1.5, 0], pin: 'top-corners' });
    const wind = api.call(createWind, api.world, { velocity: [0, 0, 2], gust: 0.3 });
    const bat = api.world.addCollider({ type: 'capsule', a: [0, 0, 0], b: [0, 0.6, 0], radius: 0.05, kinematic: true });
    return { cloth, wind, bat };
  },
  drive: (api, { cloth, wind, bat }, f) => {
    api.world.setPinTarget(cloth.pins[0]!, [-0.5 + 0.2 * Math.sin(f / 5), 1.5, 0.2 * Math.cos(f / 5)]);
    if (f % 2 === 0) wind.velocity = [Math.sin(f / 7), 0, 2 + Math.cos(f / 3)];
    else wind.velocity[0] = -0.5;
    api.world.setColliderPose(bat, [-0.6 + f * 0.02, 0.6, 0.1], [0, 0, 0, 1]);
  },
};

describe('RemoteWorld: the same positions as a plain world, bit for bit', () => {
  for (const transport of transports) {
    for (const kernel of kernels) {
      it(`cloth with a moving pin, per-frame wind and a moving collider (${transport}, ${kernel})`, () => {
        const { differs, moved, steps } = compare(clothScene, { kernel, substeps: 2 }, transport, 60);
        expect(differs).toBe(-1);
        expect(steps).toBeGreaterThan(50); // uneven deltas: 60 frames hold about 66 steps
        expect(moved).toBeGreaterThan(1); // the scene moved (a comparison of resting bodies proves little)
      });
    }
  }

  it('rope, rigid box and ragdoll with an attractor, a hit, an explosion and removals mid-run (both transports, both kernels)', () => {
    type S = { box: ReturnType<typeof createBox> | null; attractor: Attractor; doll: ReturnType<typeof createRagdoll>; rope: ReturnType<typeof createRope> };
    const scene: Scene<S> = {
      build: (api) => {
        api.world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
        const rope = api.call(createRope, api.world, { from: [1, 1.5, 0], to: [2, 1.5, 0], segments: 8, pinStart: true });
        const box = api.call(createBox, api.world, { position: [0, 1, 0], size: 0.3, angularVelocity: [1, 4, 0] });
        const doll = api.call(createRagdoll, api.world, { feet: [-1, 0.3, 0] });
        const attractor = api.construct(Attractor, { position: [0, 1, 0], strength: 1 });
        api.world.addForce(attractor);
        return { box, attractor, doll, rope };
      },
      drive: (api, s, f) => {
        s.attractor.strength = 2 * Math.sin(f / 4);
        if (f === 10) api.call(hit, api.world, s.doll.body.first, [1, 0, 0], 2);
        if (f === 20) api.call(explode, api.world, [0, 0.2, 0], { strength: 3, radius: 2 });
        if (f === 30 && s.box !== null) {
          api.world.remove(s.box);
          s.box = null;
        }
        if (f === 35) s.box = api.call(createBox, api.world, { position: [0.5, 1.2, 0], size: 0.2 });
        if (f === 40) s.rope.remove();
      },
    };
    // Both transports on the default kernel, and the other kernel on one.
    const runs = [...transports.map((t) => [t, kernels[0]!] as const), ...kernels.slice(1).map((k) => ['transfer', k] as const)];
    for (const [transport, kernel] of runs) {
      const { differs, moved } = compare(scene, { substeps: 2, kernel }, transport, 60);
      expect(differs, `${transport}, ${kernel}`).toBe(-1);
      expect(moved).toBeGreaterThan(1);
    }
  });

  it('a self-colliding cloth held by an attachment moved every frame, one of its particles dragged by a pin (both transports)', () => {
    type S = { attachment: Attachment; pin: number };
    const scene: Scene<S> = {
      build: (api) => {
        api.world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
        const cloth = api.call(createCloth, api.world, { width: 8, height: 8, spacing: 0.08, corner: [-0.3, 1, -0.3], orientation: 'horizontal' });
        api.call(enableSelfCollision, api.world, cloth.body, { thickness: 0.02 });
        const attachment = api.construct(Attachment, api.world, [cloth.particle(0, 0), cloth.particle(7, 0)], { position: [0, 1, 0] });
        const pin = api.world.addPin(cloth.particle(4, 7));
        return { attachment, pin };
      },
      drive: (api, s, f) => {
        s.attachment.setPose([0.3 * Math.sin(f / 6), 1 + 0.1 * f * 0.01, 0], [0, Math.sin(f / 20), 0, Math.cos(f / 20)]);
        api.world.setPinTarget(s.pin, [0.1 * Math.cos(f / 4), 0.6, 0.3]);
      },
    };
    for (const transport of transports) {
      const { differs, moved } = compare(scene, { substeps: 2 }, transport, 40);
      expect(differs, transport).toBe(-1);
      expect(moved).toBeGreaterThan(0.5);
    }
  });

  it("what renderers compute from positions (a box's transform, a ragdoll's limb frames) comes from the shadow, equal to the plain world's, and sends nothing", () => {
    const plain = new World({ substeps: 2 });
    const remote = new RemoteWorld({ world: { substeps: 2 }, endpoint: connectInProcess().endpoint, transport: 'shared' });
    const [p, r] = [plainApi(plain), remoteApi(remote)];
    const make = (api: Api) => {
      api.world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
      return { box: api.call(createBox, api.world, { position: [0, 1, 0], size: 0.3, angularVelocity: [2, 3, 1] }), doll: api.call(createRagdoll, api.world, { feet: [1, 0.5, 0] }) };
    };
    const ps = make(p);
    const rs = make(r);
    for (let f = 0; f < 30; f++) {
      plain.advance(1 / 60);
      remote.world.advance(1 / 60);
      const sent = remote.stats.commandsSent;
      const transform = rs.box.update();
      const frames = rs.doll.updateFrames();
      expect(rs.doll.part('head')).toBe(ps.doll.part('head'));
      remote.flush();
      expect(remote.stats.commandsSent, `frame ${f}`).toBe(sent);
      expect(transform.quaternion).toEqual(ps.box.update().quaternion);
      expect(frames.map((fr) => [...fr.quaternion])).toEqual(ps.doll.updateFrames().map((fr) => [...fr.quaternion]));
    }
    remote.dispose();
  });

  it("atStepStart gives what a main-thread world's onBeforeStep captures (a box's transform at the start of the latest step)", () => {
    const plain = new World({ substeps: 2 });
    const remote = new RemoteWorld({ world: { substeps: 2 }, endpoint: connectInProcess().endpoint, transport: 'transfer' });
    const pb = createBox(plain, { position: [0, 1, 0], size: 0.3, angularVelocity: [2, 3, 1] });
    const rb = remote.call(createBox, remote.world, { position: [0, 1, 0], size: 0.3, angularVelocity: [2, 3, 1] });
    let captured: number[] = [];
    plain.onBeforeStep(() => (captured = [...pb.update().origin, ...pb.update().quaternion]));
    for (let f = 0; f < 12; f++) {
      plain.advance(delta(f));
      remote.world.advance(delta(f));
      const atStart = remote.atStepStart(() => [...rb.update().origin, ...rb.update().quaternion]);
      expect(atStart, `frame ${f}`).toEqual(captured);
      expect([...rb.update().origin]).toEqual([...pb.update().origin]); // and back to the step's end
    }
    expect(captured[1]).toBeLessThan(1); // it fell: the capture moved
    remote.dispose();
  });

  it('a cloth torn in the worker tears in the shadow too: sticks, surface and onTear follow, bits agree (both transports)', () => {
    for (const transport of transports) {
      const plain = new World({ substeps: 2 });
      const heard: number[] = [];
      const remote = new RemoteWorld({
        world: { substeps: 2 },
        endpoint: connectInProcess().endpoint,
        transport,
        onError: (e) => {
          throw e;
        },
        onTear: (cloth, sticks) => {
          expect(cloth).toBe(rc);
          heard.push(...sticks);
        },
      });
      const options = { width: 8, height: 8, spacing: 0.1, corner: [-0.35, 1.5, 0] as [number, number, number], pin: 'top-corners' as const, tearStrain: 0.2 };
      const pc = createCloth(plain, options);
      const rc = remote.call(createCloth, remote.world, options);
      for (let f = 0; f < 40; f++) {
        const pull: [number, number, number] = [0.35 + f * 0.03, 1.5, 0];
        plain.setPinTarget(pc.pins[1]!, pull);
        remote.world.setPinTarget(rc.pins[1]!, pull);
        plain.advance(1 / 60);
        remote.world.advance(1 / 60);
        expect(firstDifference(bits(plain), bits(remote.shadow)), `${transport}, frame ${f}`).toBe(-1);
        expect(rc.torn).toBe(pc.torn);
      }
      expect(pc.torn).toBeGreaterThan(3); // it tore
      expect(rc.surface.triangleCount).toBe(pc.surface.triangleCount);
      expect(Array.from(rc.surface.triangles.subarray(0, rc.surface.triangleCount * 3))).toEqual(Array.from(pc.surface.triangles.subarray(0, pc.surface.triangleCount * 3)));
      expect(Array.from(rc.sticks.id)).toEqual(Array.from(pc.sticks.id));
      expect(remote.shadow.constraintCount).toBe(plain.constraintCount);
      expect(heard.sort((a, b) => a - b)).toEqual(Array.from(pc.sticks.id.keys()).filter((e) => e < pc.sticks.count && pc.sticks.id[e]! < 0));
      remote.dispose();
    }
  });

  it('an attachment that breaks in the worker lets go in the shadow too, and onBreak hears it; a release the app makes is not a break', () => {
    const plain = new World({ substeps: 4 });
    const heard: number[][] = [];
    const remote = new RemoteWorld({
      world: { substeps: 4 },
      endpoint: connectInProcess().endpoint,
      transport: 'shared',
      onError: (e) => {
        throw e;
      },
      onBreak: (attachment, particles) => {
        expect(attachment).toBe(ra);
        heard.push([...particles]);
      },
    });
    const make = (api: Api) => {
      const cloth = api.call(createCloth, api.world, { width: 6, height: 6, spacing: 0.1, corner: [-0.25, 1.5, 0], mass: 0.5 });
      const held = [cloth.particle(0, 0), cloth.particle(5, 0), cloth.particle(2, 0)];
      return api.construct(Attachment, api.world, held, { position: [0, 1.5, 0], breakForce: 6 }); // holds the 0.5 kg cloth's weight (about 2.5 N a corner)
    };
    const pa = make(plainApi(plain));
    const ra = make(remoteApi(remote));
    ra.release(2); // the app lets one go: both worlds do it now, and it is no break
    pa.release(2);
    for (let f = 0; f < 40; f++) {
      const pose: [number, number, number] = [0, 1.5 + (f > 10 ? (f - 10) * 0.08 : 0), 0]; // then yanked upwards
      pa.setPose(pose, [0, 0, 0, 1]);
      ra.setPose(pose, [0, 0, 0, 1]);
      plain.advance(1 / 60);
      remote.world.advance(1 / 60);
      expect(firstDifference(bits(plain), bits(remote.shadow)), `frame ${f}`).toBe(-1);
      expect(
        [0, 1, 2].map((i) => ra.holds(i)),
        `frame ${f}`,
      ).toEqual([0, 1, 2].map((i) => pa.holds(i)));
    }
    expect([pa.holds(0), pa.holds(1)]).toEqual([false, false]); // both corners broke
    expect(heard.flat().sort()).toEqual([0, 1]);
    expect(remote.shadow.constraintCount).toBe(plain.constraintCount);
    remote.dispose();
  });

  it("objects read through handles travel as references: wind on one of two cloths (bodies: [cloth.body]) blows the worker's same cloth; array builtins run on proxies", () => {
    const scene: Scene<{ wind: ReturnType<typeof createWind> }> = {
      build: (api) => {
        const a = api.call(createCloth, api.world, { width: 6, height: 6, spacing: 0.1, corner: [-1, 1.5, 0], pin: 'top' });
        api.call(createCloth, api.world, { width: 6, height: 6, spacing: 0.1, corner: [1, 1.5, 0], pin: 'top' });
        expect(api.world.bodies.map((b) => b.count)).toEqual([36, 36]);
        expect(api.world.bodies.filter((b) => b === a.body)).toHaveLength(1);
        return { wind: api.call(createWind, api.world, { velocity: [0, 0, 5], bodies: [a.body] }) };
      },
      drive: (_api, { wind }, f) => void (wind.velocity[2] = 5 + Math.sin(f)),
    };
    const { differs, moved } = compare(scene, {}, 'transfer', 30);
    expect(differs).toBe(-1);
    expect(moved).toBeGreaterThan(0.5);
  });

  it('a command applied one frame late changes the bits (the comparison can fail)', () => {
    // The cloth scene twice on plain worlds, the second driven a frame behind.
    const a = new World({ substeps: 2 });
    const b = new World({ substeps: 2 });
    const sa = clothScene.build(plainApi(a));
    const sb = clothScene.build(plainApi(b));
    for (let f = 0; f < 10; f++) {
      clothScene.drive(plainApi(a), sa, f);
      clothScene.drive(plainApi(b), sb, Math.max(0, f - 1));
      a.advance(delta(f));
      b.advance(delta(f));
    }
    expect(firstDifference(bits(a), bits(b))).toBeGreaterThanOrEqual(0);
  });
});

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
