import { createRef } from 'react';
import type { Attractor as CoreAttractor } from '../../src/core/forces/attractor.js';
import type { WindHandle } from '../../src/core/forces/wind.js';
import { Attractor } from '../../src/react/components/Attractor.js';
import { Cloth } from '../../src/react/components/Cloth.js';
import { Gravity } from '../../src/react/components/Gravity.js';
import { Particle } from '../../src/react/components/Particle.js';
import { Wind } from '../../src/react/components/Wind.js';
import type { ClothApi } from '../../src/react/hooks/useCloth.js';
import type { ParticleHandle } from '../../src/react/hooks/useParticle.js';
import { World } from '../../src/react/World.js';
import { expectRenderError, mountWorld } from './helpers.js';

function meanZ(m: { world: { positions: Float64Array } }, cloth: ClothApi): number {
  let z = 0;
  for (let i = cloth.first; i < cloth.first + cloth.count; i++) z += m.world.positions[i * 3 + 2]!;
  return z / cloth.count;
}

describe('force components', () => {
  it('<Wind> blows cloth along its velocity and changes in place', async () => {
    const flag = createRef<ClothApi>();
    const still = createRef<ClothApi>();
    const wind = createRef<WindHandle>();
    const scene = (vz: number) => (
      <>
        <Cloth ref={flag} name="flag" width={6} height={6} corner={[0, 2, 0]} pin="top" particleMass={0.02} />
        <Cloth ref={still} name="still" width={6} height={6} corner={[3, 2, 0]} pin="top" particleMass={0.02} />
        <Wind ref={wind} velocity={[0, 0, vz]} bodies={['flag']} />
      </>
    );
    const m = await mountWorld(scene(5));
    await m.frames(30);
    expect(meanZ(m, flag.current!)).toBeGreaterThan(0.01);
    // Only the named body is blown on.
    expect(Math.abs(meanZ(m, still.current!))).toBeLessThan(1e-9);

    const core = wind.current!;
    await m.update(scene(-5));
    expect(wind.current).toBe(core);
    expect(core.velocity).toEqual([0, 0, -5]);
    expect(m.world.forces).toHaveLength(1);
    const z = meanZ(m, flag.current!);
    await m.frames(60);
    expect(meanZ(m, flag.current!)).toBeLessThan(z);
    await m.update(null);
    expect(m.world.forces).toHaveLength(0);
    await m.unmount();
  });

  it('<Gravity> overrides the world gravity while mounted and restores it after', async () => {
    const m = await mountWorld(<Gravity value={[0, -1.62, 0]} />, { gravity: [0, -9.81, 0] });
    expect(m.world.gravity).toEqual([0, -1.62, 0]);
    await m.update(<Gravity value={[1, 0, 0]} />);
    expect(m.world.gravity).toEqual([1, 0, 0]);
    await m.update(null);
    expect(m.world.gravity).toEqual([0, -9.81, 0]);
    await m.unmount();
  });

  it('<Attractor> pulls particles towards its point, with live props', async () => {
    const p = createRef<ParticleHandle>();
    const attractor = createRef<CoreAttractor>();
    const scene = (x: number, strength: number) => (
      <>
        <Particle ref={p} position={[0, 0, 0]} />
        <Attractor ref={attractor} position={[x, 0, 0]} strength={strength} />
      </>
    );
    const m = await mountWorld(scene(1, 4), { gravity: [0, 0, 0] });
    await m.frames(20);
    // Without a radius the pull is a constant acceleration `strength` towards the point: v = 4 · 20/60.
    expect(p.current!.velocity()[0]).toBeCloseTo(4 / 3, 9);
    const core = attractor.current!;
    await m.update(scene(-10, 20));
    expect(attractor.current).toBe(core);
    expect(core.position).toEqual([-10, 0, 0]);
    expect(core.strength).toBe(20);
    await m.frames(30);
    // The new strength, the other way: 4/3 − 20 · 30/60.
    expect(p.current!.velocity()[0]).toBeCloseTo(-26 / 3, 9);
    await m.unmount();
    expect(m.world.forces).toHaveLength(0);
  });

  it('reject bad props naming the component and the prop', async () => {
    await expectRenderError(
      <World>
        <Wind velocity={[0, 0, 1]} gust={-1} />
      </World>,
      '<Wind>: gust must be a finite number in [0, Infinity], got -1',
    );
    await expectRenderError(
      <World>
        <Wind velocity={[0, 0, 1]} bodies={['nobody']} />
      </World>,
      '<Wind>: bodies names no body "nobody" in this <World>',
    );
    await expectRenderError(
      <World>
        <Attractor position={[0, 0, 0]} strength={1} radius={0} />
      </World>,
      '<Attractor>: radius must be > 0, got 0',
    );
    await expectRenderError(<Gravity value={[0, -1, 0]} />, '<Gravity> must be inside a <World>');
  });
});
