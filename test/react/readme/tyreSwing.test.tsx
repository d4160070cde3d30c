import { Rope, useRope } from 'sinew-physics';
import { expectAtRest, expectFinite, expectStickLength, mountHook, mountWorld } from 'sinew-physics/testing';
import { describe, expect, it } from 'vitest';

/** A tyre swing: a rope from a branch, with a heavy tyre at its end. */
function TyreSwing({ branch = 2 }: { branch?: number }) {
  return <Rope name="swing" from={[0, branch, 0]} to={[1, branch, 0]} segments={10} pinStart mass={5.5} />;
}

describe('<TyreSwing>', () => {
  it('swings down from where it was let go and comes to rest under the branch', async () => {
    const scene = await mountWorld(<TyreSwing />, { damping: 2, strict: true });
    await scene.seconds(0.4);
    expect(scene.position('swing.end')[1]).toBeLessThan(1.5);

    await scene.seconds(10);
    expectAtRest(scene, 'swing.end');
    const [x, y] = scene.position('swing.end');
    expect(x).toBeCloseTo(0, 2); // straight under the branch
    expect(y).toBeCloseTo(1, 2); // a 1 m rope
    expectStickLength(scene, 'swing.9', 'swing.end'); // within 1% of its rest length
    expectFinite(scene);
    expect(await scene.unmount()).toEqual([]); // nothing left registered
  });

  it('useRope gives a handle that follows the rope', async () => {
    const hook = await mountHook(() => useRope({ name: 'swing', from: [0, 2, 0], to: [1, 2, 0], segments: 10, pinStart: true }));
    expect(hook.result.current.count).toBe(11);
    await hook.seconds(1);
    expect(hook.result.current.currentLength()).toBeCloseTo(1, 2);
    expect(() => hook.position('swing.tyre')).toThrow('body "swing" (a rope of 11 particles) has no particle "tyre"');
  });
});
