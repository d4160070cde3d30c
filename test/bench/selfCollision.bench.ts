import { afterAll, bench, describe } from 'vitest';
import { builtEngine, type Engine } from './engine.js';
import { median, protocol, timed } from './protocol.js';

// Issue 10, part 3: what cloth self-collision costs. A 64 × 64 cloth of spacing 0.05
// (sinew's defaults, 10 substeps × 1 pass), with and without `enableSelfCollision`
// at thickness 0.02, timed in the same run with the yardstick's protocol. Two scenes:
// hanging from its top corners (sagging, few self-contacts), and dropped onto a ball,
// where it wraps, folds and lies on itself (many). Goal: with / without <= 2.
const p = protocol();
const core = await builtEngine();
type Scene = 'hanging' | 'draped';
const scenes: Scene[] = ['hanging', 'draped'];

function clothScene(engine: Engine, scene: Scene, selfCollide: boolean, settle = 60): InstanceType<Engine['World']> {
  const world = new engine.World();
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth =
    scene === 'hanging'
      ? engine.createCloth(world, { width: 64, height: 64, spacing: 0.05, corner: [-1.575, 3.3, 0], pin: 'top-corners' })
      : engine.createCloth(world, { width: 64, height: 64, spacing: 0.05, corner: [-1.575, 1.2, -1.575], orientation: 'horizontal' });
  if (scene === 'draped') world.addCollider({ type: 'sphere', position: [0.1, 0.5, 0.1], radius: 0.5 });
  if (selfCollide) engine.enableSelfCollision(world, cloth.body, { thickness: 0.02 });
  // Into the interesting part: the hanging cloth swinging, the draped one folding over the ball.
  for (let i = 0; i < settle; i++) world.step();
  return world;
}

// The runs alternate without / with, scene by scene, so that a change in the
// machine's load falls on both: timed one after the other, a busy moment during
// the runs without once showed the draped ratio as 1.92× instead of 3.7×.
const samples = new Map(scenes.map((scene) => [scene, [false, true].map(() => ({ wall: [] as number[], cpu: [] as number[] }))]));
for (let r = 0; r < p.runs; r++) {
  for (const scene of scenes) {
    [false, true].forEach((on, k) => {
      const t = timed(
        () => clothScene(core, scene, on),
        (world) => world.step(),
        { ...p, runs: 1 },
      );
      samples.get(scene)![k]!.wall.push(t.wall);
      samples.get(scene)![k]!.cpu.push(t.cpu);
    });
  }
}

// The drop itself: the first 60 steps of the draped scene, when the cloth wraps
// round the ball and every particle's search skin grows with its motion. Its
// slowest step, the hitch a user sees. (Before the triangle grid's cells grew with
// the queries, one step took 1.1–2.3 s.)
const dropping = [false, true].map(() => [] as number[]);
for (let r = 0; r < p.runs; r++) {
  [false, true].forEach((on, k) => {
    const world = clothScene(core, 'draped', on, 1);
    let slowest = 0;
    for (let i = 1; i < 60; i++) {
      const start = performance.now();
      world.step();
      slowest = Math.max(slowest, performance.now() - start);
    }
    dropping[k]!.push(slowest);
  });
}

// Dragging: the draped cloth, settled (300 steps), one corner pinned and dragged round a
// 5 cm circle over two seconds, as a user grabbing it would: the particles about the corner
// keep outgrowing their search allowance. Mean ms per step over the 120 steps of the drag.
const dragging = [false, true].map(() => [] as number[]);
for (let r = 0; r < p.runs; r++) {
  [false, true].forEach((on, k) => {
    const world = clothScene(core, 'draped', on, 300);
    const corner = world.bodies[0]!.first;
    const [x0, y0, z0] = world.getPosition(corner);
    const pin = world.addPin(corner);
    const start = performance.now();
    for (let i = 0; i < 120; i++) {
      const a = (2 * Math.PI * i) / 120;
      world.setPinTarget(pin, [x0 + 0.05 * (Math.cos(a) - 1), y0 + 0.05 * Math.min(1, i / 30), z0 + 0.05 * Math.sin(a)]);
      world.step();
    }
    dragging[k]!.push((performance.now() - start) / 120);
  });
}

afterAll(() => {
  const fmt = (x: number) => x.toFixed(2);
  console.log(
    [
      `cloth self-collision, 64 × 64, spacing 0.05, thickness 0.02, ${p.runs} runs × (${p.warmup} + ${p.steps}) steps after 1 s, without and with in turns, median ms per step`,
      '| scene | without | with self-collision | with / without | with / without, CPU time |',
      '| --- | --- | --- | --- | --- |',
      ...scenes.map((scene) => {
        const [off, on] = samples.get(scene)!;
        const wall = [median(off!.wall), median(on!.wall)];
        return `| ${scene} | ${fmt(wall[0]!)} | ${fmt(wall[1]!)} | ${fmt(wall[1]! / wall[0]!)} | ${fmt(median(on!.cpu) / median(off!.cpu))} |`;
      }),
      `dropping onto the ball, the slowest of its first 60 steps (median of ${p.runs}): ${fmt(median(dropping[0]!))} ms without, ${fmt(median(dropping[1]!))} ms with`,
      `dragging a corner of the settled draped cloth, mean of 120 steps (median of ${p.runs}): ${fmt(median(dragging[0]!))} ms without, ${fmt(median(dragging[1]!))} ms with (${fmt(median(dragging[1]!) / median(dragging[0]!))}×)`,
      'goal: with / without <= 2',
    ].join('\n'),
  );
});

describe('cloth 64×64 self-collision', () => {
  const world = clothScene(core, 'draped', true);
  bench('step, draped, self-collision on', () => world.step(), { time: 500, warmupIterations: 10 });
});
