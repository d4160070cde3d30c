import { afterAll, bench, describe } from 'vitest';
import { builtEngine, type Engine } from './engine.js';
import { median, protocol } from './protocol.js';

// Issue 14, part 1: what a kinematic collider costs. A 32×32 cloth lying on a
// 2 m × 2 m box: static, kinematic standing still, kinematic moving at 1 m/s
// and kinematic turning at 1 rad/s, timed in turns so that all see the same
// machine. Every particle touches the box, so the difference over the static
// box divided by the particles is the cost per colliding particle and step.
const p = protocol();
const core = await builtEngine();
type World = InstanceType<Engine['World']>;
type Kind = 'static' | 'still' | 'moving' | 'turning';
const kinds: Kind[] = ['static', 'still', 'moving', 'turning'];
const side = 32;

function scene(kind: Kind): { world: World; advance: (frame: number) => void } {
  const world = new core.World();
  const box = { type: 'obb' as const, position: [0, -0.05, 0] as const, halfExtents: [1, 0.05, 1] as const };
  const id = kind === 'static' ? world.addCollider(box) : world.addCollider({ ...box, kinematic: true });
  core.createCloth(world, { width: side, height: side, spacing: 0.05, orientation: 'horizontal', corner: [-0.8, 0.011, -0.8], radius: 0.01 });
  const collider = kind === 'static' ? null : (world.getCollider(id) as InstanceType<Engine['KinematicCollider']>);
  const advance = (frame: number) => {
    if (collider && kind === 'moving') collider.targetPose[0] = 0.3 * Math.sin(frame / 60);
    if (collider && kind === 'turning') {
      collider.targetPose[4] = Math.sin(frame / 120);
      collider.targetPose[6] = Math.cos(frame / 120);
    }
    world.step();
  };
  return { world, advance };
}

function compare(): Record<Kind, number> {
  const samples: Record<Kind, number[]> = { static: [], still: [], moving: [], turning: [] };
  for (let r = 0; r < p.runs; r++) {
    for (const kind of kinds) {
      const { advance } = scene(kind);
      let frame = 0;
      for (let i = 0; i < p.warmup; i++) advance(frame++);
      const start = performance.now();
      for (let i = 0; i < p.steps; i++) advance(frame++);
      samples[kind].push((performance.now() - start) / p.steps);
    }
  }
  return { static: median(samples.static), still: median(samples.still), moving: median(samples.moving), turning: median(samples.turning) };
}

const results = compare();
const particles = side * side;

describe('kinematic collider', () => {
  bench('cloth 32×32 on a kinematic box, moving', () => scene('moving').advance(0), { iterations: 1 });
});

afterAll(() => {
  const perParticle = (kind: Kind) => (((results[kind] - results.static) / particles) * 1e6).toFixed(0);
  console.log(
    `cloth ${side}×${side} lying on a box, ms per step: static ${results.static.toFixed(3)}, kinematic still ${results.still.toFixed(3)}, moving ${results.moving.toFixed(3)}, turning ${results.turning.toFixed(3)}`,
  );
  console.log(`kinematic over static per colliding particle and step (ns): still ${perParticle('still')}, moving ${perParticle('moving')}, turning ${perParticle('turning')}`);
});
