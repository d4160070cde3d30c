import { afterAll, bench, describe } from 'vitest';
import { clothWorkload } from './clothWorkload.js';
import { median, protocol } from './protocol.js';

// DESIGN.md: Float32 or Float64 storage is decided by measurement. This times the
// solver's rigid-stick loop (solveRigidSticks) on copies of the cloth workload's
// positions, rest lengths and inverse masses in each precision, same stick order.

/** The stick loop over Float64Arrays (as in sticks.ts). */
function pass64(pos: Float64Array, w: Float64Array, sa: Int32Array, sb: Int32Array, rest: Float64Array, n: number): void {
  for (let s = 0; s < n; s++) {
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
    if (!(den > 0)) continue;
    const f = (d - rest[s]!) / den;
    pos[a] = pos[a]! + dx * f * wa;
    pos[a + 1] = pos[a + 1]! + dy * f * wa;
    pos[a + 2] = pos[a + 2]! + dz * f * wa;
    pos[b] = pos[b]! - dx * f * wb;
    pos[b + 1] = pos[b + 1]! - dy * f * wb;
    pos[b + 2] = pos[b + 2]! - dz * f * wb;
  }
}

/** The same loop over Float32Arrays: a separate copy so that each stays monomorphic. */
function pass32(pos: Float32Array, w: Float32Array, sa: Int32Array, sb: Int32Array, rest: Float32Array, n: number): void {
  for (let s = 0; s < n; s++) {
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
    if (!(den > 0)) continue;
    const f = (d - rest[s]!) / den;
    pos[a] = pos[a]! + dx * f * wa;
    pos[a + 1] = pos[a + 1]! + dy * f * wa;
    pos[a + 2] = pos[a + 2]! + dz * f * wa;
    pos[b] = pos[b]! - dx * f * wb;
    pos[b + 1] = pos[b + 1]! - dy * f * wb;
    pos[b + 2] = pos[b + 2]! - dz * f * wb;
  }
}

const p = protocol();
const sizes = [64, 128];
const results = new Map<number, { f32: number; f64: number }>();
for (const n of sizes) {
  const world = clothWorkload(n);
  for (let i = 0; i < 30; i++) world.step(); // ordered, and mid-swing
  const count = world.sticks.count;
  const sa = world.sticks.a.slice(0, count);
  const sb = world.sticks.b.slice(0, count);
  const time = (pass: () => void) => {
    const samples: number[] = [];
    for (let r = 0; r < p.runs; r++) {
      for (let i = 0; i < p.warmup; i++) pass();
      const start = performance.now();
      for (let i = 0; i < p.steps; i++) pass();
      samples.push((performance.now() - start) / p.steps);
    }
    return median(samples);
  };
  const pos64 = world.positions.slice(0, n * n * 3);
  const w64 = world.particles.inverseMass.slice(0, n * n);
  const rest64 = world.sticks.rest.slice(0, count);
  const pos32 = Float32Array.from(pos64);
  const w32 = Float32Array.from(w64);
  const rest32 = Float32Array.from(rest64);
  // Ten passes per sample, as in one step of the workload.
  const f64 = time(() => {
    for (let k = 0; k < 10; k++) pass64(pos64, w64, sa, sb, rest64, count);
  });
  const f32 = time(() => {
    for (let k = 0; k < 10; k++) pass32(pos32, w32, sa, sb, rest32, count);
  });
  results.set(n, { f32, f64 });
}

afterAll(() => {
  const lines = [
    'stick loop, 10 passes, ms (coloured order): | N | Float64Array | Float32Array | f32 / f64 |',
    ...sizes.map((n) => {
      const r = results.get(n)!;
      return `| ${n} | ${r.f64.toFixed(2)} | ${r.f32.toFixed(2)} | ${(r.f32 / r.f64).toFixed(2)} |`;
    }),
  ];
  console.log(lines.join('\n'));
});

describe('stick loop precision', () => {
  bench('noop', () => {}, { time: 10 });
});
