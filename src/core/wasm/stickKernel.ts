import type { StickTable } from '../constraints/sticks.js';
import type { ParticleStore } from '../particles.js';
import { sticksWasm } from './sticks.generated.js';

/**
 * Which implementation runs the stick pass: `'wasm'`, the WebAssembly SIMD kernel
 * (sticks.wat), or `'js'`, the TypeScript loops of `constraints/stickSolve.ts`. Both
 * give the same positions bit for bit.
 */
export type StickKernel = 'wasm' | 'js';

/** What sticks.wat exports (byte offsets into its memory; see there). */
interface KernelExports {
  solve(from: number, to: number, soft: number, pos: number, w: number, a: number, b: number, rest: number, stiffness: number, compliance: number, lambda: number, params: number): number;
}

const PAGE = 65536;

/**
 * A new memory holds this many times the layout it is made for, so that the next
 * growths of the store or the table are laid out inside it (see {@link WasmStickKernel}).
 * Pages never written cost address space, not RAM.
 */
const HEADROOM = 3;

let compiled: WebAssembly.Module | null | undefined;

/**
 * The compiled kernel, or null where it cannot run: no WebAssembly, no SIMD (the
 * module does not validate), or compiling forbidden (a Content Security Policy
 * without 'wasm-unsafe-eval'). Compiled once, synchronously: the module is about
 * 1.2 kB, well under the 4 kB browsers allow to compile synchronously on the main
 * thread (a test keeps it there).
 */
function stickKernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = typeof WebAssembly === 'object' && WebAssembly.validate(sticksWasm) ? new WebAssembly.Module(sticksWasm) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

/** True where the WebAssembly SIMD stick kernel can run (see {@link WasmStickKernel}). */
export function wasmKernelAvailable(): boolean {
  return stickKernelModule() !== null;
}

/** Rounds a region up to 16 bytes, so every column starts where a v128 load would like it. */
function align(bytes: number): number {
  return (bytes + 15) & ~15;
}

/**
 * The WebAssembly stick kernel of one world, and the memory it works in.
 *
 * The kernel must read and write the positions the rest of the solver uses,
 * without a copy per pass (the copies would eat the gain), so while it is on,
 * the particle store's `position` and `inverseMass` and the stick table's `a`,
 * `b`, `rest`, `stiffness`, `compliance` and `lambda` are views into its
 * `WebAssembly.Memory` (with 16 bytes of parameters: 1/h² of the substep).
 * {@link adopt} keeps them there: when the store or the table has grown (which
 * replaces their arrays with ordinary ones), or a snapshot was restored, it lays
 * all eight out again and replaces every one of them with a new view.
 *
 * The memory is never grown: `memory.grow()` detaches the old buffer, and the
 * first detached `ArrayBuffer` in a process makes V8 check every typed-array
 * access in optimised code for detachment from then on, which makes the
 * TypeScript stick loop 25–35% slower and slows every other typed-array loop of
 * the page. So a memory is made with room to spare ({@link HEADROOM}); a new
 * layout is written after the current one and stays there, so a stale view kept
 * by user code still reads (and harmlessly writes) its old region, never another
 * column; only when a layout does not fit is a new, larger memory made (and the
 * old one left to the garbage collector, along with any stale views on it).
 */
export class WasmStickKernel {
  private memory: WebAssembly.Memory | null = null;
  private exports: KernelExports | null = null;
  /** Bytes of the memory handed out so far (every layout so far, the current one last). */
  private size = 0;
  // Byte offsets of the columns, passed to every call.
  private position = 0;
  private inverseMass = 0;
  private a = 0;
  private b = 0;
  private rest = 0;
  private stiffness = 0;
  private compliance = 0;
  private lambda = 0;
  private params = 0;
  // The views last handed out, to notice when one was replaced.
  private positionView: Float64Array | null = null;
  private inverseMassView: Float64Array | null = null;
  private aView: Int32Array | null = null;
  private bView: Int32Array | null = null;
  private restView: Float64Array | null = null;
  private stiffnessView: Float64Array | null = null;
  private complianceView: Float64Array | null = null;
  private lambdaView: Float64Array | null = null;
  private paramsView: Float64Array | null = null;

  private constructor(private readonly module: WebAssembly.Module) {}

  /** A kernel without memory yet (the first {@link adopt} makes it), or null where WebAssembly SIMD is unavailable. */
  static create(): WasmStickKernel | null {
    const module = stickKernelModule();
    return module === null ? null : new WasmStickKernel(module);
  }

  /**
   * Makes the eight columns views into the kernel's memory, unless they already
   * are. Call it after anything that may have replaced one (adding particles or
   * sticks, restoring a snapshot); the solver also calls it before each step. Costs
   * eight comparisons when nothing changed; allocates only when it lays out anew.
   * Returns false, leaving every array as it was, when no memory can be had for
   * them (the world then falls back to the TypeScript loops).
   */
  adopt(particles: ParticleStore, sticks: StickTable): boolean {
    if (
      particles.position === this.positionView &&
      particles.inverseMass === this.inverseMassView &&
      sticks.a === this.aView &&
      sticks.b === this.bView &&
      sticks.rest === this.restView &&
      sticks.stiffness === this.stiffnessView &&
      sticks.compliance === this.complianceView &&
      sticks.lambda === this.lambdaView
    ) {
      return true;
    }
    return this.layOut(particles, sticks);
  }

  /**
   * {@link adopt}'s slow path, a function of its own: the closures below give a
   * function a context object allocated on entry, which the check that runs every
   * step must not pay for (measured: 48 bytes per step).
   */
  private layOut(particles: ParticleStore, sticks: StickTable): boolean {
    const old = {
      position: particles.position,
      inverseMass: particles.inverseMass,
      a: sticks.a,
      b: sticks.b,
      rest: sticks.rest,
      stiffness: sticks.stiffness,
      compliance: sticks.compliance,
      lambda: sticks.lambda,
    };
    const at = { params: 0, position: 0, inverseMass: 0, a: 0, b: 0, rest: 0, stiffness: 0, compliance: 0, lambda: 0 };
    let size = 0;
    at.params = size;
    size += 16;
    at.position = size;
    size += align(old.position.byteLength);
    at.inverseMass = size;
    size += align(old.inverseMass.byteLength);
    at.rest = size;
    size += align(old.rest.byteLength);
    at.stiffness = size;
    size += align(old.stiffness.byteLength);
    at.compliance = size;
    size += align(old.compliance.byteLength);
    at.lambda = size;
    size += align(old.lambda.byteLength);
    at.a = size;
    size += align(old.a.byteLength);
    at.b = size;
    size += align(old.b.byteLength);
    // Written after the current layout (whose views may be among the sources), and left there.
    let memory = this.memory;
    let base = this.size;
    if (memory === null || base + size > memory.buffer.byteLength) {
      try {
        memory = new WebAssembly.Memory({ initial: Math.ceil((size * HEADROOM) / PAGE) });
        this.exports = new WebAssembly.Instance(this.module, { env: { memory } }).exports as unknown as KernelExports;
      } catch {
        return false;
      }
      this.memory = memory;
      base = 0;
    }
    const buffer = memory.buffer;
    const floats = (offset: number, length: number) => new Float64Array(buffer, offset, length);
    const ints = (offset: number, length: number) => new Int32Array(buffer, offset, length);
    floats(base + at.position, old.position.length).set(old.position);
    floats(base + at.inverseMass, old.inverseMass.length).set(old.inverseMass);
    floats(base + at.rest, old.rest.length).set(old.rest);
    floats(base + at.stiffness, old.stiffness.length).set(old.stiffness);
    floats(base + at.compliance, old.compliance.length).set(old.compliance);
    floats(base + at.lambda, old.lambda.length).set(old.lambda);
    ints(base + at.a, old.a.length).set(old.a);
    ints(base + at.b, old.b.length).set(old.b);
    this.size = base + size;
    this.position = base + at.position;
    this.inverseMass = base + at.inverseMass;
    this.a = base + at.a;
    this.b = base + at.b;
    this.rest = base + at.rest;
    this.stiffness = base + at.stiffness;
    this.compliance = base + at.compliance;
    this.lambda = base + at.lambda;
    this.params = base + at.params;
    this.paramsView = floats(this.params, 2);
    particles.position = this.positionView = floats(this.position, old.position.length);
    particles.inverseMass = this.inverseMassView = floats(this.inverseMass, old.inverseMass.length);
    sticks.a = this.aView = ints(this.a, old.a.length);
    sticks.b = this.bView = ints(this.b, old.b.length);
    sticks.rest = this.restView = floats(this.rest, old.rest.length);
    sticks.stiffness = this.stiffnessView = floats(this.stiffness, old.stiffness.length);
    sticks.compliance = this.complianceView = floats(this.compliance, old.compliance.length);
    sticks.lambda = this.lambdaView = floats(this.lambda, old.lambda.length);
    return true;
  }

  /** Moves the eight columns back into ordinary arrays (switching to the TypeScript loops) and lets the memory go. */
  release(particles: ParticleStore, sticks: StickTable): void {
    if (particles.position === this.positionView) particles.position = particles.position.slice();
    if (particles.inverseMass === this.inverseMassView) particles.inverseMass = particles.inverseMass.slice();
    if (sticks.a === this.aView) sticks.a = sticks.a.slice();
    if (sticks.b === this.bView) sticks.b = sticks.b.slice();
    if (sticks.rest === this.restView) sticks.rest = sticks.rest.slice();
    if (sticks.stiffness === this.stiffnessView) sticks.stiffness = sticks.stiffness.slice();
    if (sticks.compliance === this.complianceView) sticks.compliance = sticks.compliance.slice();
    if (sticks.lambda === this.lambdaView) sticks.lambda = sticks.lambda.slice();
    this.positionView = this.inverseMassView = this.restView = this.stiffnessView = this.complianceView = this.lambdaView = this.paramsView = null;
    this.aView = this.bView = null;
    this.memory = null;
    this.exports = null;
    this.size = 0;
  }

  /** Hands the kernel the current substep's 1/h² (`sticks.invH2`), which compliant sticks (`soft` 2) scale their compliance by. */
  setSubstep(sticks: StickTable): void {
    this.paramsView![0] = sticks.invH2;
  }

  /**
   * One pass over sticks `[from, to)` of an adopted table, all of kind 'equal';
   * `soft` 0 when all have stiffness 1 and compliance 0, 1 when all have
   * compliance 0, 2 for XPBD with compliance (after {@link setSubstep}). Returns
   * the first stick it left for the general loop (coincident or immovable ends),
   * or `to` (see sticks.wat).
   */
  solve(from: number, to: number, soft: number): number {
    return this.exports!.solve(from, to, soft, this.position, this.inverseMass, this.a, this.b, this.rest, this.stiffness, this.compliance, this.lambda, this.params);
  }
}
