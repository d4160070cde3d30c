import { describe, expect, it } from 'vitest';
import { createBox, createCloth, World, type StickKernel } from '../../src/core/index.js';
import { hammock } from '../support/loadedScenes.js';

// A snapshot carries what the long-range attachments (`Tethers`) learn while stepping: the lengths
// they were measured at (never shorter than the particle was from its anchor then) and shortened to
// since, and the pins they rest for while those are dragged. Restored, a tethered run repeats bit for
// bit; measured again instead, the hammock's sagging particles would get longer tethers and the
// dragged cloth's would pull again, and both runs part (each check fails without the tethers' part).

const kernels: StickKernel[] = ['wasm', 'js'];

/** Steps `world` `steps` times (calling `each` before every step) and returns its positions and previous positions. */
function run(world: World, steps: number, each: (s: number) => void = () => {}): Float64Array[] {
  for (let s = 0; s < steps; s++) {
    each(s);
    world.step();
  }
  const end = world.particles.end * 3;
  return [world.particles.position.slice(0, end), world.particles.previous.slice(0, end)];
}

/** Runs on from a snapshot twice, restoring it in between, and expects the same state bit for bit. */
function expectRepeats(world: World, steps: number, each?: (s: number) => void): void {
  const snap = world.snapshot();
  const [position, previous] = run(world, steps, each);
  world.restore(snap);
  const [again, againPrevious] = run(world, steps, each);
  expect(again).toEqual(position);
  expect(againPrevious).toEqual(previous);
}

describe.each(kernels)('a snapshot of tethered bodies (%s sticks)', (kernel) => {
  it('repeats a 32 kg box landing in a hammock bit for bit', () => {
    const { world } = hammock({ kernel });
    createBox(world, { size: 0.4, position: [0, 2.2, 0] });
    run(world, 40);
    expect(world.tethers.count).toBeGreaterThan(0);
    expectRepeats(world, 60);
  });

  it('keeps the tethers of a dragged pin resting', () => {
    const world = new World({ kernel });
    const cloth = createCloth(world, { width: 12, height: 12, spacing: 0.05, corner: [0, 2, 0], pin: 'top-corners' });
    const pin = cloth.pins[0]!;
    const start = world.getPosition(cloth.first);
    const drag = (s: number) => world.setPinTarget(pin, [start[0] - 0.02 * s, start[1] + 0.01 * s, start[2]]);
    run(world, 20, drag);
    expect(Array.from(world.tethers.paused.subarray(0, world.tethers.slotCount))).toContain(1);
    expectRepeats(world, 60, (s) => drag(20 + s));
  });
});
