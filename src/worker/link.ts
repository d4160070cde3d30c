import type { WorkerEndpoint } from './remoteWorld.js';
import type { RemoteWorld } from './remoteWorld.js';
import type { Attachment } from '../core/motion/attachment.js';
import type { BodyAttachment } from '../core/constraints/bodyAttachment.js';

/**
 * An endpoint that holds what the remote world posts until {@link DeferredEndpoint.start}
 * opens the real one. A `<World worker>` builds its RemoteWorld while rendering (its children
 * need the world at once) but starts the worker only once mounted: React may render a
 * component and throw the result away (StrictMode renders twice), and a worker started then
 * would never be terminated.
 */
export class DeferredEndpoint implements WorkerEndpoint {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: { message?: string; filename?: string; lineno?: number }) => void) | null = null;
  private target: WorkerEndpoint | null = null;
  private queue: [unknown, Transferable[] | undefined][] = [];
  private ended = false;

  constructor(private readonly open: () => WorkerEndpoint) {}

  /** Opens the real endpoint (once) and sends it what was posted so far. */
  start(): void {
    if (this.target !== null || this.ended) return;
    const target = this.open();
    this.target = target;
    target.onmessage = (event) => this.onmessage?.(event);
    if ('onerror' in target) target.onerror = (event) => this.onerror?.(event);
    const queue = this.queue;
    this.queue = [];
    for (const [message, transfer] of queue) target.postMessage(message, transfer);
  }

  postMessage(message: unknown, transfer?: Transferable[]): void {
    if (this.target !== null) this.target.postMessage(message, transfer);
    else if (!this.ended) this.queue.push([message, transfer]);
  }

  terminate(): void {
    this.ended = true;
    this.queue = [];
    if (this.target === null) return;
    this.target.onmessage = null;
    if ('onerror' in this.target) this.target.onerror = null;
    this.target.terminate?.();
  }
}

/**
 * What a `<World worker>` adds to its context: the remote world, and the per-frame work that
 * replaces step callbacks (run after each frame that brought new steps).
 */
export class WorkerLink {
  private readonly afterSteps = new Set<() => void>();
  private readonly stepStarts = new Set<() => void>();
  private readonly breaks = new Map<object, (particle: number) => void>();
  private live = false;

  constructor(
    /** The remote world behind the context's `world`. */
    readonly remote: RemoteWorld,
    private readonly endpoint: DeferredEndpoint,
  ) {}

  /**
   * Runs `callback` after every frame whose read-back brought new steps, on this thread, with
   * the latest finished step in the shadow. Returns the unsubscribe function.
   */
  afterFrame(callback: () => void): () => void {
    this.afterSteps.add(callback);
    return () => void this.afterSteps.delete(callback);
  }

  /**
   * Runs `capture` after every frame whose read-back brought new steps, with the shadow's
   * positions set to the start of the latest step (see `RemoteWorld.atStepStart`): all captures
   * of a frame share one swap of the positions. Returns the unsubscribe function.
   */
  atStepStart(capture: () => void): () => void {
    this.stepStarts.add(capture);
    return () => void this.stepStarts.delete(capture);
  }

  /**
   * Hears the particles `attachment` (an `Attachment` or a `BodyAttachment` made through the
   * remote world) lets go in the worker because its `breakForce` was exceeded, by particle id, once the frame that broke it is
   * read. Returns the unsubscribe function.
   */
  onBreak(attachment: object, hear: (particle: number) => void): () => void {
    this.breaks.set(attachment, hear);
    return () => void this.breaks.delete(attachment);
  }

  /** @internal The remote world's `onBreak`: `particles` index `attachment.particles` (ids for an `Attachment`, slots for a `BodyAttachment`). */
  broke(attachment: Attachment | BodyAttachment, particles: Int32Array): void {
    const hear = this.breaks.get(attachment);
    if (hear === undefined) return;
    const slots = 'holding' in attachment;
    const shadow = this.remote.shadow.particles;
    for (const i of particles) hear(slots ? shadow.idOf(attachment.particles[i]!) : attachment.particles[i]!);
  }

  /**
   * @internal Called by the `<World>` once its frame's `advance` ran. While paused nothing
   * advances, so the changes made meanwhile are sent and the frames of single steps read here.
   */
  frameDone(steps: number, paused: boolean): void {
    if (paused) {
      this.remote.flush();
      const before = this.remote.shadow.stepCount;
      this.remote.sync();
      steps = this.remote.shadow.stepCount - before;
    }
    if (steps === 0) return;
    if (this.stepStarts.size > 0) this.remote.atStepStart(this.captureStepStarts);
    for (const callback of this.afterSteps) callback();
  }

  private readonly captureStepStarts = (): void => {
    for (const capture of this.stepStarts) capture();
  };

  /** @internal The `<World>` mounted: the worker starts (a StrictMode remount keeps the same one). */
  mount(): void {
    this.live = true;
    this.endpoint.start();
  }

  /**
   * @internal The `<World>` unmounted: the worker is terminated once the unmount is over,
   * unless it mounts again first (StrictMode's second mount, which happens at once); the
   * children's own cleanups, which run after the `<World>`'s, still reach a live remote world.
   */
  unmount(): void {
    this.live = false;
    queueMicrotask(() => {
      if (!this.live) this.remote.dispose();
    });
  }
}
