import type { World } from '../core/world.js';
import { RigidBody } from '../core/bodies/rigid.js';
import { Ragdoll } from '../core/bodies/ragdoll.js';
import { LimbFrames } from '../core/bodies/limbFrames.js';
import { REF, WORLD_REF, type Command, type EncodedRef } from './commands.js';
import { STEP_ONLY_FUNCTIONS } from './replayables.js';

/**
 * Methods that only read (by name: the world's accessors and the closures of handles such as
 * `cloth.particle`): called on the shadow and not recorded, unless they return an object the
 * caller may change or pass on (then the worker must hold the same object).
 */
const READ_NAMES = new Set([
  'getPosition',
  'getInterpolatedPosition',
  'getVelocity',
  'getMass',
  'stickRow',
  'pinRow',
  'hasConstraint',
  'checkParticle',
  'particleId',
  'particle',
  'bodyOf',
  'bodyAt',
  'getCollider',
  'currentLength',
  'volume',
]);

/**
 * Methods that only read, by identity: they compute what renderers draw from the positions
 * (a rigid body's transform, a ragdoll's limb frames) and nothing a step uses, so the shadow
 * computes them from the copied positions and the worker need not.
 */
let readMethods: Set<unknown> | undefined;

/** Whether a method only reads: `'derived'` for the methods above (their result is handed out as it is), `'read'` for {@link READ_NAMES}, else false. */
function readKind(key: string, fn: unknown): 'derived' | 'read' | false {
  readMethods ??= new Set<unknown>([RigidBody.prototype.update, Ragdoll.prototype.updateFrames, Ragdoll.prototype.part, LimbFrames.prototype.update]);
  if (readMethods.has(fn)) return 'derived';
  return READ_NAMES.has(key) ? 'read' : false;
}

/** Why a call cannot be recorded, and what to do instead, by method name (the rest get a general hint). */
const HINTS: Record<string, string> = {
  onBeforeStep:
    'step callbacks would run in the worker, where none of this thread’s variables exist: do per-frame work on the main thread before `advance` (it applies at the start of the next step, as on a main-thread world), or use a replayable force or helper',
  onAfterStep:
    'step callbacks would run in the worker, where none of this thread’s variables exist: read results on the main thread after the frame arrives (`remote.sync()`), or use a replayable helper',
  addForce:
    'a force made on this thread cannot be sent: make a replayable one with `remote.construct(Attractor, options)` (any class in REPLAYABLE_CLASSES), or `remote.call(createWind, world, options)`',
  addConstraint: 'a user constraint runs its own `project` code, which cannot be sent to the worker: use the built-in constraints (sticks, pins, angle and plane constraints, attachments)',
};

const GENERAL_HINT =
  'only plain data (numbers, strings, arrays, plain objects, typed arrays) and objects the remote world handed out can be sent to the worker: make engine objects with `remote.call(fn, …)` or `remote.construct(Class, …)` (see REPLAYABLE_FUNCTIONS and REPLAYABLE_CLASSES)';

/** Thrown inside encoding for what cannot be sent; turned into a TypeError that names the call and the argument. */
class Refusal {
  constructor(readonly what: string) {}
}

/** What the world proxy routes to the remote world instead of the shadow (which never steps). */
export interface WorldHooks {
  advance(seconds: number): number;
  step(): void;
}

/** Builtin methods (an array's `map`, an object's `hasOwnProperty`) run on the proxy itself, so their reads and writes go through it. */
function isBuiltin(key: string, value: unknown): boolean {
  return (Array.prototype as unknown as Record<string, unknown>)[key] === value || (Object.prototype as unknown as Record<string, unknown>)[key] === value;
}

/** Objects that are wrapped in a recording proxy; typed arrays, buffers, maps and the like are handed out as they are (read-only by contract). */
function wrappable(value: object): boolean {
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Map || value instanceof Set || value instanceof Date || value instanceof RegExp || value instanceof Promise)
    return false;
  return typeof SharedArrayBuffer === 'undefined' || !(value instanceof SharedArrayBuffer);
}

function isObject(value: unknown): value is object {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}

/**
 * The main thread's recorder: wraps the shadow world (and every object read from it or
 * returned by it) in a Proxy that forwards each operation to the shadow, so ids, handles
 * and errors come synchronously, and records each change as a {@link Command} for the
 * worker. Objects get reference numbers in the order the shadow meets them, which is the
 * order the worker meets them too.
 */
export class Recorder {
  /** Commands recorded since the last {@link Recorder.take}. */
  private queue: Command[] = [];
  private nextRef = WORLD_REF + 1;
  private readonly proxies = new WeakMap<object, object>();
  private readonly refs = new WeakMap<object, number>();
  private readonly raws = new WeakMap<object, object>();
  /** Objects by reference (held weakly), for what the worker reports about them (tears). */
  private readonly objects = new Map<number, WeakRef<object>>();
  private readonly released = new FinalizationRegistry<number>((ref) => {
    this.objects.delete(ref);
    this.push({ op: 'release', ref });
  });
  /** Commands recorded in all (the worker counts those it applied: a frame says how many came before it). */
  recorded = 0;
  /** The recording proxy of the shadow world. */
  readonly world: World;

  constructor(
    readonly shadow: World,
    private readonly hooks: WorldHooks,
  ) {
    this.refs.set(shadow, WORLD_REF);
    this.world = this.wrap(shadow, WORLD_REF, 'world') as World;
  }

  /** Hands over the commands recorded so far (and starts a new list). */
  take(): Command[] {
    const commands = this.queue;
    this.queue = [];
    return commands;
  }

  /** Commands waiting to be taken. */
  get pending(): number {
    return this.queue.length;
  }

  /** Records a command. */
  push(command: Command): void {
    this.queue.push(command);
    this.recorded++;
  }

  /** The shadow's object with reference `ref` and its proxy, or undefined once released. */
  object(ref: number): { raw: object; proxy: object } | undefined {
    const raw = this.objects.get(ref)?.deref();
    const proxy = raw === undefined ? undefined : this.proxies.get(raw);
    return raw === undefined || proxy === undefined ? undefined : { raw, proxy };
  }

  /** The raw object behind a proxy (the object itself otherwise). */
  raw<T>(value: T): T {
    return (isObject(value) ? (this.raws.get(value) ?? value) : value) as T;
  }

  /** Calls replayable `name` (`fn`) on the shadow with `args` (unless it acts on the steps alone, see `STEP_ONLY_FUNCTIONS`) and records it. */
  callFunction(name: string, fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
    const encoded = this.encodeArgs(args, `${name}(…)`, undefined);
    if (STEP_ONLY_FUNCTIONS.has(name)) {
      this.push({ op: 'fn', name, args: encoded, result: -1 });
      return undefined;
    }
    const value = this.result(
      this.failing(() => fn(...this.unwrapArgs(args)), { op: 'fn', name, args: encoded, result: -1 }),
      `${name}(…)`,
    );
    this.push({ op: 'fn', name, args: encoded, result: this.resultRef });
    return value;
  }

  /** Constructs replayable class `name` (`Class`) with `args` and records it. */
  construct(name: string, Class: new (...args: unknown[]) => unknown, args: unknown[]): unknown {
    const encoded = this.encodeArgs(args, `new ${name}(…)`, undefined);
    const value = this.result(
      this.failing(() => new Class(...this.unwrapArgs(args)), { op: 'new', name, args: encoded, result: -1 }),
      `new ${name}(…)`,
    );
    this.push({ op: 'new', name, args: encoded, result: this.resultRef });
    return value;
  }

  /**
   * Runs a change on the shadow. When it throws, the command is still recorded, marked to
   * fail: the worker runs it too and stops where the shadow stopped, silently (the error was
   * thrown here), so whatever the call changed before it threw is changed in both worlds.
   */
  private failing<T>(action: () => T, command: Command): T {
    try {
      return action();
    } catch (error) {
      this.push({ ...command, fails: true });
      throw error;
    }
  }

  /** The reference the latest {@link Recorder.result} gave its value (-1: none), for the command that records the call. */
  private resultRef = -1;

  /** Wraps an object result in a proxy under a new reference (in {@link Recorder.resultRef}), or returns it as it is. */
  private result(value: unknown, name: string): unknown {
    this.resultRef = -1;
    if (!isObject(value) || !wrappable(value)) return value;
    const known = this.proxies.get(value);
    if (known !== undefined) return known;
    this.resultRef = this.nextRef++;
    return this.wrap(value, this.resultRef, name);
  }

  private wrap(raw: object, ref: number, name: string): object {
    const methods = new Map<string, { fn: unknown; wrapper: (...args: unknown[]) => unknown }>();
    const proxy = new Proxy(raw, {
      get: (target, key) => {
        if (typeof key === 'symbol') return Reflect.get(target, key);
        if (ref === WORLD_REF) {
          const routed = this.worldRoute(key);
          if (routed !== undefined) return routed;
        }
        const value = Reflect.get(target, key) as unknown;
        if (typeof value === 'function') {
          if (isBuiltin(key, value)) return value;
          let entry = methods.get(key);
          if (entry === undefined || entry.fn !== value) {
            const fn = value as (...args: unknown[]) => unknown;
            entry = { fn, wrapper: (...args: unknown[]) => this.invoke(target, ref, `${name}.${key}`, key, fn, args) };
            methods.set(key, entry);
          }
          return entry.wrapper;
        }
        if (!isObject(value) || !wrappable(value)) return value;
        return this.proxies.get(value) ?? this.child(value, ref, key, `${name}.${key}`);
      },
      set: (target, key, value) => {
        if (typeof key === 'symbol') return Reflect.set(target, key, value);
        const [encoded] = this.encodeArgs([value], `${name}.${key} = …`, undefined);
        if (!this.failing(() => Reflect.set(target, key, this.unwrap(value)), { op: 'set', target: ref, key, value: encoded })) return false;
        this.push({ op: 'set', target: ref, key, value: encoded });
        return true;
      },
    });
    this.proxies.set(raw, proxy);
    this.refs.set(raw, ref);
    this.raws.set(proxy, raw);
    this.objects.set(ref, new WeakRef(raw));
    if (ref !== WORLD_REF) this.released.register(proxy, ref);
    return proxy;
  }

  /** An object met by reading `parent[key]`: recorded as a reference, so the worker holds the same object. */
  private child(value: object, parent: number, key: string, name: string): object {
    const ref = this.nextRef++;
    this.push({ op: 'ref', target: parent, key, result: ref });
    return this.wrap(value, ref, name);
  }

  /** The world's members that do not go to the shadow: stepping and snapshots live in the worker. */
  private worldRoute(key: string): unknown {
    switch (key) {
      case 'advance':
        return this.hooks.advance;
      case 'step':
        return this.hooks.step;
      case 'snapshot':
        return () => {
          throw new Error('RemoteWorld: world.snapshot() cannot answer synchronously: the state lives in the worker. Use `await remote.snapshot()` (a snapshot taken after the frames sent so far).');
        };
      case 'onBeforeStep':
      case 'onAfterStep':
        return () => {
          throw new TypeError(`RemoteWorld: world.${key}(callback) is refused: ${HINTS[key]}.`);
        };
      default:
        return undefined;
    }
  }

  /** Calls method `key` of `target` on the shadow and records it (reads are recorded only when they return an object). */
  private invoke(target: object, ref: number, name: string, key: string, fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
    const read = readKind(key, fn);
    if (read !== false) {
      const raw = this.unwrapArgs(args);
      const value = fn.apply(target, raw);
      if (read === 'derived' || !isObject(value) || raw.includes(value) || !wrappable(value)) return value;
      const encoded = this.encodeArgs(args, `${name}(…)`, key);
      const out = this.result(value, `${name}(…)`);
      if (this.resultRef >= 0) this.push({ op: 'call', target: ref, method: key, args: encoded, result: this.resultRef });
      return out;
    }
    const encoded = this.encodeArgs(args, `${name}(…)`, key);
    const out = this.result(
      this.failing(() => fn.apply(target, this.unwrapArgs(args)), { op: 'call', target: ref, method: key, args: encoded, result: -1 }),
      `${name}(…)`,
    );
    this.push({ op: 'call', target: ref, method: key, args: encoded, result: this.resultRef });
    return out;
  }

  /**
   * Call arguments for the worker: objects the remote world handed out replaced by references,
   * arrays and typed arrays copied (later changes to them must not reach the queued command).
   * Throws, naming the call and the argument, for what cannot be sent: functions and objects
   * made outside the remote world.
   */
  private encodeArgs(args: unknown[], who: string, method: string | undefined): unknown[] {
    try {
      const encoded = new Array<unknown>(args.length);
      for (let i = 0; i < args.length; i++) encoded[i] = this.encode(args[i]);
      return encoded;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      const [path, what] = this.locate(args, 'argument ', 1) ?? ['an argument', error.what];
      throw this.refusal(who, path, what, method);
    }
  }

  /** Call arguments for the shadow: proxies replaced by their objects (arrays and objects rebuilt only when they hold one). */
  private unwrapArgs(args: unknown[]): unknown[] {
    let out: unknown[] | undefined;
    for (let i = 0; i < args.length; i++) {
      const r = this.unwrap(args[i]);
      if (r !== args[i]) (out ??= args.slice())[i] = r;
    }
    return out ?? args;
  }

  private unwrap(value: unknown): unknown {
    if (!isObject(value)) return value;
    const raw = this.raws.get(value);
    if (raw !== undefined) return raw;
    if (ArrayBuffer.isView(value) || this.refs.has(value)) return value;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (!isObject(item)) continue;
        const r = this.unwrap(item);
        if (r !== item) (out ??= value.slice())[i] = r;
      }
      return out ?? value;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) return value;
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (!isObject(item)) continue;
      const r = this.unwrap(item);
      if (r !== item) (out ??= { ...value })[key] = r;
    }
    return out ?? value;
  }

  /** `value` for the worker (see {@link Recorder.encodeArgs}); throws a {@link Refusal} for what cannot be sent. */
  private encode(value: unknown): unknown {
    if (!isObject(value)) {
      if (typeof value === 'symbol') throw new Refusal('is a symbol');
      return value;
    }
    const raw = this.raws.get(value) ?? value;
    const ref = this.refs.get(raw);
    if (ref !== undefined) return { [REF]: ref } satisfies EncodedRef;
    if (typeof raw === 'function') throw new Refusal('is a function');
    if (ArrayBuffer.isView(raw)) {
      if (raw instanceof DataView) throw new Refusal('is a DataView');
      return (raw as unknown as { slice(): unknown }).slice();
    }
    if (Array.isArray(raw)) {
      const out = new Array<unknown>(raw.length);
      for (let i = 0; i < raw.length; i++) out[i] = this.encode(raw[i]);
      return out;
    }
    const proto = Object.getPrototypeOf(raw) as unknown;
    if (proto !== Object.prototype && proto !== null)
      throw new Refusal(`is an instance of ${(raw as { constructor?: { name?: string } }).constructor?.name ?? 'a class'} made outside the remote world`);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(raw)) out[key] = this.encode((raw as Record<string, unknown>)[key]);
    return out;
  }

  /** Where in `values` (named `prefix` + index from `first`) the first thing that cannot be sent is, and what it is: the slow path behind a refusal's message. */
  private locate(values: readonly unknown[] | Record<string, unknown>, prefix: string, first: number): [string, string] | undefined {
    const keys = Array.isArray(values) ? values.map((_, i) => i) : Object.keys(values);
    for (const key of keys) {
      const value = (values as Record<string | number, unknown>)[key];
      const path = Array.isArray(values) ? (prefix.startsWith('argument') ? `${prefix}${(key as number) + first}` : `${prefix}[${key}]`) : `${prefix}.${key}`;
      try {
        this.encode(value);
        continue;
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        const raw = isObject(value) ? (this.raws.get(value) ?? value) : value;
        const inner = isObject(raw) && (Array.isArray(raw) || Object.getPrototypeOf(raw) === Object.prototype) ? this.locate(raw as unknown[] | Record<string, unknown>, path, 0) : undefined;
        return inner ?? [path, error.what];
      }
    }
    return undefined;
  }

  private refusal(who: string, path: string, what: string, method: string | undefined): TypeError {
    const onBreak = path.endsWith('.onBreak') ? 'breaks are heard on this thread: pass `onBreak` to the RemoteWorld (RemoteWorldOptions.onBreak), which hears every attachment’s' : undefined;
    const hint = onBreak ?? (method !== undefined ? HINTS[method] : undefined) ?? GENERAL_HINT;
    return new TypeError(`RemoteWorld: ${who}: ${path} ${what}, which cannot be sent to the physics worker; ${hint}.`);
  }
}
