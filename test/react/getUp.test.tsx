import { describe, expect, it } from 'vitest';
import { createBox } from '../../src/core/bodies/rigid.js';
import { GetUpBlend, smoothstep } from '../../src/three/getUpBlend.js';
import { leastAllocation } from '../support/heap.js';
import { measureGetUp, type GetUpCase, type GetUpMeasure } from '../support/getUp.js';
import { walker, type Walker } from '../support/walker.js';

// Issue 29, item 2: a get-up blends the pose from where the body lies to the animation along a smoothstep,
// so no part moves faster than its animated place plus 1.5 × the distance to cover / T, which is within the
// animation's fastest part plus g·T here, and the animation takes over without a jump.

const G = 9.81;

/**
 * What the get-up must do, whatever the rig, the hit and the duration:
 * - no particle faster than the animation's fastest part plus g·T (what gravity gives a part in the
 *   blend), with 0.05 m/s for the frame-sampled speeds, and none faster than its animated place plus
 *   1.5 × the distance its ease covers / T (the smoothstep's bound, which frame averages keep too);
 * - the body exactly on the animation when the blend ends, the ragdoll inactive again;
 * - no jump at the hand-over: over the blend's last three frames each particle, joint and bone moves
 *   less apart from its animated move than in the frame before (the ease slows to a stop), and after
 *   it nothing moves apart from the animation at all.
 */
function expectSmoothGetUp(m: GetUpMeasure, c: GetUpCase): void {
  const what = `${c.rig}, ${c.hit[0]} hit, ${c.seconds} s`;
  expect(m.fastest, `${what}: fastest (${m.fastestPart}) against the animation's fastest + g·T`).toBeLessThanOrEqual(m.animationFastest + G * c.seconds + 0.05);
  expect(m.overEase, `${what}: speed beyond the ease's bound`).toBeLessThan(1e-3);
  expect(m.endOff, `${what}: off the animation at the end`).toBeLessThan(1e-9);
  expect(m.endedInactive && !m.gettingUpAtEnd, `${what}: handed over`).toBe(true);
  for (const key of ['particles', 'bones', 'turns'] as const) {
    const moves = m.endFrames.map((f) => f[key]);
    for (let k = 1; k < 3; k++) expect(moves[k], `${what}: ${key} in frame ${k} of the end (${moves.join(', ')})`).toBeLessThan(moves[k - 1]!);
    expect(Math.max(moves[3]!, moves[4]!), `${what}: ${key} after the hand-over`).toBeLessThan(1e-6);
  }
}

/** A walker knocked onto its back, left lying 1.5 s, then half a second into a 1 s get-up. */
function halfwayUp(): Walker {
  const w = walker({}, 0);
  for (let i = 0; i < 20; i++) w.frame();
  w.character.hit('chest', [0, 0, -1], 0.01);
  for (let i = 0; i < 90; i++) w.frame();
  w.character.getUp(1);
  for (let i = 0; i < 30; i++) w.frame();
  return w;
}

describe('getUp', () => {
  it('eases along a smoothstep: 0 and 1 at the ends with no slope, 1.5 at its steepest, and a 1 s blend ends on its 60th step of 1/60 s', () => {
    expect([smoothstep(-1), smoothstep(0), smoothstep(0.5), smoothstep(1), smoothstep(2)]).toEqual([0, 0, 0.5, 1, 1]);
    const h = 1e-6;
    expect((smoothstep(0.5 + h) - smoothstep(0.5 - h)) / (2 * h)).toBeCloseTo(1.5, 6);
    expect(smoothstep(h) / h).toBeLessThan(1e-5);
    expect((1 - smoothstep(1 - h)) / h).toBeLessThan(1e-5);
    const blend = new GetUpBlend(1);
    blend.start(new Float64Array([0, 0, 0]), 0, 1);
    const target = new Float64Array(3);
    let steps = 0;
    while (!blend.advance(1 / 60)) steps++;
    expect(steps + 1).toBe(60);
    // At the end the target is the animated place itself, not a sum that rounds near it.
    target.set([0.1, 0.2, 0.3]);
    blend.blendTarget(target, 0, 0);
    expect([...target]).toEqual([0.1, 0.2, 0.3]);
  });

  // Three hits and three durations on each rig: knocked onto its back, onto its front, spun by the shoulder.
  const cases: GetUpCase[] = [
    { rig: 'humanoid', hit: ['chest', [0, 0, 1], 0.01], lie: 2, seconds: 0.5 },
    { rig: 'humanoid', hit: ['chest', [0, 0, -1], 0.01], lie: 2, seconds: 1 },
    { rig: 'humanoid', hit: ['leftShoulder', [1, 0, 0.3], 0.015], lie: 2, seconds: 2 },
    { rig: 'unreal', hit: ['chest', [0, 0, 1], 0.01], lie: 2, seconds: 0.5 },
    { rig: 'unreal', hit: ['leftShoulder', [1, 0, 0.3], 0.015], lie: 2, seconds: 1 },
    { rig: 'unreal', hit: ['chest', [0, 0, -1], 0.01], lie: 2, seconds: 2 },
    // Begun while it still falls: the blend starts from where the body is.
    { rig: 'humanoid', hit: ['chest', [0, 0, -1], 0.01], lie: 0.25, seconds: 1 },
  ];

  it('blends from where the body lies to the animation, on the test humanoid and an Unreal-named rig in an A pose, after three hits, over 0.5, 1 and 2 s', () => {
    const measured = cases.map((c) => measureGetUp(c));
    cases.forEach((c, i) => expectSmoothGetUp(measured[i]!, c));
    // Measured: the bodies lie 1.5–2.5 m from their animated poses. Over 0.5 s the fastest part moves at
    // 7.4 m/s on either rig (the humanoid's head: its walk's fastest part 3.7 m/s, the bound 8.6 m/s; the
    // stiffness ramp this replaces whipped it to 13.1 m/s), over 1 and 2 s at 3.5–4.8 m/s, about the walks'
    // own fastest feet (5.1–6.5 m/s with the ramp). With the ramp a bone turned up to 63° (the Unreal rig's
    // forearm) in the frame the animation took over; now the turns fall to 0 over the blend's last frames.
    expect(Math.min(...measured.slice(0, 6).map((m) => m.farthest))).toBeGreaterThan(1.4);
  });

  it('is the same on both stick kernels, bit for bit', () => {
    const c: GetUpCase = { rig: 'unreal', hit: ['chest', [0, 0, -1], 0.01], lie: 1, seconds: 0.5 };
    const wasm = measureGetUp({ ...c, kernel: 'wasm' });
    const js = measureGetUp({ ...c, kernel: 'js' });
    expectSmoothGetUp(js, c);
    expect(js).toEqual(wasm);
  });

  it('is the same in reused particle slots as in a fresh world, bit for bit', () => {
    const c: GetUpCase = { rig: 'unreal', hit: ['chest', [0, 0, -1], 0.01], lie: 1, seconds: 0.5 };
    const reused = measureGetUp({ ...c, reusedSlots: true });
    expectSmoothGetUp(reused, c);
    expect(reused).toEqual(measureGetUp(c));
  });

  it('ends when hit or activated: the body is physical again and falls', () => {
    for (const stop of ['hit', 'activate'] as const) {
      const w = halfwayUp();
      const head = () => w.world.getPosition(w.character.ragdoll.part('head'))[1];
      // Halfway up (the smoothstep's weight 1/2): the head between the floor and its standing height.
      expect(head()).toBeGreaterThan(0.6);
      if (stop === 'hit') w.character.hit('chest', [0, 0, 1], 0.01);
      else w.character.activate();
      expect(w.character.gettingUp).toBe(false);
      expect(w.character.active).toBe(true);
      for (let i = 0; i < 90; i++) w.frame();
      expect(head(), stop).toBeLessThan(0.5);
    }
  });

  it('ends when a body strikes it: a crate thrown at it halfway up meets a ragdoll, not a kinematic wall', () => {
    const w = halfwayUp();
    // 12 kg, 30 cm, 1.2 m in front of the chest, flying at it at 9 m/s (as animatedRagdoll.test.tsx throws it).
    const chest = w.world.getPosition(w.character.ragdoll.part('chest'));
    createBox(w.world, { size: 0.3, mass: 12, position: [chest[0], chest[1], chest[2] + 1.2], velocity: [0, 0, -9] });
    let struckAt = -1;
    for (let i = 0; i < 20 && struckAt < 0; i++) {
      w.frame();
      if (!w.character.gettingUp) struckAt = i;
    }
    // The crate needs about 8 frames to arrive; the ragdoll is physical again, not handed back to the animation.
    expect(struckAt).toBeGreaterThanOrEqual(0);
    expect(struckAt).toBeLessThan(10);
    expect(w.character.active).toBe(true);
  });

  it('allocates nothing per frame while getting up', () => {
    const w = walker({}, 0);
    w.character.activate();
    w.character.getUp(1000);
    // As in the allocation test of animatedRagdoll.test.tsx: the character's calls and a step.
    const frame = () => {
      w.character.follow(1 / 60);
      w.world.step();
      w.character.pose();
    };
    for (let i = 0; i < 5000; i++) frame();
    // Any object per frame (a Vector3 is 56 bytes) would be over 160 kB.
    expect(
      leastAllocation(() => {
        for (let i = 0; i < 3000; i++) frame();
      }),
    ).toBeLessThan(16 * 1024);
    expect(w.character.gettingUp).toBe(true);
  }, 60_000);
});
