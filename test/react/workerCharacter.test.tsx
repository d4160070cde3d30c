import { useFrame } from '@react-three/fiber';
import { useContext, useMemo, useRef } from 'react';
import { AnimationMixer, type Object3D } from 'three';
import { describe, expect, it } from 'vitest';
import { createTestHumanoid, createWalkClip } from 'sinew-physics/testing';
import { createBox } from '../../src/core/bodies/rigid.js';
import type { World as CoreWorld } from '../../src/core/world.js';
import { CharacterRagdoll } from '../../src/react/components/CharacterRagdoll.js';
import { Ground } from '../../src/react/components/Ground.js';
import { SinewContext } from '../../src/react/context.js';
import { STEP_PRIORITY } from '../../src/react/World.js';
import type { AnimatedRagdoll } from '../../src/three/animatedRagdoll.js';
import { buildOn, readable } from '../../src/worker/builders.js';
import { connectInProcess } from '../../src/worker/inProcess.js';
import { RemoteWorld, type WorkerEndpoint } from '../../src/worker/remoteWorld.js';
import { World } from '../../src/core/world.js';
import { AnimatedRagdoll as Character } from '../../src/three/animatedRagdoll.js';
import { physicsWorker, type PhysicsWorker } from '../../src/worker/physicsWorker.js';
import { mountWorld } from './helpers.js';

// Issue 30: the character flow (docs/characters.md) in a <World worker>. The animation is
// sampled on the main thread once a frame and sent as a command; the character's per-step
// driver (pins gliding over the frame's steps, strikes, the get-up's blend) runs in the
// worker, and what its steps change comes back with the frame. Given the same frames, both
// modes give the same positions and the same bone matrices, bit for bit, and the same states
// at the same frames (the in-process worker reads each frame back before `advance` returns).

/** Frame deltas of an uneven display: frames of one, two and no steps. */
const DELTAS = [1 / 60, 1 / 30, 1 / 144, 1 / 50];

/** What a frame's script does: a crate thrown at the chest (a strike), a get-up, a hit, strengths. */
const SCRIPT: Record<number, (character: AnimatedRagdoll, world: CoreWorld, made: { remove(): void }[]) => void> = {
  20: (character, world, made) => {
    // The chest particle, read where a frame put it (the shadow's copy in a worker).
    const chest = readable(world).getPosition(character.ragdoll.first + 1);
    made.push(buildOn(world, createBox, world, { size: 0.3, mass: 12, position: [chest[0], chest[1], chest[2] + 1.2], velocity: [0, 0, -9] }));
  },
  70: (character) => character.getUp(0.5),
  120: (character) => character.setStrength({ leftElbow: 0.4, rightElbow: 0.4, chest: 0.2 }),
  125: (character) => character.hit('pelvis', [1, 0, 0], 0.012),
  160: (character) => character.getUp(0.4),
  199: (_, __, made) => made.pop()?.remove(),
};
const FRAMES = 200;

/** A walking test humanoid in <CharacterRagdoll>, scripted by {@link SCRIPT}; `log` gets its state each frame. */
function Walker({ log }: { log: string[] }) {
  const { world } = useContext(SinewContext)!;
  const humanoid = useMemo(() => createTestHumanoid(), []);
  const mixer = useMemo(() => {
    const m = new AnimationMixer(humanoid.mesh);
    m.clipAction(createWalkClip()).play();
    return m;
  }, [humanoid]);
  const character = useRef<AnimatedRagdoll | null>(null);
  const frame = useRef(0);
  const made = useMemo<{ remove(): void }[]>(() => [], []);
  // Before the character samples the animation (STEP_PRIORITY - 1) and the world steps.
  useFrame((_, delta) => {
    mixer.update(delta);
    const c = character.current;
    if (c) SCRIPT[frame.current]?.(c, world, made);
  }, STEP_PRIORITY - 2);
  // After the world stepped and the bones were posed.
  useFrame(() => {
    const c = character.current;
    if (c) log.push(`${frame.current}:${c.active ? (c.gettingUp ? 'getting up' : 'physical') : 'animated'}`);
    frame.current++;
  }, 1);
  return (
    <CharacterRagdoll ref={character}>
      <primitive object={humanoid.root} />
    </CharacterRagdoll>
  );
}

function inProcess(): PhysicsWorker {
  return physicsWorker({ endpoint: () => connectInProcess().endpoint });
}

/** The world's positions, previous and step-start positions, as bytes. */
function worldBits(world: CoreWorld): number[] {
  const n = world.particles.end * 3;
  return [
    ...new Uint8Array(world.particles.position.slice(0, n).buffer),
    ...new Uint8Array(world.particles.previous.slice(0, n).buffer),
    ...new Uint8Array(world.stepStartPositions.slice(0, n).buffer),
  ];
}

/** Every object's world matrix (the bones the ragdoll poses included). */
function matrices(scene: Object3D): number[] {
  const out: number[] = [];
  scene.updateMatrixWorld(true);
  scene.traverse((o) => out.push(...o.matrixWorld.elements));
  return out;
}

/** Compresses a state log to its changes: `frame:state` where the state changed. */
function changes(log: string[]): string[] {
  return log.filter((entry, i) => i === 0 || entry.split(':')[1] !== log[i - 1]!.split(':')[1]);
}

describe('<CharacterRagdoll> in a <World worker>', () => {
  it('walks, is struck by a crate, gets up, is hit with weak arms and gets up again: the same positions, bones and states as on the main thread, bit for bit', async () => {
    const plainLog: string[] = [];
    const remoteLog: string[] = [];
    const plain = await mountWorld(
      <>
        <Ground />
        <Walker log={plainLog} />
      </>,
      { sleep: false },
    );
    const remote = await mountWorld(
      <>
        <Ground />
        <Walker log={remoteLog} />
      </>,
      { sleep: false, worker: inProcess() },
    );
    let differs = -1;
    for (let f = 0; f < FRAMES && differs < 0; f++) {
      await plain.frames(1, DELTAS[f % 4]);
      await remote.frames(1, DELTAS[f % 4]);
      const a = worldBits(plain.world);
      const b = worldBits(remote.world);
      if (a.length !== b.length || a.some((x, i) => x !== b[i])) differs = f;
      const m = matrices(plain.renderer.scene.instance);
      const n = matrices(remote.renderer.scene.instance);
      if (m.length !== n.length || m.some((x, i) => !Object.is(x, n[i]))) differs = f;
    }
    expect(differs).toBe(-1);
    expect(remoteLog).toEqual(plainLog);
    // The flow went through every state: animated, struck (physical), getting up, animated again, hit, up again.
    const states = changes(plainLog).map((e) => e.split(':')[1]);
    expect(states).toEqual(['animated', 'physical', 'getting up', 'animated', 'physical', 'getting up', 'animated']);
    // The strike came from the crate within a few frames of its throw (frame 20), not from the script's hit (125).
    const struck = Number(changes(plainLog)[1]!.split(':')[0]);
    expect(struck).toBeGreaterThan(20);
    expect(struck).toBeLessThan(30);
    expect(await plain.unmount()).toEqual([]);
    expect(await remote.unmount()).toEqual([]);
  });
});

/** The test humanoid walking in place on a floor in `world`, its ragdoll following the walk. */
function walking(world: CoreWorld) {
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const humanoid = createTestHumanoid();
  const mixer = new AnimationMixer(humanoid.mesh);
  mixer.clipAction(createWalkClip()).play();
  const character = new Character(world, humanoid.root);
  return {
    character,
    frame(dt: number) {
      mixer.update(dt);
      character.follow(dt);
      world.advance(dt);
      character.pose();
    },
  };
}

describe('AnimatedRagdoll on a RemoteWorld whose frames arrive two frames late', () => {
  it('steps bit for bit as on the main thread, keeps ids in agreement when a get-up is asked before the strike is heard, and its states follow within the two frames', () => {
    // The worker's messages (frames, character states) reach the main thread two frames after they were posted.
    const { endpoint: inner } = connectInProcess();
    const held: { frame: number; data: unknown }[] = [];
    let now = 0;
    const endpoint: WorkerEndpoint = { onmessage: null, postMessage: (m, t) => inner.postMessage(m, t) };
    inner.onmessage = (e) => void held.push({ frame: now, data: e.data });
    const deliver = () => {
      while (held.length > 0 && held[0]!.frame <= now - 2) endpoint.onmessage?.({ data: held.shift()!.data });
    };
    const errors: Error[] = [];
    const remote = new RemoteWorld({ endpoint, transport: 'transfer', world: { sleep: false }, onError: (e) => errors.push(e) });
    const plain = new World({ sleep: false });
    const a = walking(plain);
    const b = walking(remote.world);
    // The character's positions after each frame on the main thread; the frame read two frames late is compared with the
    // main thread's then (the crate's slots are left out: the shadow adds and frees them two frames before its frames do).
    const bits: Float64Array[] = [];
    const key = (positions: Float64Array, n: number) => Buffer.from(positions.slice(0, n).buffer).toString('base64');
    const states: [string[], string[]] = [[], []];
    const state = (c: Character) => (c.active ? (c.gettingUp ? 'getting up' : 'physical') : 'animated');
    let compared = 0;
    let upAt = -1;
    const crates: { remove(): void }[] = [];
    for (now = 0; now < 150; now++) {
      deliver();
      if (now === 10) {
        // Where the main-thread chest is (the shadow's lags two frames).
        const chest = plain.getPosition(a.character.ragdoll.first + 1);
        for (const world of [plain, remote.world]) crates.push(buildOn(world, createBox, world, { size: 0.3, mass: 12, position: [0, chest[1], chest[2] + 1.2], velocity: [0, 0, -9] }));
      }
      // The frame after the main-thread character is struck: the remote one has not heard of it yet.
      if (upAt < 0 && a.character.active) {
        upAt = now;
        expect(b.character.active).toBe(false);
        // The crate goes, or it would strike again during the get-up.
        for (const crate of crates) crate.remove();
        a.character.getUp(0.5);
        b.character.getUp(0.5);
      }
      if (now === 90) for (const c of [a.character, b.character]) c.hit('chest', [0, 0, 1], 0.01);
      if (now === 95) for (const c of [a.character, b.character]) c.setStrength(0.3);
      const dt = DELTAS[now % 4]!;
      a.frame(dt);
      b.frame(dt);
      bits.push(plain.particles.position.slice(0, a.character.ragdoll.count * 3));
      if (now >= 2) {
        const seen = bits[now - 2]!;
        expect(key(remote.shadow.particles.position, seen.length), `frame ${now - 2}`).toBe(key(seen, seen.length));
        compared++;
      }
      states[0].push(state(a.character));
      states[1].push(state(b.character));
    }
    expect(upAt).toBeGreaterThan(10);
    expect(compared).toBe(148);
    // Without the same pins made anew by both sides' getUp, the worker (struck, pins dropped) and the shadow would add different pins.
    expect(errors).toEqual([]);
    const changed = (log: string[]) => log.flatMap((s, i) => (i === 0 || s !== log[i - 1] ? [[i, s] as const] : []));
    const [p, r] = [changed(states[0]), changed(states[1])];
    expect(r.map(([, s]) => s)).toEqual(p.map(([, s]) => s));
    expect(p.map(([, s]) => s)).toEqual(['animated', 'physical', 'getting up', 'animated', 'physical']);
    // Each change shows on the remote side at the frame it happened or up to two frames later (what the steps did arrives late).
    expect(r.map(([frame], i) => frame - p[i]![0]).every((late) => late >= 0 && late <= 2)).toBe(true);
    // The strike, heard late, is two frames late.
    expect(r[1]![0] - p[1]![0]).toBe(2);
    a.character.remove();
    b.character.remove();
    remote.dispose();
  });
});
