import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { afterAll, bench, describe } from 'vitest';
import type * as source from '../../src/worker/index.js';
import { median, protocol } from './protocol.js';

// Issue 30: what the main thread pays in worker mode. Recording a command through the
// RemoteWorld's proxy (a pin target, a wind velocity) beside the same call on a plain world;
// a read through the proxy; and the read-back of a 64 × 64 cloth's frame (positions, step-start
// and previous positions: 3 × 98 kB), written by the worker and copied into the shadow, on
// both transports. Timed on the built library, as the other benches are.

const p = protocol();

async function builtWorker(): Promise<typeof source> {
  const dir = mkdtempSync(join(tmpdir(), 'sinew-bench-worker-'));
  try {
    await build({
      configFile: false,
      logLevel: 'silent',
      build: { outDir: dir, emptyOutDir: true, minify: false, lib: { entry: resolve(import.meta.dirname, '../../src/worker/index.ts'), formats: ['es'], fileName: () => 'worker.js' } },
    });
    return (await import(pathToFileURL(join(dir, 'worker.js')).href)) as typeof source;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const w = await builtWorker();
const { createCloth, createWind } = w.REPLAYABLE_FUNCTIONS;
type World = source.RemoteWorld['world'];

/**
 * A remote world and a plain one, each with a 64 × 64 cloth pinned at the top and a wind. The
 * remote's endpoint only structured-clones what it is sent (the main thread's share of a
 * `postMessage`): no worker applies it here.
 */
function scenes() {
  const endpoint = { onmessage: null, postMessage: (message: unknown) => void structuredClone(message) };
  const remote = new w.RemoteWorld({ endpoint, transport: 'transfer' });
  const plain = new (Object.getPrototypeOf(remote.shadow).constructor as new () => World)();
  const options = { width: 64, height: 64, spacing: 0.02, pin: 'top' as const };
  const rc = remote.call(createCloth, remote.world, options);
  const pc = createCloth(plain, options);
  const rw = remote.call(createWind, remote.world, { velocity: [0, 0, 1] });
  const pw = createWind(plain, { velocity: [0, 0, 1] });
  for (let i = 0; i < 30; i++) plain.advance(1 / 60);
  return { remote, plain, rc, pc, rw, pw };
}

/** Median nanoseconds per call of `body` (run `n` times per sample, after one untimed round). */
function nsPer(n: number, body: (i: number) => void): number {
  for (let i = 0; i < n; i++) body(i);
  const samples: number[] = [];
  for (let r = 0; r < p.runs; r++) {
    const start = performance.now();
    for (let i = 0; i < n; i++) body(i);
    samples.push(((performance.now() - start) * 1e6) / n);
  }
  return median(samples);
}

const s = scenes();
/** The same remote scene with an endpoint that drops messages: recording alone, without the structured clone. */
const quiet = (() => {
  const remote = new w.RemoteWorld({ endpoint: { onmessage: null, postMessage: () => {} }, transport: 'transfer' });
  const cloth = remote.call(createCloth, remote.world, { width: 64, height: 64, spacing: 0.02, pin: 'top' });
  return { remote, cloth };
})();
const out: [number, number, number] = [0, 0, 0];
const results = {
  pinPlain: nsPer(20_000, (i) => s.plain.setPinTarget(s.pc.pins[0]!, [i * 1e-6, 1, 0])),
  pinRemote: nsPer(20_000, (i) => {
    s.remote.world.setPinTarget(s.rc.pins[0]!, [i * 1e-6, 1, 0]);
    // Eight commands per message, as a frame might send them.
    if (i % 8 === 7) s.remote.flush();
  }),
  pinRecordOnly: nsPer(20_000, (i) => {
    quiet.remote.world.setPinTarget(quiet.cloth.pins[0]!, [i * 1e-6, 1, 0]);
    if (i % 8 === 7) quiet.remote.flush();
  }),
  windPlain: nsPer(20_000, (i) => void (s.pw.velocity = [i * 1e-6, 0, 1])),
  windRemote: nsPer(20_000, (i) => {
    s.rw.velocity = [i * 1e-6, 0, 1];
    if (i % 8 === 7) s.remote.flush();
  }),
  readPlain: nsPer(100_000, (i) => void s.plain.getPosition(s.pc.first + (i & 4095), out)),
  readRemote: nsPer(100_000, (i) => void s.remote.world.getPosition(s.rc.first + (i & 4095), out)),
};

/** Median microseconds to publish one frame of the 64 × 64 cloth (worker side) and to copy it into the shadow (main thread) on `transport`. */
function readBack(transport: source.TransportKind): { publish: number; read: number } {
  const last: { buffer: SharedArrayBuffer | ArrayBuffer | null } = { buffer: null };
  const post = (m: source.FromWorker) => void (last.buffer = (m as { buffer: SharedArrayBuffer | ArrayBuffer }).buffer);
  const writer = transport === 'shared' ? new w.SharedFrameWriter(post) : new w.TransferFrameWriter(post);
  let advances = 0;
  const publish = nsPer(200, () => {
    writer.publish(s.plain, ++advances, 0);
    if (transport === 'transfer') writer.giveBack(last.buffer as ArrayBuffer);
  });
  const shared = new w.SharedFrameReader();
  if (transport === 'shared') shared.adopt(last.buffer as SharedArrayBuffer);
  const transfer = new w.TransferFrameReader((b) => writer.giveBack(b));
  const reader = transport === 'shared' ? shared : transfer;
  const samples: number[] = [];
  let seen = 0;
  for (let r = 0; r <= p.runs; r++) {
    let spent = 0;
    for (let k = 0; k < 200; k++) {
      writer.publish(s.plain, ++advances, 0);
      if (transport === 'transfer') transfer.receive(last.buffer as ArrayBuffer);
      const start = performance.now();
      seen = reader.read(s.remote.shadow, seen);
      spent += performance.now() - start;
    }
    if (r > 0) samples.push((spent * 1000) / 200);
  }
  return { publish: publish / 1000, read: median(samples) };
}

const shared = readBack('shared');
const transfer = readBack('transfer');

afterAll(() => {
  const ns = (x: number) => `${x.toFixed(0)} ns`;
  console.log(
    `worker: recording setPinTarget ${ns(results.pinRemote)} per call with its share of the structured clone, ${ns(results.pinRecordOnly)} without (plain world ${ns(results.pinPlain)}); wind.velocity = … ${ns(results.windRemote)} (plain ${ns(results.windPlain)}); getPosition through the proxy ${ns(results.readRemote)} (plain ${ns(results.readPlain)}); ` +
      `64 × 64 cloth frame (3 × ${((64 * 64 * 3 * 8) / 1024).toFixed(0)} kB): shared publish ${shared.publish.toFixed(1)} µs, read ${shared.read.toFixed(1)} µs; transfer publish ${transfer.publish.toFixed(1)} µs, read ${transfer.read.toFixed(1)} µs (median of ${p.runs})`,
  );
  s.remote.dispose();
  quiet.remote.dispose();
});

describe('worker mode on the main thread', () => {
  bench('record a pin target and a wind velocity, flush every 8', () => {
    for (let i = 0; i < 8; i++) {
      s.remote.world.setPinTarget(s.rc.pins[0]!, [i * 1e-3, 1, 0]);
      s.rw.velocity = [i * 1e-3, 0, 1];
    }
    s.remote.flush();
  });
});
