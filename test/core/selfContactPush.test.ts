import { describe, expect, it } from 'vitest';
import { SelfContactList } from '../../src/core/collision/selfContactList.js';
import { SelfContactPush } from '../../src/core/collision/selfContactPush.js';
import { particleSlot, World } from '../../src/core/index.js';

// The odometers behind a pass's skipping (issue 28): a pass looks at a listed pair only once its
// particles have travelled, between them, as far as it was apart when last looked at. That holds
// only if every move after the look reaches the odometers, pushes made earlier in the same pass
// included.

const THICKNESS = 0.02;

describe('self-collision passes skip only pairs that cannot have closed', () => {
  it('a pair looked at after its particle was pushed, then closed by the push undone, is looked at again', () => {
    // Three particles on the x axis, no gravity, no step (so the push-out room is unlimited):
    // i at 0, k 10 mm to its right (inside the thickness), j 35 mm to its right. The pass pushes
    // i 5 mm left, away from k, and then looks at (i, j): 40 mm apart, 20 mm beyond the
    // thickness. Then i is put back where it was and j moved 19 mm left: 16 mm apart, inside the
    // thickness, though i ends where the pass began and j moved less than the 20 mm. The next
    // pass must look at the pair and push it apart; counting only moves from where each pass
    // began, it did not (i's odometer never saw the 5 mm it came back).
    const world = new World({ gravity: [0, 0, 0] });
    const first = world.addParticles([{ position: [0, 0, 0] }, { position: [0.01, 0, 0] }, { position: [0.035, 0, 0] }]);
    const slot = particleSlot(first);
    const [i, k, j] = [slot, slot + 1, slot + 2];
    const list = new SelfContactList(slot, 3);
    const due = new Float64Array(1);
    list.addPair(i, k, due);
    list.addPair(i, j, due);
    const push = new SelfContactPush(list, slot, THICKNESS, Infinity, 3);
    const pos = world.particles.position;
    const x = (p: number) => pos[p * 3]!;
    push.projectPairs(world);
    expect(x(i)).toBeCloseTo(-0.005, 12);
    expect(x(k)).toBeCloseTo(0.015, 12);
    expect(push.examined).toBe(2);
    pos[i * 3] = 0;
    pos[k * 3] = 1;
    pos[j * 3] = 0.016;
    push.projectPairs(world);
    expect(push.touching).toBe(1);
    expect(x(j) - x(i)).toBeCloseTo(THICKNESS, 12);
  });
});
