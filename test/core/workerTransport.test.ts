import { describe, expect, it } from 'vitest';
import { createCloth, World } from '../../src/core/index.js';
import { FRAME, SharedFrameReader, SharedFrameWriter, TransferFrameReader, TransferFrameWriter, type FromWorker } from '../../src/worker/index.js';

// The two read-back paths of issue 30 on their own: the SharedArrayBuffer triple buffer
// (node has SharedArrayBuffer without cross-origin isolation) and the pool of transferred buffers.

/** A cloth world stepped `steps` times. */
function clothWorld(steps: number, size = 6): World {
  const world = new World();
  createCloth(world, { width: size, height: size, spacing: 0.1, pin: 'top' });
  for (let s = 0; s < steps; s++) world.step();
  return world;
}

/** A shadow for `world`: the same build, never stepped. */
const shadowOf = (size = 6) => clothWorld(0, size);

describe('shared transport (SharedArrayBuffer)', () => {
  it('the reader copies the latest complete frame; an older one is not read twice', () => {
    const posted: FromWorker[] = [];
    const writer = new SharedFrameWriter((m) => posted.push(m));
    const reader = new SharedFrameReader();
    const world = clothWorld(0);
    const shadow = shadowOf();
    world.step();
    writer.publish(world, 1, 5);
    expect(posted).toHaveLength(1);
    reader.adopt((posted[0] as { buffer: SharedArrayBuffer }).buffer);
    world.step();
    writer.publish(world, 2, 5);
    world.step();
    writer.publish(world, 3, 5); // three frames written, the reader looks once: it gets the third
    expect(reader.read(shadow, 0)).toBe(3);
    expect(shadow.stepCount).toBe(3);
    expect(Array.from(shadow.positions.slice(0, world.particles.end * 3))).toEqual(Array.from(world.positions.slice(0, world.particles.end * 3)));
    expect(reader.read(shadow, 3)).toBe(-1);
  });

  it('a slot being written (odd sequence number) is read again, never half-copied', () => {
    const posted: FromWorker[] = [];
    const writer = new SharedFrameWriter((m) => posted.push(m));
    const reader = new SharedFrameReader();
    const world = clothWorld(1);
    writer.publish(world, 1, 0);
    const buffer = (posted[0] as { buffer: SharedArrayBuffer }).buffer;
    reader.adopt(buffer);
    const control = new Int32Array(buffer, 0, 16);
    const slot = Atomics.load(control, 0);
    Atomics.add(control, 2 + slot, 1); // as the writer does before it writes
    expect(reader.read(shadowOf(), 0)).toBe(-1);
    expect(reader.retries).toBe(8);
    Atomics.add(control, 2 + slot, 1); // written
    expect(reader.read(shadowOf(), 0)).toBe(1);
  });

  it('a world that outgrows the buffer gets a new one; the reader keeps the old until the new holds a frame', () => {
    const posted: FromWorker[] = [];
    const writer = new SharedFrameWriter((m) => posted.push(m));
    const reader = new SharedFrameReader();
    const world = clothWorld(1, 4);
    writer.publish(world, 1, 0);
    reader.adopt((posted[0] as { buffer: SharedArrayBuffer }).buffer);
    createCloth(world, { width: 20, height: 20, spacing: 0.05, corner: [2, 2, 0] }); // 416 particles: more than the first buffer's room
    world.step();
    writer.publish(world, 2, 1);
    expect(posted).toHaveLength(2);
    const shadow = clothWorld(0, 4);
    createCloth(shadow, { width: 20, height: 20, spacing: 0.05, corner: [2, 2, 0] });
    expect(reader.read(shadow, 0)).toBe(1); // the new buffer is not adopted yet
    reader.adopt((posted[1] as { buffer: SharedArrayBuffer }).buffer);
    expect(reader.read(shadow, 1)).toBe(2);
    expect(Array.from(shadow.positions.slice(0, world.particles.end * 3))).toEqual(Array.from(world.positions.slice(0, world.particles.end * 3)));
  });
});

describe('transfer transport (ArrayBuffers in flight)', () => {
  it('the writer never waits: with no buffer returned it allocates, and reuses returned ones', () => {
    const inFlight: ArrayBuffer[] = [];
    const writer = new TransferFrameWriter((m) => inFlight.push((m as { buffer: ArrayBuffer }).buffer));
    const world = clothWorld(0);
    for (let k = 1; k <= 3; k++) {
      world.step();
      writer.publish(world, k, 0);
    }
    expect(writer.allocated).toBe(3); // three frames in flight at once, none waited for
    const reader = new TransferFrameReader((b) => writer.giveBack(b));
    for (const b of inFlight.splice(0)) reader.receive(b); // the first two go back unread
    const shadow = shadowOf();
    expect(reader.read(shadow, 0)).toBe(3);
    expect(shadow.stepCount).toBe(3);
    for (let k = 4; k <= 6; k++) {
      world.step();
      writer.publish(world, k, 0);
    }
    expect(writer.allocated).toBe(3); // the three returned buffers served again
    expect(new Float64Array(inFlight[2]!)[FRAME.advances]).toBe(6);
  });
});
