import { afterAll, bench, describe } from 'vitest';
import { builtEngine } from './engine.js';
import { median, protocol, timed } from './protocol.js';
import { frameScene, restingBoxes } from './scenes.js';

// The whole-frame budget (≤ 4 ms per 1/60 s frame with the default
// settings) and the cost of sleeping bodies (50 boxes asleep vs an empty world),
// on the built library.
const p = protocol();
const core = await builtEngine();
type World = InstanceType<typeof core.World>;
const frame = timed(() => frameScene({}, core), (world) => world.advance(1 / 60), p);
const frameSleeping = timed(() => frameScene({ sleep: true }, core), (world) => world.advance(1 / 60), p);

/** Steps a fresh scene until every body sleeps, then times steps (µs, finer than the protocol needs). */
function sleepingCost(): { asleep: number; awake: number; empty: number; bodies: number } {
  const time = (world: World) => {
    const samples: number[] = [];
    for (let r = 0; r < p.runs; r++) {
      for (let i = 0; i < 100; i++) world.step();
      const start = performance.now();
      for (let i = 0; i < 10 * p.steps; i++) world.step();
      samples.push(((performance.now() - start) / (10 * p.steps)) * 1000);
    }
    return median(samples);
  };
  const asleep = restingBoxes(50, { sleep: true }, core);
  let steps = 0;
  while (asleep.stats.sleepingBodies < 50 && steps++ < 2000) asleep.step();
  const bodies = asleep.stats.sleepingBodies;
  return { asleep: time(asleep), awake: time(restingBoxes(50, {}, core)), empty: time(new core.World({ sleep: true })), bodies };
}
const sleeping = sleepingCost();

afterAll(() => {
  console.log(
    [
      `frame: 64×64 cloth + 4 ragdolls on a mesh staircase, default settings, advance(1/60): ${frame.wall.toFixed(2)} ms per frame (CPU ${frame.cpu.toFixed(2)} ms; goal <= 4); with sleep on: ${frameSleeping.wall.toFixed(2)} ms (CPU ${frameSleeping.cpu.toFixed(2)} ms)`,
      `sleeping: 50 resting boxes (${sleeping.bodies} asleep) ${sleeping.asleep.toFixed(2)} µs per step, empty world ${sleeping.empty.toFixed(2)} µs, the same boxes awake ${sleeping.awake.toFixed(1)} µs`,
    ].join('\n'),
  );
});

describe('frame scenario', () => {
  const world = frameScene({}, core);
  bench('advance(1/60)', () => void world.advance(1 / 60), { time: 500 });
});
