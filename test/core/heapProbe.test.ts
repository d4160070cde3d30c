import { describe, expect, it } from 'vitest';
import { leastAllocation, leastRetained } from '../support/heap.js';

// The heap tests are only as good as the probe: it must see the allocations they look for.
describe('the heap probe', () => {
  const sink: unknown[] = [null];
  const numbers = new Float64Array(3);

  it('sees one small object per call, in every run', () => {
    const allocating = () => {
      for (let i = 0; i < 10_000; i++) sink[0] = [i, i + 1, i + 2];
    };
    allocating();
    // Three doubles in an array: a header and a backing store, well over 32 bytes each time.
    expect(leastAllocation(allocating)).toBeGreaterThan(10_000 * 32);
  });

  it('sees a boxed double per call', () => {
    const boxing = () => {
      for (let i = 0; i < 10_000; i++) sink[0] = i + 0.5;
    };
    boxing();
    expect(leastAllocation(boxing)).toBeGreaterThan(10_000 * 12);
  });

  it('reads close to zero for a loop that writes into a typed array', () => {
    const quiet = () => {
      for (let i = 0; i < 10_000; i++) {
        numbers[i % 3] = numbers[(i + 1) % 3]! * 0.5 + i;
      }
    };
    for (let i = 0; i < 50; i++) quiet();
    expect(leastAllocation(quiet)).toBeLessThan(16 * 1024);
  });

  it('keeps what a leak keeps, and not what a run throws away', async () => {
    const kept: number[][] = [];
    // Large enough to stand clear of what collections themselves free or keep
    // (V8 flushes unused bytecode every few collections: a run can read negative).
    expect(
      await leastRetained(() => {
        for (let i = 0; i < 100_000; i++) kept.push([i, i]);
      }),
    ).toBeGreaterThan(100_000 * 32);
    expect(
      await leastRetained(() => {
        for (let i = 0; i < 100_000; i++) sink[0] = [i, i];
      }),
    ).toBeLessThan(256 * 1024);
  });

  it('refuses a run that allocates more than the young generation holds', () => {
    expect(() =>
      leastAllocation(() => {
        for (let i = 0; i < 1_000_000; i++) sink[0] = [i, i, i];
      }, 1),
    ).toThrow(/collection\(s\) ran during the measured run/);
  });
});
