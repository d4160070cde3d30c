import { createBox, type StickKernel } from '../../src/core/index.js';
import { clothWithBoxes, hammock, heavyChain, meanHeight, ragdollInHammock, ropeLength, ropeWithBox, speed, strain, structuralPairs, weightedRope } from '../support/loadedScenes.js';

// Light things carrying heavy things, every option at its default (issue 25): the numbers the issue
// names, on both stick kernels. Long-range attachments (`Tethers`) carry the loads to the anchors.
const kernels: StickKernel[] = ['wasm', 'js'];

describe.each(kernels)('loads on light bodies (%s sticks)', (kernel) => {
  it('an empty hammock holds its shape: its middle settles within a second and never moves more than 5 cm', () => {
    const { world, middle } = hammock({ kernel });
    expect(world.kernel).toBe(kernel);
    let low = Infinity;
    let high = -Infinity;
    let lowLate = Infinity;
    let highLate = -Infinity;
    for (let s = 0; s < 300; s++) {
      world.step();
      const y = meanHeight(world, middle);
      low = Math.min(low, y);
      high = Math.max(high, y);
      if (s >= 60) {
        lowLate = Math.min(lowLate, y);
        highLate = Math.max(highLate, y);
      }
    }
    // Measured: 1.469–1.500 m over five seconds, 1.469–1.484 m after the first.
    expect(high - low).toBeLessThan(0.05);
    expect(highLate - lowLate).toBeLessThan(0.02);
  });

  it('a 32 kg box in the hammock sags it less than 0.5 m, its sticks at most 3% long on average and 10% at worst, and comes to rest', () => {
    const { world, cloth } = hammock({ kernel });
    const box = createBox(world, { size: 0.4, position: [0, 2.2, 0] });
    expect(box.update().mass).toBeCloseTo(32, 6);
    const pairs = structuralPairs(cloth);
    let mean = 0;
    let worst = 0;
    let lowest = Infinity;
    let late = 0;
    for (let s = 0; s < 300; s++) {
      world.step();
      const e = strain(world, pairs, 0.1);
      mean = Math.max(mean, e.mean);
      worst = Math.max(worst, e.max);
      const t = box.update();
      lowest = Math.min(lowest, t.position[1] - 0.2);
      if (s >= 240) late = Math.max(late, Math.hypot(...t.velocity));
    }
    // Measured: its bottom at most 2 cm below the pins, sticks 0.0% / 0.1% long, still in the fifth second.
    expect(1.5 - lowest).toBeLessThan(0.5);
    expect(mean).toBeLessThan(0.03);
    expect(worst).toBeLessThan(0.1);
    expect(late).toBeLessThan(0.1);
  });

  it('a default ragdoll dropped into the hammock stays on it, its chest above 0.8 m and still in the fifth second', () => {
    const { world, ragdoll } = ragdollInHammock({ kernel });
    let lowest = Infinity;
    let late = 0;
    for (let s = 0; s < 300; s++) {
      world.step();
      lowest = Math.min(lowest, world.positions[ragdoll.parts.chest * 3 + 1]!);
      if (s >= 240) late = Math.max(late, speed(world, ragdoll.parts.chest));
    }
    // Measured: its chest 1.58 m up at the lowest, 2–4 cm/s in the fifth second.
    expect(lowest).toBeGreaterThan(0.8);
    expect(late).toBeLessThan(0.1);
  });

  it('a 13.5 kg weight on a 0.2 kg rope stretches it at most 2% and hangs still from the third second', () => {
    const { world, rope, weight } = weightedRope({ kernel });
    let longest = 0;
    let late = 0;
    for (let s = 0; s < 300; s++) {
      world.step();
      longest = Math.max(longest, ropeLength(world, rope));
      if (s >= 120) late = Math.max(late, speed(world, weight));
    }
    expect(longest).toBeLessThan(2 * 1.02);
    expect(late).toBeLessThan(0.05);
  });

  it('a 13.5 kg box tied by a corner to the rope, falling and swinging, stretches it at most 2% at any moment', () => {
    const { world, rope, box } = ropeWithBox({ kernel });
    expect(box.update().mass).toBeCloseTo(13.5, 6);
    let longest = 0;
    for (let s = 0; s < 300; s++) {
      world.step();
      longest = Math.max(longest, ropeLength(world, rope));
    }
    // Measured: 2.003 m at the longest (3.43 m without long-range attachments).
    expect(longest).toBeLessThan(2 * 1.02);
  });

  it('a chain of ten 10 g links holding 10 kg (1000:1) is at most 1% long', () => {
    const { world, weight } = heavyChain({ kernel });
    let longest = 0;
    for (let s = 0; s < 300; s++) {
      world.step();
      longest = Math.max(longest, 3 - world.positions[weight * 3 + 1]!);
    }
    expect(longest).toBeLessThan(1.01);
  });

  // Asked of 20,000 steps: measured 11.1% at the worst, at step 49 as a box lands, and never more over the
  // 20,000 (100 s on one kernel here). CI runs 2,000 on one kernel and 600 on the other, through the boxes'
  // landing and the cloth settling on them.
  it('a 64 × 64 cloth with four boxes dropped around it has no structural stick over 25% long at any step', () => {
    const { world, cloth } = clothWithBoxes({ kernel });
    const pairs = structuralPairs(cloth);
    let worst = 0;
    const steps = kernel === 'wasm' ? 2_000 : 600;
    for (let s = 0; s < steps; s++) {
      world.step();
      worst = Math.max(worst, strain(world, pairs, 0.05).max);
    }
    // Measured: 11.1% at the worst (427% without long-range attachments).
    expect(worst).toBeLessThan(0.25);
  }, 300_000);
});
