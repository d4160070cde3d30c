import type { World } from '../core/world.js';
import type { FromWorker } from './commands.js';
import { FRAME, FRAME_HEADER, frameLength, readFrame, worldFloats, writeFrame } from './frames.js';

// How frames travel from the worker to the main thread, without the worker ever waiting:
// - shared: a SharedArrayBuffer of three frame slots, each guarded by a sequence number
//   (odd while written), and the index of the latest complete slot, written last with
//   Atomics. The writer fills a slot other than the latest; the reader copies the latest
//   and checks its sequence number did not move meanwhile (else it reads again).
// - transfer: each frame is an ArrayBuffer transferred to the main thread, which hands it
//   back once read (or once a newer frame arrives); the worker takes a returned buffer from
//   its pool or allocates another, so any number of frames may be in flight.

/** Posts a message from the worker (transferring `transfer`). */
export type PostFromWorker = (message: FromWorker, transfer?: Transferable[]) => void;

/** The worker's side of a transport: publishes the world's frame after each advance. */
export interface FrameWriter {
  /** Publishes `world`'s current frame, tagged with the counts of advances and commands applied. */
  publish(world: World, advances: number, commands: number): void;
  /** Takes back a buffer the main thread has read (transfer path only). */
  giveBack(buffer: ArrayBuffer): void;
}

/** The main thread's side of a transport. */
export interface FrameReader {
  /** Copies the latest complete frame into `shadow` when it follows more than `advances` advances; returns its advance count, or -1 when there is no newer frame. */
  read(shadow: World, advances: number): number;
  /** The header of the frame read last (see `FRAME`). */
  readonly header: Float64Array;
}

/** Int32 slots of the control block: latest slot (-1: none yet), slot length (Float64s), three sequence numbers. */
const LATEST = 0;
const SLOT_LENGTH = 1;
const SEQUENCE = 2;
const SLOTS = 3;
/** Bytes before the frame slots (a cache line, so the Float64 region is aligned). */
const CONTROL_BYTES = 64;

/** The Int32 control block and Float64 slots of a shared frame buffer. */
interface SharedViews {
  control: Int32Array;
  data: Float64Array;
  slotLength: number;
}

function sharedViews(buffer: SharedArrayBuffer): SharedViews {
  const control = new Int32Array(buffer, 0, CONTROL_BYTES / 4);
  return { control, data: new Float64Array(buffer, CONTROL_BYTES), slotLength: Atomics.load(control, SLOT_LENGTH) };
}

/** Room for at least 64 particles, and half as many again as needed now, so growth rarely replaces the buffer. */
function roomFor(floats: number): number {
  return Math.max(192, Math.ceil(floats * 1.5));
}

/** The shared path's writer: a triple buffer of frames in a `SharedArrayBuffer`, replaced (and posted) when the world outgrows it. */
export class SharedFrameWriter implements FrameWriter {
  private views: SharedViews | null = null;

  /** @param post sends the (new) shared buffer to the main thread. */
  constructor(private readonly post: PostFromWorker) {}

  /** Writes the frame into the slot after the latest and marks it latest; grows (and posts) the buffer first when the world outgrew it. */
  publish(world: World, advances: number, commands: number): void {
    const needed = frameLength(worldFloats(world));
    if (this.views === null || needed > this.views.slotLength) this.views = this.allocate(frameLength(roomFor(worldFloats(world))));
    const { control, data, slotLength } = this.views;
    const slot = (Atomics.load(control, LATEST) + 1) % SLOTS;
    const sequence = Atomics.load(control, SEQUENCE + slot);
    Atomics.store(control, SEQUENCE + slot, sequence + 1);
    writeFrame(world, data, slot * slotLength, advances, commands);
    Atomics.store(control, SEQUENCE + slot, sequence + 2);
    Atomics.store(control, LATEST, slot);
  }

  /** Nothing to take back: the shared buffer never leaves. */
  giveBack(): void {}

  private allocate(slotLength: number): SharedViews {
    const buffer = new SharedArrayBuffer(CONTROL_BYTES + SLOTS * slotLength * 8);
    const control = new Int32Array(buffer, 0, CONTROL_BYTES / 4);
    control[LATEST] = -1;
    control[SLOT_LENGTH] = slotLength;
    this.post({ type: 'shared', buffer });
    return sharedViews(buffer);
  }
}

/** The shared path's reader: copies the latest complete slot, reading again if the writer overtook it meanwhile. */
export class SharedFrameReader implements FrameReader {
  /** The header of the frame read last. */
  readonly header = new Float64Array(FRAME_HEADER);
  private current: SharedViews | null = null;
  private next: SharedViews | null = null;
  /** Reads that found the slot rewritten while copying and read again (for the tests and stats). */
  retries = 0;

  /** Takes a (new) shared buffer from the worker; it replaces the current one once it holds a frame. */
  adopt(buffer: SharedArrayBuffer): void {
    this.next = sharedViews(buffer);
  }

  /** Copies the latest complete slot into `shadow` when newer than `advances` (see {@link FrameReader.read}). */
  read(shadow: World, advances: number): number {
    if (this.next !== null && Atomics.load(this.next.control, LATEST) >= 0) {
      this.current = this.next;
      this.next = null;
    }
    if (this.current === null) return -1;
    const { control, data, slotLength } = this.current;
    for (let attempt = 0; attempt < 8; attempt++) {
      const slot = Atomics.load(control, LATEST);
      if (slot < 0) return -1;
      const sequence = Atomics.load(control, SEQUENCE + slot);
      if ((sequence & 1) === 1) {
        this.retries++;
        continue;
      }
      const at = slot * slotLength;
      const frameAdvances = data[at + FRAME.advances]!;
      if (frameAdvances <= advances) return -1;
      readFrame(data, at, shadow, this.header);
      if (Atomics.load(control, SEQUENCE + slot) === sequence) return frameAdvances;
      this.retries++;
    }
    return -1;
  }
}

/** The transfer path's writer: a pool of returned buffers, topped up by allocation so it never waits. */
export class TransferFrameWriter implements FrameWriter {
  private readonly pool: ArrayBuffer[] = [];
  /** Buffers allocated so far (the most ever in flight at once, plus replacements for growth). */
  allocated = 0;

  /** @param post sends each frame's buffer to the main thread, transferred. */
  constructor(private readonly post: PostFromWorker) {}

  /** Writes the frame into a pooled (or new) buffer and transfers it. */
  publish(world: World, advances: number, commands: number): void {
    const bytes = frameLength(worldFloats(world)) * 8;
    let buffer = this.pool.pop();
    // A buffer too small for the grown world is dropped (the collector takes it).
    while (buffer !== undefined && buffer.byteLength < bytes) buffer = this.pool.pop();
    if (buffer === undefined) {
      buffer = new ArrayBuffer(frameLength(roomFor(worldFloats(world))) * 8);
      this.allocated++;
    }
    writeFrame(world, new Float64Array(buffer), 0, advances, commands);
    this.post({ type: 'frame', buffer }, [buffer]);
  }

  /** Puts a buffer the main thread has read back into the pool. */
  giveBack(buffer: ArrayBuffer): void {
    this.pool.push(buffer);
  }
}

/** The transfer path's reader: keeps the newest frame to arrive and hands older ones straight back. */
export class TransferFrameReader implements FrameReader {
  /** The header of the frame read last. */
  readonly header = new Float64Array(FRAME_HEADER);
  private latest: ArrayBuffer | null = null;

  /** @param giveBack returns a read buffer to the worker's pool. */
  constructor(private readonly giveBack: (buffer: ArrayBuffer) => void) {}

  /** Takes a frame from the worker; one not read yet is superseded and goes back at once. */
  receive(buffer: ArrayBuffer): void {
    if (this.latest !== null) this.giveBack(this.latest);
    this.latest = buffer;
  }

  /** Copies the newest frame received into `shadow` when newer than `advances`, and hands its buffer back (see {@link FrameReader.read}). */
  read(shadow: World, advances: number): number {
    const buffer = this.latest;
    if (buffer === null) return -1;
    this.latest = null;
    const frame = new Float64Array(buffer);
    const frameAdvances = frame[FRAME.advances]!;
    if (frameAdvances > advances) readFrame(frame, 0, shadow, this.header);
    this.giveBack(buffer);
    return frameAdvances > advances ? frameAdvances : -1;
  }
}
