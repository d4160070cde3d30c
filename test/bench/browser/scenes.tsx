import { useFrame } from '@react-three/fiber';
import { useContext, useMemo } from 'react';
import { BufferAttribute, BufferGeometry } from 'three';
import { Cloth, MeshCollider, Ragdoll, SinewContext, STEP_PRIORITY, World } from '../../../src/react/index.js';
import { physicsWorker } from '../../../src/worker/index.js';
import { staircaseMesh } from '../scenes.js';

// The browser benchmark's scenes, built with sinew's React components, and the probe that
// times the main thread's share of each frame with the Performance API (performance.now()).

/** How a run steps its world: on the main thread, or in a worker over one transport. */
export type Mode = 'main' | 'shared' | 'transfer';

/** What one run records, frame by frame, once its world has warmed up. */
export class Recording {
  /** Main-thread ms per frame of the `<World>`'s own `useFrame` (stepping on the main thread; sending, reading back and the per-frame captures in a worker). */
  readonly sinewMs: Float64Array;
  /** Main-thread ms per frame of the default-priority `useFrame` callbacks after it: sinew's renderers copying positions into three.js. */
  readonly renderMs: Float64Array;
  /** The frame's timestamp (performance.now() at the `<World>`'s callback). */
  readonly at: Float64Array;
  /** Engine ms per step, per advance seen (the `World`'s own `stats`: this thread's world, or the worker's as its latest frame reports it). */
  readonly stepMs: number[] = [];
  /** Steps per advance, beside {@link stepMs}. */
  readonly steps: number[] = [];
  /** Frames recorded so far. */
  frames = 0;
  /** performance.now() when the run mounted, and when its world first said it runs slower than real time (NaN: never). */
  mountedAt = performance.now();
  slowAt = Number.NaN;
  /** The world's step count when recording began and ended. */
  firstStep = 0;
  lastStep = 0;
  /** The worker's backlog (advances sent whose frame has not been read back) at the end, and its most. */
  behind = 0;
  mostBehind = 0;
  /** Errors other than SlowerThanRealTime, which fail the run. */
  readonly errors: string[] = [];
  private started = 0;
  private lastSeen = -1;

  constructor(
    /** Frames to record. */
    readonly limit: number,
    /** Steps the world runs before recording starts (JIT warm-up; a worker's first frames also arrive late). */
    readonly warmSteps: number,
  ) {
    this.sinewMs = new Float64Array(limit);
    this.renderMs = new Float64Array(limit);
    this.at = new Float64Array(limit);
  }

  /** True once {@link limit} frames are recorded. */
  get done(): boolean {
    return this.frames >= this.limit;
  }

  /** The `onError` of the run's `<World>`. */
  readonly onError = (error: Error, component: string): void => {
    if (error.name === 'SlowerThanRealTime') {
      if (Number.isNaN(this.slowAt)) this.slowAt = performance.now();
    } else this.errors.push(`${component}: ${error.message}`);
  };

  /** @internal Before the `<World>`'s callback. */
  begin(): void {
    this.started = performance.now();
  }

  /** @internal After the `<World>`'s callback: `stepping` is the world that steps (this thread's, or the worker's shadow), `behind` the worker's backlog. */
  stepped(stepping: { stepCount: number; stats: { msPerFrame: number; stepsPerFrame: number } }, behind: number): void {
    const now = performance.now();
    const count = stepping.stepCount;
    const fresh = count !== this.lastSeen;
    this.lastSeen = count;
    if (this.done || count < this.warmSteps) {
      this.started = -1;
      return;
    }
    if (this.frames === 0) this.firstStep = count;
    this.lastStep = count;
    this.behind = behind;
    if (behind > this.mostBehind) this.mostBehind = behind;
    this.sinewMs[this.frames] = now - this.started;
    this.at[this.frames] = now;
    this.started = now;
    if (fresh && stepping.stats.stepsPerFrame > 0) {
      this.stepMs.push(stepping.stats.msPerFrame / stepping.stats.stepsPerFrame);
      this.steps.push(stepping.stats.stepsPerFrame);
    }
  }

  /** @internal After the renderers. */
  rendered(): void {
    if (this.started < 0 || this.done) return;
    this.renderMs[this.frames] = performance.now() - this.started;
    this.frames++;
  }
}

/** Times the `<World>`'s callback (it runs at `STEP_PRIORITY`) and the default-priority renderers after it. Mount it last inside the `<World>`. */
function Probe({ recording }: { recording: Recording }) {
  const value = useContext(SinewContext)!;
  useFrame(() => recording.begin(), STEP_PRIORITY - 1);
  useFrame(() => {
    const link = value.worker;
    recording.stepped(link === null ? value.world : link.remote.shadow, link === null ? 0 : link.remote.stats.behind);
  }, STEP_PRIORITY + 1);
  // Priority 0, subscribed after every sinew renderer in the scene (this probe mounts last).
  useFrame(() => recording.rendered());
  return null;
}

/** The engine benchmark's staircase (`staircaseMesh`, as `frameScene` adds it) as a `<MeshCollider>` child. */
function Staircase() {
  const geometry = useMemo(() => {
    const mesh = staircaseMesh(10, 0.3, 0.18, 3);
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(new Float32Array(mesh.vertices), 3));
    g.setIndex(mesh.indices);
    g.computeVertexNormals();
    return g;
  }, []);
  return (
    <MeshCollider>
      <mesh geometry={geometry}>
        <meshStandardMaterial color="#5a6580" />
      </mesh>
    </MeshCollider>
  );
}

/** The physics worker for `mode` (none on the main thread). */
function workerFor(mode: Mode) {
  return mode === 'main' ? undefined : physicsWorker({ transport: mode });
}

/**
 * test/bench/scenes.ts's `frameScene` (a 64 × 64 cloth hung from its top corners over a
 * triangle-mesh staircase, four ragdolls dropped onto the stairs) in a `<World>`, with
 * sleeping off so that every frame costs the same, recorded by `recording`.
 */
export function FrameScene({ mode, recording }: { mode: Mode; recording: Recording }) {
  return (
    <World worker={workerFor(mode)} sleep={false} onError={recording.onError}>
      <Staircase />
      <Cloth width={64} height={64} spacing={0.05} corner={[-1.6, 4.5, 0.8]} pin="top-corners" radius={0.01} />
      {[0, 1, 2, 3].map((k) => (
        <Ragdoll key={k} feet={[0.4 + k * 0.6, 1.2 + k * 0.2, -0.6 + (k % 2) * 1.2]} height={1.7} pose={k % 2 === 0 ? 'standing' : 'T'} />
      ))}
      <Probe recording={recording} />
    </World>
  );
}

/**
 * Takes R3F's rendering over (a positive priority) and draws nothing: everything else of the
 * frame runs (the `<World>`, the renderers updating the geometry), but nothing is rasterised.
 * Headless Chromium rasterises in software (SwiftShader), on the same cores as the physics.
 */
function NoDrawing() {
  useFrame(() => undefined, 1);
  return null;
}

/**
 * A `size` × `size` cloth hung from its top corners (4 m across), recorded by `recording`;
 * `paused` draws it without stepping; `drawn={false}` steps and updates it without drawing.
 */
export function BigCloth({ mode, size, paused = false, drawn = true, recording }: { mode: Mode; size: number; paused?: boolean; drawn?: boolean; recording: Recording }) {
  return (
    <>
      <World worker={workerFor(mode)} sleep={false} paused={paused} onError={recording.onError}>
        <Cloth width={size} height={size} spacing={4 / (size - 1)} corner={[-2, 4.5, 0]} pin="top-corners" />
        <Probe recording={recording} />
      </World>
      {!drawn && <NoDrawing />}
    </>
  );
}
