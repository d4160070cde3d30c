import { World } from '../core/world.js';
import { decodeValue, describeCommand, WORLD_REF, type Command, type ToWorker } from './commands.js';
import { replayableClass, replayableFunction } from './replayables.js';
import { StepEvents } from './events.js';
import { SharedFrameWriter, TransferFrameWriter, type FrameWriter, type PostFromWorker } from './transport.js';

/**
 * The worker's side of a remote world: owns the stepping {@link World}, applies the main
 * thread's commands in order and publishes a frame after every `advance`. Independent of
 * the worker global, so tests run it in-process (see `connectInProcess`); `workerMain.ts`
 * wires it to `self`.
 */
export class WorkerHost {
  /** The world that steps (null until the `init` message). */
  world: World | null = null;
  /** Objects named by reference numbers: the world (0) and the results of commands. */
  readonly refs = new Map<number, unknown>();
  private writer: FrameWriter | null = null;
  private advances = 0;
  private commands = 0;
  /** Tears and breaks the steps make, for the shadow to mirror. */
  private readonly events: StepEvents;

  /** @param post sends a message to the main thread (transferring what it lists). */
  constructor(private readonly post: PostFromWorker) {
    this.events = new StepEvents(post);
  }

  /** Handles one message from the main thread. */
  receive(message: ToWorker): void {
    switch (message.type) {
      case 'init':
        this.guard('new World(options)', () => {
          this.world = new World(message.options);
          // The world's word that it runs slower than real time goes to the main thread, where onError is.
          this.world.realTime.onSlow = (report) => this.post({ type: 'slow', report: { ...report } });
          this.refs.set(WORLD_REF, this.world);
          this.writer = message.transport === 'shared' ? new SharedFrameWriter(this.post) : new TransferFrameWriter(this.post);
        });
        return;
      case 'commands':
        for (const command of message.commands) {
          if (command.fails !== true) this.guard(describeCommand(command), () => this.apply(command));
          else this.quietly(command);
        }
        return;
      case 'return':
        this.writer?.giveBack(message.buffer);
        return;
    }
  }

  /** Applies one command to the world. */
  private apply(command: Command): void {
    const world = this.world;
    if (world === null) throw new Error('sinew worker: a command arrived before init');
    this.commands++;
    const refs = this.refs;
    switch (command.op) {
      case 'call': {
        const target = this.object(command.target) as Record<string, unknown>;
        const method = target[command.method];
        if (typeof method !== 'function') throw new TypeError(`sinew worker: ${describeCommand(command)}: no method '${command.method}'`);
        this.keep(command.result, method.apply(target, decodeValue(command.args, refs) as unknown[]));
        return;
      }
      case 'fn':
        this.keep(command.result, replayableFunction(command.name)(...(decodeValue(command.args, refs) as unknown[])));
        return;
      case 'new': {
        const Class = replayableClass(command.name);
        this.keep(command.result, new Class(...(decodeValue(command.args, refs) as unknown[])));
        return;
      }
      case 'set':
        (this.object(command.target) as Record<string, unknown>)[command.key] = decodeValue(command.value, refs);
        return;
      case 'ref':
        this.keep(command.result, (this.object(command.target) as Record<string, unknown>)[command.key]);
        return;
      case 'release':
        if (command.ref !== WORLD_REF) refs.delete(command.ref);
        this.events.forget(command.ref);
        return;
      // A frame follows every advance, even one that threw, so the main thread's count of
      // advances waiting ("behind") stays true.
      case 'advance':
        this.events.beforeAdvance();
        try {
          world.advance(command.seconds);
        } finally {
          this.published();
        }
        return;
      case 'step':
        this.events.beforeAdvance();
        try {
          world.step();
        } finally {
          this.published();
        }
        return;
      case 'snapshot': {
        // A snapshot that fails is answered too (with the error), so its promise settles.
        let snapshot;
        try {
          snapshot = world.snapshot();
        } catch (error) {
          this.post({ type: 'snapshot', id: command.id, error: error instanceof Error ? error.message : String(error) });
          throw error;
        }
        this.post({ type: 'snapshot', id: command.id, snapshot });
        return;
      }
    }
  }

  private published(): void {
    this.advances++;
    this.writer!.publish(this.world!, this.advances, this.commands);
    this.events.afterAdvance(this.advances);
  }

  private object(ref: number): object {
    const target = this.refs.get(ref);
    if (target === null || (typeof target !== 'object' && typeof target !== 'function')) throw new RangeError(`sinew worker: no object with reference #${ref}`);
    return target;
  }

  private keep(result: number, value: unknown): void {
    if (result < 0) return;
    this.refs.set(result, value);
    this.events.watch(result, value);
  }

  /** Runs a command that threw on the shadow: it throws here too, at the same point; the main thread has reported it. */
  private quietly(command: Command): void {
    try {
      this.apply(command);
    } catch {
      return;
    }
    this.post({ type: 'error', message: 'it threw on the main thread but ran here: the two worlds may now differ', stack: '', command: describeCommand(command) });
  }

  /** Runs `action`; an error goes back to the main thread with the worker's stack and the command it came from. */
  private guard(what: string, action: () => void): void {
    try {
      action();
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      this.post({ type: 'error', message: e.message, stack: e.stack ?? '', command: what });
    }
  }
}
