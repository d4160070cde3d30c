import { useFrame } from '@react-three/fiber';
import { useContext, useMemo, useRef, type ReactNode } from 'react';
import { Bone, InstancedMesh, Mesh, type Group, type Object3D } from 'three';
import { Attractor as CoreAttractor } from '../../src/core/forces/attractor.js';
import type { World as CoreWorld } from '../../src/core/world.js';
import { Attach } from '../../src/react/components/Attach.js';
import { Cloth } from '../../src/react/components/Cloth.js';
import { Ground } from '../../src/react/components/Ground.js';
import { Particle } from '../../src/react/components/Particle.js';
import { Pin } from '../../src/react/components/Pin.js';
import { Ragdoll } from '../../src/react/components/Ragdoll.js';
import { RigidBody } from '../../src/react/components/RigidBody.js';
import { Rope } from '../../src/react/components/Rope.js';
import { SphereCollider } from '../../src/react/components/SphereCollider.js';
import { Wind } from '../../src/react/components/Wind.js';
import { SinewContext, type SinewContextValue } from '../../src/react/context.js';
import { useForce } from '../../src/react/hooks/useForce.js';
import { useBeforeStep } from '../../src/react/hooks/useStepCallbacks.js';
import { STEP_PRIORITY } from '../../src/react/World.js';
import { ParticleDrag } from '../../src/three/particleDrag.js';
import { connectInProcess } from '../../src/worker/inProcess.js';
import { physicsWorker, type PhysicsWorker } from '../../src/worker/physicsWorker.js';
import type { WorkerEndpoint } from '../../src/worker/remoteWorld.js';
import { RapierBridge } from '../../src/rapier/RapierBridge.js';
import { mountWorld, type Mounted } from './helpers.js';

// Issue 30's React layer: the same scene in <World> and in <World worker> (its worker run
// in-process, messages structured-cloned as postMessage does, each frame read back before
// `advance` returns) gives bit for bit the same positions, and the same drawn objects, frame
// after frame; the components that cannot run in a worker say so, naming themselves.

/** The worker, run on this thread; counts the workers opened. */
function inProcess(): PhysicsWorker & { opened: number } {
  const counted = {
    opened: 0,
    ...physicsWorker({
      endpoint: () => {
        counted.opened++;
        return connectInProcess().endpoint;
      },
    }),
  };
  return counted;
}

/** Frame deltas of an uneven display: frames of one, two and no steps. */
const DELTAS = [1 / 60, 1 / 30, 1 / 144, 1 / 50];

/** Frames each scene runs: about two seconds of world time. */
const FRAMES = 120;

/** Moves its children along `path(frame)` every frame before the world steps (and before colliders follow their anchors). */
function Mover({ path, children }: { path: (frame: number) => [number, number, number]; children: ReactNode }) {
  const group = useRef<Group>(null);
  const frame = useRef(0);
  useFrame(() => {
    group.current?.position.set(...path(frame.current++));
  }, STEP_PRIORITY - 2);
  return <group ref={group}>{children}</group>;
}

/** Drags the rope's last particle with a ParticleDrag (as <DragControls> does): grabbed at frame 10, pulled along a moving ray, thrown at frame 60. */
function RopeDrag() {
  const { world, store } = useContext(SinewContext)!;
  const drag = useMemo(() => new ParticleDrag(world), [world]);
  const frame = useRef(0);
  useFrame(() => {
    const f = frame.current++;
    const rope = store.getState().bodies.rope!;
    const time = f / 60;
    if (f === 10) drag.grab(rope.first + rope.count - 1, { x: 0, y: 0, z: -1 }, time);
    else if (f > 10 && f < 60) drag.drag({ x: 1 + 0.02 * (f - 10), y: 2 - 0.01 * (f - 10), z: 5 }, { x: 0, y: 0, z: -1 }, time);
    else if (f === 60) drag.release(time);
  }, STEP_PRIORITY - 1);
  return null;
}

/** A ragdoll whose bones drive a small rig (a hips bone and a thigh), made anew for each mount. */
function riggedRagdoll(): ReactNode {
  const root = new Bone();
  root.name = 'Hips';
  const thigh = new Bone();
  thigh.name = 'LeftUpLeg';
  thigh.position.set(0.1, -0.05, 0);
  root.add(thigh);
  return (
    <>
      <Ground />
      <Ragdoll feet={[0, 0.5, 0]} bones={{ lowerSpine: 'Hips', leftThigh: 'LeftUpLeg' }}>
        <primitive object={root} />
      </Ragdoll>
    </>
  );
}

const SCENES: Record<string, { node: ReactNode; pinAt?: (frame: number) => ReactNode; perMount?: () => ReactNode }> = {
  'a pinned cloth in wind, a pin moved by props and a collider that follows a moving group': {
    node: null,
    pinAt: (f) => (
      <>
        <Cloth name="flag" width={8} height={6} spacing={0.1} corner={[-0.4, 1.5, 0]} pin="top" />
        <Wind velocity={[0, 0, 2]} gust={0.3} />
        <Pin particle="flag.0" target={[-0.4 + 0.1 * Math.sin(Math.floor(f / 15)), 1.5, 0.1 * Math.floor(f / 15)]} />
        <Mover path={(t) => [-0.8 + 0.015 * t, 1.1, 0.05]}>
          <SphereCollider follow position={[0, 0, 0]} radius={0.12} />
        </Mover>
      </>
    ),
  },
  'a rope dragged and thrown with a ParticleDrag': {
    node: (
      <>
        <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={10} pinStart />
        <RopeDrag />
      </>
    ),
  },
  'a <RigidBody> falling onto the <Ground>': {
    node: (
      <>
        <Ground />
        <RigidBody shape="box" size={[0.3, 0.3, 0.3]} position={[0, 0.8, 0]} rotation={[0.3, 0, 0.2]} angularVelocity={[0, 4, 0]} />
      </>
    ),
  },
  '<Ragdoll bones>: bones driven by limb frames captured at the start of each step': { node: null, perMount: riggedRagdoll },
  'a <Ragdoll> falling onto the <Ground>': {
    node: (
      <>
        <Ground />
        <Ragdoll name="doll" feet={[0, 0.6, 0]} pose="T" />
      </>
    ),
  },
};

/** The world's positions, step-start and previous positions as raw bytes. */
function worldBits(world: CoreWorld): Uint8Array[] {
  const n = world.particles.end * 3;
  const copy = (a: Float64Array) => new Uint8Array(a.slice(0, n).buffer);
  return [copy(world.particles.position), copy(world.particles.previous), copy(world.stepStartPositions)];
}

/** What is drawn: every object's position, quaternion and scale, instanced matrices and mesh vertex positions, as numbers. */
function drawn(scene: Object3D): number[] {
  const out: number[] = [];
  scene.traverse((o) => {
    out.push(...o.position.toArray(), ...o.quaternion.toArray(), ...o.scale.toArray());
    if (o instanceof InstancedMesh) out.push(...(o.instanceMatrix.array as Float32Array));
    else if (o instanceof Mesh) {
      const position = o.geometry.getAttribute('position');
      if (position) out.push(...(position.array as Float32Array));
    }
  });
  return out;
}

/** Reads the context of the nearest <World> into `into`. */
function ContextProbe({ into }: { into: { current: SinewContextValue | null } }) {
  into.current = useContext(SinewContext);
  return null;
}

/** Runs a scene in both modes side by side; returns the first frame whose world or drawing differs (-1: none), and how far the particles moved. */
async function compare(scene: (typeof SCENES)[string], strict = false) {
  const nodes = () => {
    const made = scene.perMount?.();
    return (f: number) => scene.pinAt?.(f) ?? made ?? scene.node;
  };
  const node = nodes();
  const remoteNode = nodes();
  const plain = await mountWorld(node(0), {}, strict);
  const worker = inProcess();
  const remote = await mountWorld(remoteNode(0), { worker }, strict);
  const start = plain.world.particles.position.slice(0, plain.world.particles.end * 3);
  let differs = -1;
  for (let f = 0; f < FRAMES && differs < 0; f++) {
    if (scene.pinAt && f > 0 && f % 15 === 0) {
      await plain.update(node(f));
      await remote.update(remoteNode(f), { worker });
    }
    await plain.frames(1, DELTAS[f % 4]);
    await remote.frames(1, DELTAS[f % 4]);
    const a = worldBits(plain.world);
    const b = worldBits(remote.world);
    const same = a.every((bytes, k) => bytes.length === b[k]!.length && bytes.every((x, i) => x === b[k]![i]));
    if (!same || plain.world.stepCount !== remote.world.stepCount || !equal(drawn(plain.renderer.scene.instance), drawn(remote.renderer.scene.instance))) differs = f;
  }
  let moved = 0;
  for (let i = 0; i < start.length; i++) moved += Math.abs(plain.world.particles.position[i]! - start[i]!);
  const steps = plain.world.stepCount;
  return { differs, moved, steps, plain, remote, worker };
}

function equal(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

describe('<World worker>: the same scene as on the main thread, bit for bit', () => {
  for (const [name, scene] of Object.entries(SCENES)) {
    it(name, async () => {
      const { differs, moved, steps, plain, remote, worker } = await compare(scene);
      expect(differs).toBe(-1);
      expect(steps).toBeGreaterThan(120); // uneven deltas: 120 frames hold about 133 steps
      expect(moved).toBeGreaterThan(0.5); // the scene moved (resting bodies would prove little)
      expect(worker.opened).toBe(1);
      expect(await plain.unmount()).toEqual([]);
      expect(await remote.unmount()).toEqual([]);
    });
  }

  it('under StrictMode: one worker, the same bits, and unmounting terminates it', async () => {
    const probe = { current: null as SinewContextValue | null };
    const scene = {
      node: (
        <>
          <ContextProbe into={probe} />
          <Rope name="rope" from={[0, 2, 0]} to={[1, 2, 0]} segments={10} pinStart />
          <RopeDrag />
        </>
      ),
    };
    const { differs, remote, plain, worker } = await compare(scene, true);
    expect(differs).toBe(-1);
    // StrictMode renders twice and mounts the effects twice: still one worker opened, and it lives on.
    expect(worker.opened).toBe(1);
    const link = probe.current!.worker!;
    expect(link.remote.isDisposed).toBe(false);
    await plain.unmount();
    await remote.unmount();
    await Promise.resolve();
    expect(link.remote.isDisposed).toBe(true);
  });
});

describe('<World worker>: events from the worker', () => {
  it('<Attach onBreak> hears a break made in the worker at the frame the main thread hears it, with the particle (the force is not sent: NaN)', async () => {
    const heard = async (worker: PhysicsWorker | undefined) => {
      const broken: { frame: number; particle: number; force: number }[] = [];
      let frame = 0;
      function Anchor() {
        const ref = useRef<Mesh>(null);
        return (
          <>
            <mesh ref={ref} position={[0, 2, 0]} />
            <Attach to={ref} particles={['rope.start']} breakForce={10} onBreak={(particle, force) => broken.push({ frame, particle, force })} />
          </>
        );
      }
      const scene = await mountWorld(
        <>
          <Rope name="rope" from={[0, 2, 0]} to={[0, 1, 0]} segments={8} particleMass={0.05} />
          <Anchor />
        </>,
        { sleep: false, damping: 2, worker },
      );
      for (; frame < 60; frame++) await scene.frames(1);
      // A 1 kg load at the end pulls 14.2 N on a hold that carries 10 N (see attach.test.tsx).
      scene.world.setMass(scene.particle('rope.end'), 1);
      for (; frame < 120; frame++) await scene.frames(1);
      const start = scene.particle('rope.start');
      await scene.unmount();
      return { broken, start };
    };
    const plain = await heard(undefined);
    const remote = await heard(inProcess());
    expect(plain.broken).toHaveLength(1);
    expect(plain.broken[0]!.force).toBeGreaterThan(10);
    expect(remote.broken).toEqual([{ frame: plain.broken[0]!.frame, particle: remote.start, force: NaN }]);
    expect(remote.start).toBe(plain.start);
  });
  it('<Attach to="body" onBreak> (a BodyAttachment) hears a break made in the worker at the frame the main thread hears it; the shadow lets the link go too', async () => {
    const heard = async (worker: PhysicsWorker | undefined) => {
      const broken: { frame: number; particle: number }[] = [];
      let frame = 0;
      const scene = await mountWorld(
        <>
          <Rope name="rope" from={[0, 2, 0]} to={[0, 1.2, 0]} segments={6} particleMass={0.05} pinStart />
          <RigidBody name="crate" shape="box" size={0.2} position={[0, 1.1, 0]} mass={0.5} />
          <Attach to="crate" particles={['rope.end']} breakForce={10} onBreak={(particle) => broken.push({ frame, particle })} />
        </>,
        { sleep: false, damping: 2, worker },
      );
      for (; frame < 60; frame++) await scene.frames(1);
      const held = broken.length;
      // The crate made 1 kg a corner: a 4 kg load on a tie that carries 10 N (0.5 kg hung from it for the first second).
      const crate = scene.world.bodies.find((b) => b.alive && b.kind !== 'rope')!;
      for (let i = 0; i < crate.count; i++) scene.world.setMass(crate.first + i, 1);
      for (; frame < 120; frame++) await scene.frames(1);
      const end = scene.particle('rope.end');
      // The shadow's (or the world's) link holds no more: nothing left counted as a constraint of the tie.
      const links = scene.world.stages.constraints.items.reduce((n, c) => n + (c.constraintCount ?? 1), 0);
      await scene.unmount();
      return { broken, held, end, links };
    };
    const plain = await heard(undefined);
    const remote = await heard(inProcess());
    expect(plain.held).toBe(0);
    expect(plain.broken).toHaveLength(1);
    expect(plain.broken[0]!.frame).toBeGreaterThanOrEqual(60); // after the load came
    expect(remote.broken).toEqual([{ frame: plain.broken[0]!.frame, particle: remote.end }]);
    expect(remote.end).toBe(plain.end);
    expect(remote.links).toBe(plain.links);
  });
});

describe('<World worker>: errors from the worker', () => {
  it('an error thrown in the worker reaches <World onError> from "<World worker>", with the worker\'s stack', async () => {
    const heard: [string, string, string][] = [];
    let endpoint: WorkerEndpoint | undefined;
    const worker = physicsWorker({ endpoint: () => (endpoint = connectInProcess().endpoint) });
    const scene = await mountWorld(null, { worker, onError: (error, component) => void heard.push([component, error.message, error.stack ?? '']) });
    await scene.frames(1);
    // What the worker's host posts when a command throws there (see src/worker/host.ts).
    endpoint!.onmessage!({ data: { type: 'error', command: 'world.setPin(…)', message: 'boom', stack: 'Error: boom\n    at WorkerHost.apply' } });
    expect(heard).toEqual([['<World worker>', 'sinew worker: world.setPin(…): boom', expect.stringContaining('(in the physics worker)\nError: boom\n    at WorkerHost.apply')]]);
    await scene.unmount();
  });
});

describe('<World worker>: slower than real time', () => {
  it("the worker's world says once that it runs slower than real time, to <World onError> as a SlowerThanRealTime error, as a main-thread world does", async () => {
    // Frames of 0.25 s: at most five steps of 1/60 s run per advance, so two thirds of the time is dropped.
    const heard = async (worker?: PhysicsWorker) => {
      const errors: [string, string, number][] = [];
      const scene = await mountWorld(<Rope from={[0, 1, 0]} to={[1, 1, 0]} segments={4} pinStart />, {
        worker,
        onError: (error, component) => void errors.push([component, error.name, (error.cause as { realTimeRatio: number }).realTimeRatio]),
      });
      await scene.frames(12, 0.25);
      await scene.unmount();
      return errors;
    };
    const plain = await heard();
    const remote = await heard(inProcess());
    expect(plain).toHaveLength(1);
    expect(plain[0]![0]).toBe('<World>');
    expect(plain[0]![1]).toBe('SlowerThanRealTime');
    expect(plain[0]![2]).toBeLessThan(0.5);
    expect(remote).toEqual(plain);
  });
});

describe('<World worker>: what cannot run in a worker is refused, naming the component', () => {
  async function refusal(node: ReactNode): Promise<string> {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      let scene: Mounted | undefined;
      try {
        scene = await mountWorld(node, { worker: inProcess() });
      } catch (error) {
        return (error as Error).message;
      }
      await scene.unmount();
      return '(mounted)';
    } finally {
      spy.mockRestore();
    }
  }

  function BeforeStep() {
    useBeforeStep(() => undefined);
    return null;
  }
  function OwnForce() {
    const force = useMemo(() => new CoreAttractor({ position: [0, 1, 0], strength: 1 }), []);
    useForce(force);
    return null;
  }

  it('a worker prop that physicsWorker() did not make says where to get one', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(mountWorld(null, { worker: true as unknown as PhysicsWorker })).rejects.toThrow(/^<World>: worker must be made by physicsWorker\(\) from 'sinew-physics\/worker'/);
    } finally {
      spy.mockRestore();
    }
  });

  it('physicsWorker rejects a bad maxLagMs, naming it, and keeps a good one for its remote world', () => {
    expect(() => physicsWorker({ maxLagMs: -1 })).toThrow(/physicsWorker: maxLagMs.*-1/);
    expect(() => physicsWorker({ maxLagMs: Number.NaN })).toThrow(/physicsWorker: maxLagMs.*NaN/);
    expect(physicsWorker({ maxLagMs: 80 }).options.maxLagMs).toBe(80);
    expect(physicsWorker({ maxLagMs: Infinity }).options.maxLagMs).toBe(Infinity);
  });

  it("<Particle> whose radius changes after it is made (the worker's columns are out of reach)", async () => {
    const scene = await mountWorld(<Particle name="p" position={[0, 1, 0]} radius={0.1} />, { worker: inProcess() });
    await scene.frames(2);
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(scene.update(<Particle name="p" position={[0, 1, 0]} radius={0.2} />)).rejects.toThrow(
        /^<Particle>: radius, friction and restitution cannot change in a <World worker> once the particle is made/,
      );
    } finally {
      spy.mockRestore();
    }
    await scene.unmount();
  });

  it('useBeforeStep(): its callback would run in every step, in the worker', async () => {
    expect(await refusal(<BeforeStep />)).toMatch(/^useBeforeStep\(\) cannot run in a <World worker>: .*useFrame/);
  });

  it('useForce() of a force made on this thread', async () => {
    expect(await refusal(<OwnForce />)).toMatch(/^useForce\(\): in a <World worker> the force must be made by the world, got Attractor made on this thread.*makeOn\(world, Attractor/);
  });

  it('<RapierBridge>, whose Rapier world lives on the main thread', async () => {
    expect(await refusal(<RapierBridge />)).toMatch(/<RapierBridge> cannot run in a <World worker>: .*Rapier's world, which lives on the main thread/);
  });
});
