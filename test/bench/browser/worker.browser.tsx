import { Canvas } from '@react-three/fiber';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { engineRotation } from './engineOnly.js';
import { fixed, fps, median, summarise, table, verdict } from './numbers.js';
import { BigCloth, FrameScene, Recording, type Mode } from './scenes.js';

// Issue 30's browser benchmark (`npm run bench:browser`; not part of `npm test`): physics
// in a worker against the main thread, in one headless-Chromium run, on a cross-origin
// isolated page (timer steps of 5 µs). It prints Markdown tables and one verdict per goal;
// the goals are printed, not asserted (speed depends on the machine). The run fails only
// when it cannot measure: a scene that does not mount, a worker that sends nothing, an error.

/** Frames recorded per frame-scene run (the 600). */
const FRAMES = 600;
/** Steps a frame-scene run warms up for before recording. */
const WARM_STEPS = 120;
/** Engine only: rounds to warm up, rounds measured (one step per mode per round). */
const ENGINE_WARM = 60;
const ENGINE_STEPS = 200;
/** The big cloth's side, and the seconds each of its runs is watched. */
const BIG = 200;
const BIG_SECONDS = 6;

/** Mounts `content` in a 400 × 300 `<Canvas>`; returns the unmount. */
function mount(content: ReactNode): () => void {
  const element = document.createElement('div');
  element.style.cssText = 'width: 400px; height: 300px';
  document.body.append(element);
  const root = createRoot(element);
  root.render(<Canvas camera={{ position: [1.5, 3, 7] }}>{content}</Canvas>);
  return () => {
    root.unmount();
    element.remove();
  };
}

async function until(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeoutMs) throw new Error(`browser bench: timed out after ${timeoutMs / 1000} s waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** requestAnimationFrame's rate on the page over `ms`, with nothing else running. */
async function idleRate(ms: number): Promise<number> {
  const at: number[] = [];
  const start = performance.now();
  while (performance.now() - start < ms) at.push(await new Promise<number>((resolve) => requestAnimationFrame(resolve)));
  return fps(at);
}

/** Mounts the frame scene in `mode` and records {@link FRAMES} frames after warming up. */
async function frameRun(mode: Mode): Promise<Recording> {
  const recording = new Recording(FRAMES, WARM_STEPS);
  const unmount = mount(<FrameScene mode={mode} recording={recording} />);
  try {
    await until(() => recording.done || recording.errors.length > 0, `the frame scene (${mode}) recorded ${FRAMES} frames`, 90_000);
  } finally {
    unmount();
  }
  if (recording.errors.length > 0) throw new Error(`frame scene (${mode}): ${recording.errors.join('; ')}`);
  return recording;
}

/** Mounts the big cloth in `mode` and records for {@link BIG_SECONDS} (`paused`: drawn, not stepped; `drawn: false`: stepped, not drawn). */
async function bigRun(mode: Mode, { paused = false, drawn = true } = {}): Promise<Recording> {
  const recording = new Recording(100_000, paused ? 0 : 1);
  const unmount = mount(<BigCloth mode={mode} size={BIG} paused={paused} drawn={drawn} recording={recording} />);
  try {
    await until(() => recording.frames > 0 || recording.errors.length > 0, `the ${BIG} × ${BIG} cloth (${mode}) drew a frame`, 60_000);
    const start = performance.now();
    await until(() => performance.now() - start > BIG_SECONDS * 1000 || recording.errors.length > 0, 'the watch ends', BIG_SECONDS * 1000 + 10_000);
  } finally {
    unmount();
  }
  if (recording.errors.length > 0) throw new Error(`${BIG} × ${BIG} cloth (${mode}): ${recording.errors.join('; ')}`);
  return recording;
}

const MODE_NAME: Record<Mode, string> = { main: 'main thread', shared: 'worker (shared)', transfer: 'worker (transfer)' };

function frameRow(name: string, r: Recording): string[] {
  const sinew = summarise(r.sinewMs.subarray(0, r.frames));
  const render = summarise(r.renderMs.subarray(0, r.frames));
  const step = summarise(r.stepMs);
  return [name, fixed(sinew.mean), fixed(sinew.median), fixed(sinew.worst), fixed(render.mean), fixed(step.mean), fixed(step.median), String(step.count), fixed(fps(r.at, r.frames), 1)];
}

it('issue 30 in Chromium: the frame scene and a 200 × 200 cloth, on the main thread and in a worker', async () => {
  expect(crossOriginIsolated).toBe(true); // the config's COOP/COEP headers: 5 µs timers, both transports
  const out: string[] = [];
  const log = (line = '') => out.push(line);
  const idle = await idleRate(2000);

  // 1. Engine only: the step's cost on each thread, one step of each in turn.
  const modes = ['main', 'shared', 'transfer'] as const;
  const engine = await engineRotation(modes, ENGINE_WARM, ENGINE_STEPS);

  // 2. The frame scene with React, drawn.
  const frame = { main: await frameRun('main'), shared: await frameRun('shared'), transfer: await frameRun('transfer') };

  // 3. The big cloth: drawn without stepping; stepped and drawn; stepped, not drawn.
  const big = {
    paused: await bigRun('main', { paused: true }),
    main: await bigRun('main'),
    worker: await bigRun('shared'),
    mainUndrawn: await bigRun('main', { drawn: false }),
    workerUndrawn: await bigRun('shared', { drawn: false }),
  };

  log(`### Frame scene (64 × 64 cloth, four ragdolls, staircase; drawn), ${FRAMES} frames per run after ${WARM_STEPS} warm-up steps`);
  log();
  log(
    table(
      ['run', 'sinew ms/frame mean', 'median', 'worst', 'renderers ms/frame', 'engine ms/step mean', 'median', 'steps sampled', 'page fps'],
      modes.map((mode) => frameRow(MODE_NAME[mode], frame[mode])),
    ),
  );
  log();
  const mainEngine = median(engine[0]!);
  log(`### Engine only (the frame scene, no React, nothing drawn): ms per step over ${ENGINE_STEPS} steps each, one step of each in turn`);
  log();
  log(
    table(
      ['thread', 'median', 'mean', 'vs main thread (medians)'],
      modes.map((mode, k) => {
        const s = summarise(engine[k]!);
        return [MODE_NAME[mode], fixed(s.median, 3), fixed(s.mean, 3), k === 0 ? '' : `${fixed((s.median / mainEngine - 1) * 100, 1)} %`];
      }),
    ),
  );
  log();
  const bigRow = (name: string, r: Recording) => {
    const steps = r.lastStep - r.firstStep;
    const seconds = (r.at[r.frames - 1]! - r.at[0]!) / 1000;
    const slow = Number.isNaN(r.slowAt) ? 'no' : `after ${fixed((r.slowAt - r.mountedAt) / 1000, 1)} s`;
    return [
      name,
      fixed(fps(r.at, r.frames), 1),
      fixed(steps / seconds, 1),
      fixed(summarise(r.stepMs).median, 1),
      fixed(summarise(r.sinewMs.subarray(0, r.frames)).mean),
      fixed(summarise(r.renderMs.subarray(0, r.frames)).mean),
      slow,
      `${r.behind} (most ${r.mostBehind})`,
    ];
  };
  log(`### ${BIG} × ${BIG} cloth, ${BIG_SECONDS} s per run; the page's requestAnimationFrame rate with nothing running: ${fixed(idle, 1)} fps`);
  log();
  log(
    table(
      ['run', 'page fps', 'steps/s', 'engine ms/step', 'sinew ms/frame', 'renderers ms/frame', 'SlowerThanRealTime', 'advances behind at the end'],
      [
        bigRow('drawn, not stepped (paused)', big.paused),
        bigRow(`${MODE_NAME.main}, drawn`, big.main),
        bigRow(`${MODE_NAME.shared}, drawn`, big.worker),
        bigRow(`${MODE_NAME.main}, not drawn`, big.mainUndrawn),
        bigRow(`${MODE_NAME.shared}, not drawn`, big.workerUndrawn),
      ],
    ),
  );
  log();

  const sinew = (r: Recording) => summarise(r.sinewMs.subarray(0, r.frames));
  const sceneRatio = summarise(frame.shared.stepMs).median / summarise(frame.main.stepMs).median;
  const workerFps = fps(big.workerUndrawn.at, big.workerUndrawn.frames);
  const drawnFps = fps(big.worker.at, big.worker.frames);
  log('### Verdicts');
  log();
  for (const mode of ['shared', 'transfer'] as const) {
    const s = sinew(frame[mode]);
    log(
      verdict(
        s.mean <= 0.3,
        `frame scene, ${MODE_NAME[mode]}: sinew's main-thread work ≤ 0.3 ms per frame (mean)`,
        `${fixed(s.mean, 3)} ms mean, ${fixed(s.worst)} ms worst (main thread: ${fixed(sinew(frame.main).mean)} ms mean, ${fixed(sinew(frame.main).worst)} ms worst)`,
      ),
    );
  }
  for (const [k, mode] of [
    [1, 'shared'],
    [2, 'transfer'],
  ] as const) {
    const ratio = median(engine[k]!) / mainEngine;
    log(verdict(ratio <= 1.1, `engine only: the step in a ${MODE_NAME[mode]} at most 10 % above the main thread's (medians)`, `${fixed((ratio - 1) * 100, 1)} %`));
  }
  log(verdict(sceneRatio <= 1.1, "frame scene, drawn: the worker's step at most 10 % above the main thread's (medians)", `${fixed((sceneRatio - 1) * 100, 1)} %`));
  log(
    verdict(
      workerFps >= 0.92 * idle,
      `${BIG} × ${BIG} cloth in a worker, not drawn: the page keeps the idle rate (≥ 92 % of ${fixed(idle, 1)} fps)`,
      `${fixed(workerFps, 1)} fps (main thread: ${fixed(fps(big.mainUndrawn.at, big.mainUndrawn.frames), 1)})`,
    ),
  );
  log(
    verdict(
      drawnFps >= 0.92 * idle,
      `${BIG} × ${BIG} cloth in a worker, drawn: the page keeps the idle rate`,
      `${fixed(drawnFps, 1)} fps (main thread: ${fixed(fps(big.main.at, big.main.frames), 1)}; drawn without stepping: ${fixed(fps(big.paused.at, big.paused.frames), 1)}, the software rasteriser's ceiling)`,
    ),
  );
  const slow = (r: Recording) => (Number.isNaN(r.slowAt) ? 'no' : 'yes');
  const allSlow = [big.worker, big.workerUndrawn, big.main, big.mainUndrawn].every((r) => !Number.isNaN(r.slowAt));
  log(
    verdict(
      allSlow,
      `${BIG} × ${BIG} cloth: SlowerThanRealTime reaches <World onError> in both modes, drawn or not`,
      `worker ${slow(big.worker)} / ${slow(big.workerUndrawn)}, main thread ${slow(big.main)} / ${slow(big.mainUndrawn)}`,
    ),
  );
  log(
    verdict(
      big.workerUndrawn.behind <= 2,
      `${BIG} × ${BIG} cloth in a worker, not drawn: two advances in flight at most by the end (maxLagMs), not one a frame without end`,
      `${big.workerUndrawn.behind} (most ${big.workerUndrawn.mostBehind}, while the worker started)`,
    ),
  );
  console.log(`\n${out.join('\n')}\n`);

  // What must hold for the numbers to mean anything (not the goals).
  for (const mode of modes) expect(frame[mode].stepMs.length).toBeGreaterThan(FRAMES / 4);
  for (const r of [big.main, big.worker, big.mainUndrawn, big.workerUndrawn]) expect(r.lastStep).toBeGreaterThan(r.firstStep);
});
