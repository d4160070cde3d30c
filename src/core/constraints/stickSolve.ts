import type { ParticleStore } from '../particles.js';
import type { SeededRandom } from '../random.js';
import type { WasmStickKernel } from '../wasm/stickKernel.js';
import { SegmentLoop, StickKindCode, type StickTable } from './sticks.js';

// The relaxation loops over the stick table (the paper's SatisfyConstraints for
// sticks), apart from the table that holds the rows (sticks.ts): the loop each
// segment takes, the WebAssembly hand-off, and the multipliers' restart per substep.

/** Distances below this count as coincident particles, which get jittered apart. */
const COINCIDENT = 1e-9;

/**
 * Starts a substep for the compliant sticks: XPBD accumulates each constraint's
 * multiplier over the passes of one substep and starts again from zero at the
 * next ("Small Steps in Physics Simulation", Macklin et al. 2019). Zeroes nothing
 * when no stick is compliant, so rigid cloths pay nothing. Also counts the
 * substep ({@link StickTable.substepSerial}) and keeps its 1/h and 1/h², which
 * the compliant user constraints (angles, volumes, planes) read as well.
 */
export function resetMultipliers(sticks: StickTable, substep: { readonly h: number; readonly h2: number }): void {
  sticks.substepSerial++;
  sticks.invH = 1 / substep.h;
  sticks.invH2 = 1 / substep.h2;
  if (sticks.compliant) sticks.lambda.fill(0, 0, sticks.count);
}

/**
 * One pass over stick segment `k` with the fastest loop that segment allows. With
 * a WebAssembly `kernel` (whose memory holds the table and the positions, see
 * {@link WasmStickKernel.adopt}), segments of 'equal' sticks go through it; the
 * general loop (other kinds, the square-root approximation) stays in TypeScript:
 * ropes and other small bodies are where it runs, and they gain little.
 */
export function solveSegment(sticks: StickTable, particles: ParticleStore, k: number, sqrtApprox: boolean, random: SeededRandom, kernel: WasmStickKernel | null): void {
  const from = sticks.segmentStart[k]!;
  const to = sticks.segmentStart[k + 1]!;
  const loop = sqrtApprox ? SegmentLoop.General : sticks.segmentLoop[k]!;
  if (kernel !== null && loop !== SegmentLoop.General) solveWithKernel(kernel, sticks, particles, from, to, loop === SegmentLoop.Rigid ? 0 : loop === SegmentLoop.Equal ? 1 : 2, random);
  else if (loop === SegmentLoop.Rigid) solveRigidSticks(sticks, particles, from, to, random);
  else if (loop === SegmentLoop.Equal) solveEqualSticks(sticks, particles, from, to, random);
  else if (loop === SegmentLoop.Compliant) solveCompliantSticks(sticks, particles, from, to, random);
  else solveSticks(sticks, particles, from, to, sqrtApprox, random);
}

/**
 * {@link solveRigidSticks} (`soft` 0), {@link solveEqualSticks} (`soft` 1) or
 * {@link solveCompliantSticks} (`soft` 2) in WebAssembly. The kernel stops at each stick it cannot do (coincident ends, two
 * immovable ends), which goes to {@link solveSticks} alone, as in those loops.
 */
function solveWithKernel(kernel: WasmStickKernel, sticks: StickTable, particles: ParticleStore, from: number, to: number, soft: number, random: SeededRandom): void {
  if (soft === 2) kernel.setSubstep(sticks);
  for (let s = kernel.solve(from, to, soft); s < to; s = kernel.solve(s + 1, to, soft)) solveSticks(sticks, particles, s, s + 1, false, random);
}

/**
 * {@link solveSticks} for a range of sticks all of kind 'equal' with the exact
 * square root: the loop the cloth spends its time in. Sticks it cannot do
 * (coincident ends, two immovable ends) go to {@link solveSticks} one by one.
 * Measured 20–35% faster than the general loop on the cloth workload.
 */
export function solveEqualSticks(sticks: StickTable, particles: ParticleStore, from: number, to: number, random: SeededRandom): void {
  const pos = particles.position;
  const w = particles.inverseMass;
  const sa = sticks.a;
  const sb = sticks.b;
  const rest = sticks.rest;
  const stiffness = sticks.stiffness;
  for (let s = from; s < to; s++) {
    const ia = sa[s]!;
    const ib = sb[s]!;
    const wa = w[ia]!;
    const wb = w[ib]!;
    const a = ia * 3;
    const b = ib * 3;
    const dx = pos[b]! - pos[a]!;
    const dy = pos[b + 1]! - pos[a + 1]!;
    const dz = pos[b + 2]! - pos[a + 2]!;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const den = d * (wa + wb);
    // One test catches both exceptions: d = 0 (coincident) and Σw = 0 (immovable).
    if (!(den > 0) || d < COINCIDENT) {
      solveSticks(sticks, particles, s, s + 1, false, random);
      continue;
    }
    const f = ((d - rest[s]!) * stiffness[s]!) / den;
    const fa = f * wa;
    const fb = f * wb;
    pos[a] = pos[a]! + dx * fa;
    pos[a + 1] = pos[a + 1]! + dy * fa;
    pos[a + 2] = pos[a + 2]! + dz * fa;
    pos[b] = pos[b]! - dx * fb;
    pos[b + 1] = pos[b + 1]! - dy * fb;
    pos[b + 2] = pos[b + 2]! - dz * fb;
  }
}

/**
 * {@link solveEqualSticks} with XPBD compliance: each stick is a spring of
 * k = 1/α (α = `compliance`, m/N), whatever the substeps and passes (Macklin,
 * Müller, Chentanez 2016, eq. 18 with α̃ = α/h²). Per pass the multiplier grows by
 * Δμ = (C·s − α̃·μ) / (Σw + α̃), C = |d| − r, s the legacy stiffness (1 unless
 * set), and the ends move by Δμ along the stick, shared by inverse mass. With
 * α = 0 this is {@link solveEqualSticks} bit for bit. `lambda` holds μ (zeroed
 * every substep by {@link resetMultipliers}). No constraint damping here: that
 * needs the previous positions and is done by {@link solveSticks}.
 */
export function solveCompliantSticks(sticks: StickTable, particles: ParticleStore, from: number, to: number, random: SeededRandom): void {
  const pos = particles.position;
  const w = particles.inverseMass;
  const sa = sticks.a;
  const sb = sticks.b;
  const rest = sticks.rest;
  const stiffness = sticks.stiffness;
  const compliance = sticks.compliance;
  const lambda = sticks.lambda;
  const invH2 = sticks.invH2;
  for (let s = from; s < to; s++) {
    const ia = sa[s]!;
    const ib = sb[s]!;
    const wa = w[ia]!;
    const wb = w[ib]!;
    const a = ia * 3;
    const b = ib * 3;
    const dx = pos[b]! - pos[a]!;
    const dy = pos[b + 1]! - pos[a + 1]!;
    const dz = pos[b + 2]! - pos[a + 2]!;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const den = d * (wa + wb);
    if (!(den > 0) || d < COINCIDENT) {
      solveSticks(sticks, particles, s, s + 1, false, random);
      continue;
    }
    const at = compliance[s]! * invH2;
    const f = ((d - rest[s]!) * stiffness[s]! - at * lambda[s]!) / (d * (wa + wb + at));
    lambda[s] = lambda[s]! + f * d;
    const fa = f * wa;
    const fb = f * wb;
    pos[a] = pos[a]! + dx * fa;
    pos[a + 1] = pos[a + 1]! + dy * fa;
    pos[a + 2] = pos[a + 2]! + dz * fa;
    pos[b] = pos[b]! - dx * fb;
    pos[b + 1] = pos[b + 1]! - dy * fb;
    pos[b + 2] = pos[b + 2]! - dz * fb;
  }
}

/**
 * {@link solveEqualSticks} for sticks that are also all rigid (stiffness 1): a
 * copy without the stiffness load, which measured 8–10% faster on the cloth.
 */
export function solveRigidSticks(sticks: StickTable, particles: ParticleStore, from: number, to: number, random: SeededRandom): void {
  const pos = particles.position;
  const w = particles.inverseMass;
  const sa = sticks.a;
  const sb = sticks.b;
  const rest = sticks.rest;
  for (let s = from; s < to; s++) {
    const ia = sa[s]!;
    const ib = sb[s]!;
    const wa = w[ia]!;
    const wb = w[ib]!;
    const a = ia * 3;
    const b = ib * 3;
    const dx = pos[b]! - pos[a]!;
    const dy = pos[b + 1]! - pos[a + 1]!;
    const dz = pos[b + 2]! - pos[a + 2]!;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const den = d * (wa + wb);
    if (!(den > 0) || d < COINCIDENT) {
      solveSticks(sticks, particles, s, s + 1, false, random);
      continue;
    }
    const f = (d - rest[s]!) / den;
    const fa = f * wa;
    const fb = f * wb;
    pos[a] = pos[a]! + dx * fa;
    pos[a + 1] = pos[a + 1]! + dy * fa;
    pos[a + 2] = pos[a + 2]! + dz * fa;
    pos[b] = pos[b]! - dx * fb;
    pos[b + 1] = pos[b + 1]! - dy * fb;
    pos[b + 2] = pos[b + 2]! - dz * fb;
  }
}

/**
 * One Gauss–Seidel pass over sticks `[from, to)`: each is projected back to its rest
 * length, the correction shared by inverse mass (paper section 4 with the course
 * notes' mass weighting). `stiffness` repairs only that share of the error (the
 * paper's soft constraints). With `sqrtApprox` the square root is replaced by one
 * Newton–Raphson step around the rest length, as in the paper.
 *
 * A stick with a compliance is solved the XPBD way (see {@link solveCompliantSticks},
 * always with the exact square root), and with a constraint damping c (N·s/m)
 * as in the XPBD paper's eq. 26: γ = α·c/h, Δμ = (C·s − α̃·μ + γ·n·(Δx_b − Δx_a))
 * / ((1 + γ)·Σw + α̃), Δx the motion since the substep began.
 *
 * Written for V8: one division per stick ((|d| - r) / (|d|·Σw) rather than
 * 1 - r/|d| then / Σw), indices read once, no calls on the common path.
 */
export function solveSticks(sticks: StickTable, particles: ParticleStore, from: number, to: number, sqrtApprox: boolean, random: SeededRandom): void {
  const pos = particles.position;
  const w = particles.inverseMass;
  const sa = sticks.a;
  const sb = sticks.b;
  const rest = sticks.rest;
  const stiffness = sticks.stiffness;
  const compliance = sticks.compliance;
  const damping = sticks.damping;
  const lambda = sticks.lambda;
  const prev = particles.previous;
  const invH2 = sticks.invH2;
  const invH = sticks.invH;
  const kind = sticks.kind;
  for (let s = from; s < to; s++) {
    const ia = sa[s]!;
    const ib = sb[s]!;
    const wa = w[ia]!;
    const wb = w[ib]!;
    const wSum = wa + wb;
    if (wSum === 0) continue;
    const a = ia * 3;
    const b = ib * 3;
    let dx = pos[b]! - pos[a]!;
    let dy = pos[b + 1]! - pos[a + 1]!;
    let dz = pos[b + 2]! - pos[a + 2]!;
    let d2 = dx * dx + dy * dy + dz * dz;
    const r = rest[s]!;
    const k = kind[s]!;
    if (k !== StickKindCode.Equal && (k === StickKindCode.Min ? d2 >= r * r : d2 <= r * r)) continue;
    if (d2 < COINCIDENT * COINCIDENT) {
      separate(pos, a, b, random);
      dx = pos[b]! - pos[a]!;
      dy = pos[b + 1]! - pos[a + 1]!;
      dz = pos[b + 2]! - pos[a + 2]!;
      d2 = dx * dx + dy * dy + dz * dz;
    }
    let f: number;
    const c = compliance[s]!;
    if (c !== 0) {
      // Inline rather than a helper: doubles passed to a call V8 does not inline are boxed.
      const d = Math.sqrt(d2);
      const at = c * invH2;
      let num = (d - r) * stiffness[s]! - at * lambda[s]!;
      let wEff = wSum;
      const cd = damping[s]!;
      if (cd !== 0) {
        const gamma = c * cd * invH;
        // Relative motion of the ends along the stick since the substep began.
        const along =
          (dx * (pos[b]! - prev[b]! - pos[a]! + prev[a]!) + dy * (pos[b + 1]! - prev[b + 1]! - pos[a + 1]! + prev[a + 1]!) + dz * (pos[b + 2]! - prev[b + 2]! - pos[a + 2]! + prev[a + 2]!)) / d;
        num += gamma * along;
        wEff = (1 + gamma) * wSum;
      }
      f = num / (d * (wEff + at));
      lambda[s] = lambda[s]! + f * d;
    } else if (sqrtApprox && r > 0) {
      // sqrt(d2) ~ (d2 + r²) / (2r) makes the relative error (|d| - r)/|d| = (d2 - r²)/(d2 + r²).
      const r2 = r * r;
      f = ((d2 - r2) * stiffness[s]!) / ((d2 + r2) * wSum);
    } else {
      const d = Math.sqrt(d2);
      f = ((d - r) * stiffness[s]!) / (d * wSum);
    }
    const fa = f * wa;
    const fb = f * wb;
    pos[a] = pos[a]! + dx * fa;
    pos[a + 1] = pos[a + 1]! + dy * fa;
    pos[a + 2] = pos[a + 2]! + dz * fa;
    pos[b] = pos[b]! - dx * fb;
    pos[b + 1] = pos[b + 1]! - dy * fb;
    pos[b + 2] = pos[b + 2]! - dz * fb;
  }
}

/** Paper section 7: coinciding particles are dislocated slightly at random (seeded). */
function separate(pos: Float64Array, a: number, b: number, random: SeededRandom): void {
  pos[b] = pos[a]! + (random.next() - 0.5) * 1e-6;
  pos[b + 1] = pos[a + 1]! + (random.next() - 0.5) * 1e-6;
  pos[b + 2] = pos[a + 2]! + (random.next() - 0.5) * 1e-6;
}
