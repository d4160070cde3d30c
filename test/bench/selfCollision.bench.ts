import { afterAll, bench, describe } from 'vitest';
import { builtEngine, type Engine } from './engine.js';
import { msPerStep, protocol } from './protocol.js';

// Issue 10, part 3: what cloth self-collision costs. A 64 × 64 cloth of spacing 0.05
// (sinew's defaults, 10 substeps × 1 pass), with and without `enableSelfCollision`
// at thickness 0.02, timed in the same run with the yardstick's protocol. Two scenes:
// hanging from its top corners (sagging, few self-contacts), and dropped onto a ball,
// where it wraps, folds and lies on itself (many). Goal: with / without <= 2.
const p = protocol();
const core = await builtEngine();
type Scene = 'hanging' | 'draped';
const scenes: Scene[] = ['hanging', 'draped'];

function clothScene(engine: Engine, scene: Scene, selfCollide: boolean): InstanceType<Engine['World']> {
  const world = new engine.World();
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth =
    scene === 'hanging'
      ? engine.createCloth(world, { width: 64, height: 64, spacing: 0.05, origin: [-1.575, 3.3, 0], pin: 'top-corners' })
      : engine.createCloth(world, { width: 64, height: 64, spacing: 0.05, origin: [-1.575, 1.2, -1.575], orientation: 'horizontal' });
  if (scene === 'draped') world.addCollider({ type: 'sphere', center: [0.1, 0.5, 0.1], radius: 0.5 });
  if (selfCollide) engine.enableSelfCollision(world, cloth.body, { thickness: 0.02 });
  // Into the interesting part: the hanging cloth swinging, the draped one folding over the ball.
  for (let i = 0; i < 60; i++) world.step();
  return world;
}

const times = new Map(
  scenes.map((scene) => [
    scene,
    [false, true].map((on) =>
      msPerStep(
        () => clothScene(core, scene, on),
        (world) => world.step(),
        p,
      ),
    ),
  ]),
);

afterAll(() => {
  const fmt = (x: number) => x.toFixed(2);
  console.log(
    [
      `cloth self-collision, 64 × 64, spacing 0.05, thickness 0.02, ${p.runs} runs × (${p.warmup} + ${p.steps}) steps after 1 s, median ms per step`,
      '| scene | without | with self-collision | with / without |',
      '| --- | --- | --- | --- |',
      ...scenes.map((scene) => {
        const [off, on] = times.get(scene)!;
        return `| ${scene} | ${fmt(off!)} | ${fmt(on!)} | ${fmt(on! / off!)} |`;
      }),
      'goal: with / without <= 2',
    ].join('\n'),
  );
});

describe('cloth 64×64 self-collision', () => {
  const world = clothScene(core, 'draped', true);
  bench('step, draped, self-collision on', () => world.step(), { time: 500, warmupIterations: 10 });
});
