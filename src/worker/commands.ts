import type { SlowerThanRealTimeReport } from '../core/realTime.js';
import type { WorldOptions } from '../core/worldOptions.js';
import type { WorldSnapshot } from '../core/snapshot.js';

// The protocol between a RemoteWorld (main thread) and the worker that steps its world.
// Everything here is plain structured-cloneable data: commands name things (a reference
// number, a replayable function's name, a method or property name), never closures.

/** The key that marks an encoded reference inside command arguments: `{ [REF]: n }` stands for the object reference `n` names. */
export const REF = '__sinewRef';

/** Reference number of the world itself; every other reference is the result of an earlier command. */
export const WORLD_REF = 0;

/** An encoded reference inside command arguments (see {@link REF}). */
export interface EncodedRef {
  readonly [REF]: number;
}

/**
 * One change to the world, recorded on the main thread and applied by the worker in order,
 * between steps (where the same call takes effect on a main-thread world).
 *
 * - `call`: `target.method(...args)`; an object result is kept as reference `result` (-1: none).
 * - `fn` / `new`: a replayable function or class (see `replayables.ts`) by name.
 * - `set`: `target[key] = value` (a handle's property written per frame: a wind's velocity).
 * - `ref`: keeps `target[key]` (an object read through a handle, such as `cloth.body`) as reference `result`.
 * - `release`: forgets reference `ref` (its proxy on the main thread was collected).
 * - `advance`: `world.advance(seconds)`, then the worker publishes a frame.
 * - `step`: `world.step()`, then the worker publishes a frame.
 * - `snapshot`: the worker posts `world.snapshot()` back with request id `id`.
 */
export type Command = (
  | { op: 'call'; target: number; method: string; args: unknown[]; result: number }
  | { op: 'fn'; name: string; args: unknown[]; result: number }
  | { op: 'new'; name: string; args: unknown[]; result: number }
  | { op: 'set'; target: number; key: string; value: unknown }
  | { op: 'ref'; target: number; key: string; result: number }
  | { op: 'release'; ref: number }
  | { op: 'advance'; seconds: number }
  | { op: 'step' }
  | { op: 'snapshot'; id: number }
) & {
  /** Set when the call threw on the shadow: the worker runs it as far as it goes and drops the error (the main thread has thrown it). */
  fails?: true;
};

/** How frames come back: through a `SharedArrayBuffer` (needs cross-origin isolation) or transferred `ArrayBuffer`s. */
export type TransportKind = 'shared' | 'transfer';

/** Messages from the main thread to the worker. */
export type ToWorker = { type: 'init'; options: WorldOptions; transport: TransportKind } | { type: 'commands'; commands: Command[] } | { type: 'return'; buffer: ArrayBuffer };

/**
 * Messages from the worker to the main thread. `tears`: sticks (indices into `handle.sticks`) of
 * the cloth handle with reference `ref` that tore in the steps of advance number `advances`;
 * `breaks`: particles (indices into `attachment.particles`) the attachment with reference `ref`
 * let go in them; `links`: the links (indices into `bodyAttachment.particles`) the body attachment
 * with reference `ref` let go in them, over its break force or because a particle went; `character`: the state of the character driver with reference `ref` after
 * them (see `CharacterDriver.saveMirror`).
 */
export type FromWorker =
  | { type: 'shared'; buffer: SharedArrayBuffer }
  | { type: 'frame'; buffer: ArrayBuffer }
  | { type: 'snapshot'; id: number; snapshot: WorldSnapshot }
  | { type: 'snapshot'; id: number; error: string }
  | { type: 'error'; message: string; stack: string; command: string }
  | { type: 'tears'; ref: number; advances: number; sticks: Int32Array }
  | { type: 'breaks'; ref: number; advances: number; particles: Int32Array }
  | { type: 'links'; ref: number; advances: number; broken: Int32Array; dropped: Int32Array }
  | { type: 'character'; ref: number; advances: number; state: Float64Array }
  | { type: 'slow'; report: SlowerThanRealTimeReport };

/** A short description of a command for error messages: `createCloth(…)`, `#3.velocity = …`. */
export function describeCommand(command: Command): string {
  switch (command.op) {
    case 'call':
      return `${command.target === WORLD_REF ? 'world' : `#${command.target}`}.${command.method}(…)`;
    case 'fn':
      return `${command.name}(…)`;
    case 'new':
      return `new ${command.name}(…)`;
    case 'set':
      return `${command.target === WORLD_REF ? 'world' : `#${command.target}`}.${command.key} = …`;
    case 'ref':
      return `${command.target === WORLD_REF ? 'world' : `#${command.target}`}.${command.key}`;
    case 'release':
      return `release #${command.ref}`;
    case 'advance':
      return `advance(${command.seconds})`;
    case 'step':
      return 'step()';
    case 'snapshot':
      return 'snapshot()';
  }
}

/**
 * Replaces every encoded reference in `value` (see {@link REF}) by the object it names in
 * `refs`; other data comes back as it is (plain objects and arrays rebuilt only when they
 * hold a reference). Throws, naming the reference, when `refs` has none by that number.
 */
export function decodeValue(value: unknown, refs: ReadonlyMap<number, unknown>): unknown {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const d = decodeValue(value[i], refs);
      if (d !== value[i]) (out ??= value.slice())[i] = d;
    }
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  if (REF in record) {
    const n = record[REF] as number;
    if (!refs.has(n)) throw new RangeError(`sinew worker: no object with reference #${n} (released, or its command failed)`);
    return refs.get(n);
  }
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const d = decodeValue(record[key], refs);
    if (d !== record[key]) (out ??= { ...record })[key] = d;
  }
  return out ?? record;
}
