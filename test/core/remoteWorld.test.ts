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
} from '../../src/core/index.js';
import { connectInProcess, RemoteWorld } from '../../src/worker/index.js';
import { bits, clothScene, compare, delta, firstDifference, plainApi, remoteApi, transports, type Api, type Scene } from './remoteScenes.js';

// Issue 30's engine layer: a scene built and driven through a RemoteWorld (its worker side
// in-process, messages structured-cloned as postMessage does) gives bit for bit the positions
// of the same scene on a plain World, frame after frame, given the same commands and deltas.

const kernels: StickKernel[] = wasmKernelAvailable() ? ['wasm', 'js'] : ['js'];

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
