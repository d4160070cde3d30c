import { createCloth, createRagdoll, type World } from '../../../src/core/index.js';
import { RemoteWorld } from '../../../src/worker/index.js';
import { frameScene, staircaseMesh } from '../scenes.js';
import type { Mode } from './scenes.js';

// The engine's step cost without React or rendering: test/bench/scenes.ts's frame scene
// stepped one `advance(1 / 60)` at a time, on this thread or in sinew's worker, with the
// page idle between steps in both cases (waiting for the worker asleep, on a timer: a main
// thread spinning meanwhile took a core from the worker and made its steps 50–70 % slower
// on the loaded 2-core VM). What the two measure is the same thing (the
// world's own `stats.msPerStep`, timed inside `advance` by each thread's performance.now()),
// so a difference here is the thread, not the page's rendering around it.

/** Lets the event loop run (messages from the worker included), without setTimeout's 4 ms clamp. */
function yieldTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The frame scene in a worker, built through the remote world as `frameScene` builds it. */
function remoteFrameScene(transport: 'shared' | 'transfer'): RemoteWorld {
  const remote = new RemoteWorld({ transport, onError: (error) => console.error(error) });
  remote.world.addCollider(staircaseMesh(10, 0.3, 0.18, 3));
  remote.call(createCloth, remote.world, { width: 64, height: 64, spacing: 0.05, corner: [-1.6, 4.5, 0.8], pin: 'top-corners', radius: 0.01 });
  for (let k = 0; k < 4; k++) remote.call(createRagdoll, remote.world, { feet: [0.4 + k * 0.6, 1.2 + k * 0.2, -0.6 + (k % 2) * 1.2], height: 1.7, pose: k % 2 === 0 ? 'standing' : 'T' });
  return remote;
}

/** The frame scene stepping in one mode. */
interface EngineRun {
  mode: Mode;
  step(): Promise<number>;
  dispose(): void;
}

/** Starts the frame scene in `mode`; each `step()` resolves to that step's ms, measured by the thread that ran it. */
function engineRun(mode: Mode): EngineRun {
  if (mode === 'main') {
    const world: World = frameScene();
    return {
      mode,
      async step() {
        await yieldTask();
        world.advance(world.timeStep);
        return world.stats.msPerStep;
      },
      dispose() {},
    };
  }
  const remote = remoteFrameScene(mode);
  const timeStep = remote.shadow.timeStep;
  return {
    mode,
    async step() {
      remote.world.advance(timeStep);
      const started = performance.now();
      // Wait asleep (a timer), not spinning: a busy main thread would take the core the worker needs.
      while (remote.stats.behind > 0) {
        if (performance.now() - started > 10_000) throw new Error(`engine-only ${mode}: the worker sent no frame for 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        remote.sync();
      }
      return remote.shadow.stats.msPerStep;
    },
    dispose: () => remote.dispose(),
  };
}

/**
 * Steps the frame scene in each of `modes` in turn, one step each, `warm` rounds and then
 * `steps` measured rounds (which mode goes first rotates): whatever the machine's other load
 * does meanwhile falls on every mode alike. Returns each mode's measured ms per step.
 */
export async function engineRotation(modes: readonly Mode[], warm: number, steps: number): Promise<number[][]> {
  const runs = modes.map(engineRun);
  const ms = modes.map(() => [] as number[]);
  try {
    for (let round = 0; round < warm + steps; round++) {
      for (let k = 0; k < runs.length; k++) {
        const j = (round + k) % runs.length;
        const step = await runs[j]!.step();
        if (round >= warm) ms[j]!.push(step);
      }
    }
  } finally {
    for (const run of runs) run.dispose();
  }
  return ms;
}
