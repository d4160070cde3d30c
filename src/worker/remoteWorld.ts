import { checkNumber } from '../core/math.js';
import type { SlowerThanRealTimeReport } from '../core/realTime.js';
import type { WorldSnapshot } from '../core/snapshot.js';
import type { ClothHandle } from '../core/bodies/cloth.js';
import type { Attachment } from '../core/motion/attachment.js';
import type { CharacterDriver } from '../core/motion/characterDriver.js';
import type { BodyAttachment } from '../core/constraints/bodyAttachment.js';
import { World } from '../core/world.js';
import type { WorldOptions } from '../core/worldOptions.js';
import type { FromWorker, ToWorker, TransportKind } from './commands.js';
import { Recorder } from './recorder.js';
import { replayableClassName, replayableFunctionName } from './replayables.js';
import { SharedFrameReader, TransferFrameReader, type FrameReader } from './transport.js';
import { FRAME } from './frames.js';
import { registerRemote } from './builders.js';

/** What a remote world talks to: a `Worker`, a `MessagePort`, or an in-process stand-in (see `connectInProcess`). */
export interface WorkerEndpoint {
  /** Sends a message (transferring `transfer`). */
  postMessage(message: unknown, transfer?: Transferable[]): void;
  /** Set by the remote world to hear the worker. */
  onmessage: ((event: { data: unknown }) => void) | null;
  /** Ends the worker (called by `dispose`). */
  terminate?(): void;
  /** Set by the remote world, where the endpoint has it, to hear a worker that fails to load or throws outside a command. */
  onerror?: ((event: { message?: string; filename?: string; lineno?: number }) => void) | null;
}

/** What {@link RemoteWorld} takes. */
export interface RemoteWorldOptions {
  /** The world's options, as for `new World(options)`, except `clock` and `onSlowerThanRealTime` (functions cannot be sent to the worker). */
  world?: WorldOptions;
  /** How frames come back: `'shared'` (a SharedArrayBuffer; needs `crossOriginIsolated`), `'transfer'`, or `'auto'` (the default: shared where possible). */
  transport?: TransportKind | 'auto';
  /**
   * Milliseconds the worker may take to answer an advance before this thread stops sending
   * one a frame. Once the oldest advance not yet read back was sent longer ago than this,
   * `advance` keeps two in flight at most: a frame with two waiting sends its commands but
   * keeps its time, and the time kept goes as one advance once the worker answers. A worker
   * slower than the frame rate then runs the steps it can (the world's `maxStepsPerAdvance`
   * drops the rest and it says it runs slower than real time, as a main-thread world does on
   * long frames) instead of queueing advances without end, which shows the app's changes
   * later and later. This ends when the worker has answered every advance sent. It starts a
   * second after the worker's first frame arrived at the earliest: a worker loading, or
   * compiling its first steps, is not too slow. `Infinity`: one advance a frame, always.
   * Default 250.
   */
  maxLagMs?: number;
  /** The worker to use; default: a new module worker running sinew's `workerMain.js`. */
  endpoint?: WorkerEndpoint;
  /** Hears errors thrown in the worker (with its stack); default: `console.error`. */
  onError?: (error: Error) => void;
  /**
   * Hears the sticks (indices into `cloth.sticks`) a cloth lost in the worker, after the shadow's
   * cloth has lost them too (its `torn`, `sticks.id` and `surface` follow the worker's). Only
   * cloths whose handle is still held on this thread are followed.
   */
  onTear?: (cloth: ClothHandle, sticks: Int32Array) => void;
  /**
   * Hears the particles (indices into `attachment.particles`) an `Attachment` or a
   * `BodyAttachment` let go in the worker (its `breakForce` exceeded), after the shadow's
   * attachment has let them go too, once the frame of the step that broke them is read: the
   * worker-mode form of `onBreak` in their options, which cannot be sent. (A `BodyAttachment`'s
   * `particles` are slots: `world.particles.idOf(slot)` gives the id.)
   */
  onBreak?: (attachment: Attachment | BodyAttachment, particles: Int32Array) => void;
  /**
   * Hears, once, the worker's world say that it runs slower than real time (for more than a
   * second): the worker-mode form of `world.realTime.onSlow`, which cannot be sent.
   */
  onSlow?: (report: SlowerThanRealTimeReport) => void;
}

/** What a remote world reports about the worker, beside the worker's own `world.stats` (copied into the shadow with each frame). */
export interface RemoteStats {
  /** Advances sent whose frame has not been read yet: 0 or 1 while the worker keeps up. */
  behind: number;
  /** Steps per second of wall-clock time, measured over windows of half a second. */
  stepsPerSecond: number;
  /** Frames read into the shadow world. */
  framesRead: number;
  /** Commands sent to the worker. */
  commandsSent: number;
}

/** Milliseconds after the worker's first frame during which it is never taken to lag (see `RemoteWorldOptions.maxLagMs`). */
const WARM_UP_MS = 1000;

/**
 * Starts the module worker that runs sinew's worker entry next to this file (what a
 * RemoteWorld uses without `options.endpoint`; `<World worker>` starts it once mounted), in the form bundlers
 * (Vite included) recognise and bundle. The library build writes it as `./workerMain.js` (see
 * vite.config.ts); from the sources, Vite's dev server bundles the TypeScript entry.
 */
export function startWorker(): WorkerEndpoint {
  return new Worker(new URL('./workerMain.ts', import.meta.url), { type: 'module' }) as unknown as WorkerEndpoint;
}

/**
 * A world whose steps run in a Web Worker. `remote.world` works like a `World`: every call
 * goes to a *shadow* world on this thread, which the same calls build identically but which
 * never steps, so ids, handles and validation errors come synchronously; every change is also
 * recorded as a command and sent to the worker, which applies the commands in order at the
 * start of its next step (where they take effect on a main-thread world), so the worker's world
 * gives bit for bit the positions a main-thread world would. After each `advance` the worker
 * publishes positions, which `sync()` (run by `advance`) copies into the shadow: reads give
 * the latest step the worker finished.
 *
 * Engine functions that build on a world are called through `remote.call(createCloth, remote.world, options)`
 * and engine classes made with `remote.construct(Attractor, options)` (see `REPLAYABLE_FUNCTIONS`,
 * `REPLAYABLE_CLASSES`). Functions (step callbacks, a user's `Force`) cannot be sent and are refused.
 *
 * @example
 * ```ts
 * const remote = new RemoteWorld({ world: { substeps: 2 } });
 * const cloth = remote.call(createCloth, remote.world, { width: 32, height: 32, spacing: 0.05, pin: 'top' });
 * const wind = remote.call(createWind, remote.world, { velocity: [0, 0, 3] });
 * function frame(dt: number) {
 *   wind.velocity = [0, 0, 3 + Math.sin(remote.world.time)]; // recorded, applied before the next step
 *   remote.advance(dt); // sends the frame's commands, copies the latest finished step back
 *   render(remote.world.positions, cloth.surface);
 * }
 * remote.dispose(); // terminates the worker
 * ```
 */
export class RemoteWorld {
  /** The world to use: a recording proxy of {@link RemoteWorld.shadow}, typed as a `World`. */
  readonly world: World;
  /** The shadow world (read it, never change it directly: changes made past the proxy do not reach the worker). */
  readonly shadow: World;
  /** The transport in use. */
  readonly transport: TransportKind;
  /** Worker-side numbers (see {@link RemoteStats}). */
  readonly stats: RemoteStats = { behind: 0, stepsPerSecond: 0, framesRead: 0, commandsSent: 0 };
  private readonly recorder: Recorder;
  private readonly endpoint: WorkerEndpoint;
  private readonly reader: FrameReader;
  private readonly onError: (error: Error) => void;
  private readonly onTear: ((cloth: ClothHandle, sticks: Int32Array) => void) | undefined;
  private readonly onBreak: ((attachment: Attachment | BodyAttachment, particles: Int32Array) => void) | undefined;
  private readonly onSlow: ((report: SlowerThanRealTimeReport) => void) | undefined;
  private readonly snapshots = new Map<number, { resolve: (snapshot: WorldSnapshot) => void; reject: (error: Error) => void }>();
  private nextSnapshot = 1;
  private sent = 0;
  private read = 0;
  /** After each advance sent: the commands recorded up to it, and the shadow's next id and particle end then, to check the worker's frame against. */
  private readonly expected: { commands: number; nextId: number; end: number }[] = [];
  private diverged = false;
  /** The shadow's positions, kept while {@link RemoteWorld.atStepStart} runs. */
  private scratch = new Float64Array(0);
  private windowStart = -1;
  private windowSteps = 0;
  /** When each advance not yet read back was sent (performance.now()), oldest first. */
  private readonly sentAt: number[] = [];
  /** Seconds of frames whose advance was held back (see `RemoteWorldOptions.maxLagMs`). */
  private heldSeconds = 0;
  /** True from when the worker lagged by more than `maxLagMs` until it has answered every advance sent. */
  private lagging = false;
  /** When the worker's first frame was read (performance.now()). */
  private firstFrameAt = 0;
  private readonly maxLagMs: number;
  private disposed = false;

  /** Starts the worker (or uses `options.endpoint`) and builds the shadow world; throws, naming it, for an option that cannot be sent. */
  constructor(options: RemoteWorldOptions = {}) {
    const worldOptions = options.world ?? {};
    for (const key of ['clock', 'onSlowerThanRealTime'] as const) {
      if (worldOptions[key] !== undefined)
        throw new TypeError(
          `RemoteWorld: world.${key} is a function, which cannot be sent to the physics worker; leave it out (the worker times its steps with its own performance.now(); its stats arrive with each frame)`,
        );
    }
    this.maxLagMs = options.maxLagMs === Infinity ? Infinity : checkNumber(options.maxLagMs ?? 250, 'RemoteWorld: maxLagMs', 0);
    const transport = options.transport ?? 'auto';
    if (transport !== 'auto' && transport !== 'shared' && transport !== 'transfer') throw new RangeError(`RemoteWorld: transport must be 'auto', 'shared' or 'transfer', got ${String(transport)}`);
    if (transport === 'shared' && typeof SharedArrayBuffer === 'undefined')
      throw new Error(
        "RemoteWorld: transport 'shared' needs SharedArrayBuffer, which this page does not have (serve it cross-origin isolated: COOP same-origin and COEP require-corp), or use 'transfer'",
      );
    this.transport = transport === 'auto' ? (typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated === true ? 'shared' : 'transfer') : transport;
    this.shadow = new World(worldOptions);
    this.recorder = new Recorder(this.shadow, { advance: this.advance, step: this.step });
    this.world = this.recorder.world;
    registerRemote(this.world, this);
    this.onError = options.onError ?? ((error) => console.error(error));
    this.onTear = options.onTear;
    this.onBreak = options.onBreak;
    this.onSlow = options.onSlow;
    this.endpoint = options.endpoint ?? startWorker();
    if (this.transport === 'shared') {
      const shared = new SharedFrameReader();
      this.reader = shared;
      this.endpoint.onmessage = (event) => this.receive(event.data as FromWorker, (buffer) => shared.adopt(buffer));
    } else {
      const transfer = new TransferFrameReader((buffer) => this.post({ type: 'return', buffer }, [buffer]));
      this.reader = transfer;
      this.endpoint.onmessage = (event) => this.receive(event.data as FromWorker, undefined, (buffer) => transfer.receive(buffer));
    }
    if ('onerror' in this.endpoint) {
      this.endpoint.onerror = (event) => {
        const where = event.filename ? ` (${event.filename}:${event.lineno ?? 0})` : '';
        this.onError(new Error(`RemoteWorld: the physics worker failed: ${event.message || 'its script did not load (check that the bundler emitted workerMain.js, or pass an endpoint)'}${where}`));
      };
    }
    this.post({ type: 'init', options: worldOptions, transport: this.transport });
  }

  /**
   * Calls engine function `fn` (one of `REPLAYABLE_FUNCTIONS`: `createCloth`, `createWind`…)
   * on the shadow and records it for the worker; returns what it returns (handles as recording
   * proxies). Pass `remote.world` where the function takes the world.
   */
  call<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
    const name = replayableFunctionName(fn);
    if (name === undefined)
      throw new TypeError(`RemoteWorld: call(${fn?.name || String(fn)}, …): not a replayable engine function, so the worker cannot run it; the ones it can are listed in REPLAYABLE_FUNCTIONS`);
    this.checkLive(`call(${name}, …)`);
    return this.recorder.callFunction(name, fn as (...args: unknown[]) => unknown, args) as R;
  }

  /** Constructs engine class `Class` (one of `REPLAYABLE_CLASSES`: `Attractor`, `Attachment`…) on the shadow and records it; returns the instance as a recording proxy, to pass to `world.addForce` and the like. */
  construct<A extends unknown[], T>(Class: new (...args: A) => T, ...args: A): T {
    const name = replayableClassName(Class);
    if (name === undefined)
      throw new TypeError(`RemoteWorld: construct(${Class?.name || String(Class)}, …): not a replayable engine class, so the worker cannot make one; the ones it can are listed in REPLAYABLE_CLASSES`);
    this.checkLive(`construct(${name}, …)`);
    return this.recorder.construct(name, Class as new (...args: unknown[]) => unknown, args) as T;
  }

  /**
   * Sends the commands recorded so far and `world.advance(elapsedSeconds)` (the worker runs the
   * steps it allows), then copies the latest finished frame into the shadow (see {@link RemoteWorld.sync}).
   * While the worker lags (see {@link RemoteWorldOptions.maxLagMs}), a frame with two advances
   * in flight sends the commands only and keeps its time for the next advance sent.
   * Returns the steps the shadow moved on by (not those this call will run: they run in the worker).
   * `remote.world.advance` is this method.
   */
  readonly advance = (elapsedSeconds: number): number => {
    checkNumber(elapsedSeconds, 'RemoteWorld: advance: elapsedSeconds', 0);
    this.checkLive('advance');
    const before = this.shadow.stepCount;
    // Read first what came since the last frame, when it decides whether to send.
    if (this.holding()) this.sync();
    if (this.holding()) {
      // The frame's changes still go (in order, before the advance that follows them).
      this.heldSeconds += elapsedSeconds;
      this.flush();
    } else {
      this.recorder.push({ op: 'advance', seconds: elapsedSeconds + this.heldSeconds });
      this.heldSeconds = 0;
      this.sending();
    }
    this.sync();
    return this.shadow.stepCount - before;
  };

  /** Sends the commands recorded so far and `world.step()`; `remote.world.step` is this method. */
  readonly step = (): void => {
    this.checkLive('step');
    this.recorder.push({ op: 'step' });
    this.sending();
    this.sync();
  };

  /** Sends the recorded commands, the `advance` or `step` last among them. */
  private sending(): void {
    this.sent++;
    this.sentAt.push(performance.now());
    this.expect();
    this.flush();
  }

  /**
   * Whether this frame's advance waits (see {@link RemoteWorldOptions.maxLagMs}): once the
   * worker has left one unanswered for longer than `maxLagMs`, until it has answered them all,
   * while two are in flight.
   */
  private holding(): boolean {
    const inFlight = this.sentAt.length;
    if (inFlight === 0) return (this.lagging = false);
    const now = performance.now();
    // A worker still loading, catching up on what was sent meanwhile, or compiling its first
    // steps (stalls of half a second were seen in Chromium) is not too slow for the frames.
    if (this.stats.framesRead === 0 || now - this.firstFrameAt < WARM_UP_MS) return false;
    if (now - this.sentAt[0]! > this.maxLagMs) this.lagging = true;
    return this.lagging && inFlight >= 2;
  }

  /** Sends the commands recorded so far (`advance` does; call it to send changes between frames). */
  flush(): void {
    if (this.recorder.pending === 0 || this.disposed) return;
    const commands = this.recorder.take();
    this.stats.commandsSent += commands.length;
    this.post({ type: 'commands', commands });
  }

  /** Copies the latest frame the worker finished into the shadow (positions, step-start and previous positions, step count, time, alpha, stats); returns whether there was a newer one. */
  sync(): boolean {
    const advances = this.reader.read(this.shadow, this.read);
    if (advances > 0) {
      this.read = advances;
      if (this.stats.framesRead === 0) this.firstFrameAt = performance.now();
      this.stats.framesRead++;
      this.check(this.reader.header);
    }
    this.stats.behind = this.sent - this.read;
    while (this.sentAt.length > this.stats.behind) this.sentAt.shift();
    this.measure();
    return advances > 0;
  }

  /**
   * Runs `read` with the shadow's positions set, for its duration, to those at the start of
   * the latest step the worker finished, and returns what it returns. This is how to capture
   * what a renderer interpolates from the start of a step (a rigid body's transform, limb
   * frames) where a main-thread world would use `onBeforeStep`: after `advance`, capture with
   * `atStepStart(() => track.capture())`, then sample as usual.
   */
  atStepStart<T>(read: () => T): T {
    const positions = this.shadow.particles.position;
    const n = this.shadow.particles.end * 3;
    if (this.scratch.length < n) this.scratch = new Float64Array(positions.length);
    this.scratch.set(positions.subarray(0, n));
    positions.set(this.shadow.stepStartPositions.subarray(0, n));
    try {
      return read();
    } finally {
      positions.set(this.scratch.subarray(0, n));
    }
  }

  /** The worker's whole world state after the commands and advances sent so far (it sends what is recorded first); restore it with `remote.world.restore(snapshot)`. */
  snapshot(): Promise<WorldSnapshot> {
    this.checkLive('snapshot');
    const id = this.nextSnapshot++;
    const answer = new Promise<WorldSnapshot>((resolve, reject) => this.snapshots.set(id, { resolve, reject }));
    this.recorder.push({ op: 'snapshot', id });
    this.flush();
    return answer;
  }

  /** Terminates the worker; snapshots still awaited are rejected. The remote world cannot be used again. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.endpoint.onmessage = null;
    if ('onerror' in this.endpoint) this.endpoint.onerror = null;
    this.endpoint.terminate?.();
    for (const { reject } of this.snapshots.values()) reject(new Error('RemoteWorld: disposed before the snapshot arrived'));
    this.snapshots.clear();
  }

  /** Whether `value` is an object this remote world handed out (a recording proxy), which calls can pass to the worker by reference. */
  handedOut(value: unknown): boolean {
    return value !== null && typeof value === 'object' && this.recorder.raw(value) !== value;
  }

  /** True once {@link RemoteWorld.dispose} ran. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  private receive(message: FromWorker, adopt?: (buffer: SharedArrayBuffer) => void, frame?: (buffer: ArrayBuffer) => void): void {
    switch (message.type) {
      case 'shared':
        adopt?.(message.buffer);
        return;
      case 'frame':
        frame?.(message.buffer);
        return;
      case 'snapshot': {
        const waiting = this.snapshots.get(message.id);
        this.snapshots.delete(message.id);
        if ('error' in message) waiting?.reject(new Error(`RemoteWorld: snapshot() failed in the worker: ${message.error}`));
        else waiting?.resolve(message.snapshot);
        return;
      }
      case 'tears': {
        const cloth = this.recorder.object(message.ref);
        if (cloth === undefined) return;
        (cloth.raw as ClothHandle).tearing.breakSticks(message.sticks);
        this.onTear?.(cloth.proxy as ClothHandle, message.sticks);
        return;
      }
      case 'breaks': {
        const held = this.recorder.object(message.ref);
        if (held === undefined) return;
        const attachment = held.raw as Attachment;
        for (const i of message.particles) attachment.release(i);
        this.onBreak?.(held.proxy as Attachment, message.particles);
        return;
      }
      case 'links': {
        const held = this.recorder.object(message.ref);
        if (held === undefined) return;
        const links = held.raw as BodyAttachment;
        for (const i of message.dropped) links.release(i);
        for (const i of message.broken) links.release(i);
        if (message.broken.length > 0) this.onBreak?.(held.proxy as BodyAttachment, message.broken);
        return;
      }
      case 'character': {
        // The character's steps ran here: its shadow takes on their state (what the bones follow).
        const held = this.recorder.object(message.ref);
        (held?.raw as CharacterDriver | undefined)?.loadMirror(message.state);
        return;
      }
      case 'slow':
        this.onSlow?.(message.report);
        return;
      case 'error': {
        const error = new Error(`sinew worker: ${message.command}: ${message.message}`);
        error.stack = `${error.message}\n(in the physics worker)\n${message.stack}`;
        this.onError(error);
        return;
      }
    }
  }

  private expect(): void {
    this.expected.push({ commands: this.recorder.recorded, nextId: this.shadow.registry.next, end: this.shadow.particles.end });
  }

  /**
   * Compares the frame's next id and particle end with the shadow's after the same commands:
   * they differ only when the worker's world changed in a way the shadow did not see (then
   * ids handed out from here on may name other things in the worker), which is reported once.
   */
  private check(header: Float64Array): void {
    const commands = header[FRAME.commands]!;
    while (this.expected.length > 0 && this.expected[0]!.commands < commands) this.expected.shift();
    const expected = this.expected[0];
    if (expected === undefined || expected.commands !== commands || this.diverged) return;
    const nextId = header[FRAME.nextId]!;
    const end = header[FRAME.end]!;
    if (nextId === expected.nextId && end === expected.end) return;
    this.diverged = true;
    this.onError(
      new Error(
        `RemoteWorld: the worker's world and the shadow disagree after command ${commands}: next id ${nextId} there, ${expected.nextId} here; particle slots ${end} there, ${expected.end} here. Something changed one world and not the other (a call made on the shadow directly, or a worker error above); ids handed out from here on may name different things in the worker`,
      ),
    );
  }

  private post(message: ToWorker, transfer?: Transferable[]): void {
    if (!this.disposed) this.endpoint.postMessage(message, transfer);
  }

  private checkLive(what: string): void {
    if (this.disposed) throw new Error(`RemoteWorld: ${what} after dispose(): the worker is gone`);
  }

  /** Steps per second over windows of half a second of wall-clock time. */
  private measure(): void {
    const now = performance.now();
    if (this.windowStart < 0) {
      this.windowStart = now;
      this.windowSteps = this.shadow.stepCount;
    } else if (now - this.windowStart >= 500) {
      this.stats.stepsPerSecond = ((this.shadow.stepCount - this.windowSteps) * 1000) / (now - this.windowStart);
      this.windowStart = now;
      this.windowSteps = this.shadow.stepCount;
    }
  }
}
