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
const frame = timed(
  () => frameScene({}, core),
  (world) => world.advance(1 / 60),
  p,
);
/**
 * The cost of collisions between bodies (on by default): the same frame
 * scene with them off (`bodyContacts(world).enabled = false`, static colliders
 * still on), timed in turns with it so that both see the same machine; the goal
 * is at most 1.5× (issue 10).
 */
function contactsCost(): { on: number; off: number; onCpu: number; offCpu: number; contacts: number } {
  const samples = { on: [] as number[], off: [] as number[], onCpu: [] as number[], offCpu: [] as number[] };
  let contacts = 0;
  for (let r = 0; r < 2 * p.runs; r++) {
    const on = r % 2 === 0;
    const world = frameScene({}, core);
    core.bodyContacts(world).enabled = on;
    for (let i = 0; i < p.warmup; i++) world.advance(1 / 60);
    const start = performance.now();
    const used = process.cpuUsage();
    for (let i = 0; i < p.steps; i++) {
      world.advance(1 / 60);
      if (on) contacts = Math.max(contacts, core.bodyContacts(world).contacts);
    }
    const spent = process.cpuUsage(used);
    (on ? samples.on : samples.off).push((performance.now() - start) / p.steps);
    (on ? samples.onCpu : samples.offCpu).push((spent.user + spent.system) / 1000 / p.steps);
  }
  return { on: median(samples.on), off: median(samples.off), onCpu: median(samples.onCpu), offCpu: median(samples.offCpu), contacts };
}
const bodyContactsCost = contactsCost();
const frameSleeping = timed(
  () => frameScene({ sleep: true }, core),
  (world) => world.advance(1 / 60),
  p,
);

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

/**
 * A step's cost must not grow with history: 50 resting boxes asleep, fresh and
 * after 100,000 bodies were added and removed (a React scene remounting things).
 * The two worlds are timed in turns, so both see the same machine.
 */
function historyCost(): { fresh: number; after: number } {
  const settle = (world: World) => {
    let steps = 0;
    while (world.stats.sleepingBodies < 50 && steps++ < 2000) world.step();
    return world;
  };
  const fresh = settle(restingBoxes(50, { sleep: true }, core));
  const after = settle(restingBoxes(50, { sleep: true }, core));
  for (let i = 0; i < 100_000; i++) after.remove(core.createBox(after, { position: [20, 5, 0] }).body);
  settle(after);
  const samples = { fresh: [] as number[], after: [] as number[] };
  for (let r = 0; r < 2 * p.runs; r++) {
    const world = r % 2 === 0 ? fresh : after;
    for (let i = 0; i < 100; i++) world.step();
    const start = performance.now();
    for (let i = 0; i < 10 * p.steps; i++) world.step();
    (r % 2 === 0 ? samples.fresh : samples.after).push(((performance.now() - start) / (10 * p.steps)) * 1000);
  }
  return { fresh: median(samples.fresh), after: median(samples.after) };
}
const history = historyCost();

afterAll(() => {
  console.log(
    [
      `frame: 64×64 cloth + 4 ragdolls on a mesh staircase, default settings, advance(1/60): ${frame.wall.toFixed(2)} ms per frame (CPU ${frame.cpu.toFixed(2)} ms; goal <= 4); with sleep on: ${frameSleeping.wall.toFixed(2)} ms (CPU ${frameSleeping.cpu.toFixed(2)} ms)`,
      `frame with every collision on (bodies against each other too, the default): ${bodyContactsCost.on.toFixed(2)} ms per frame (CPU ${bodyContactsCost.onCpu.toFixed(2)}), without collisions between bodies ${bodyContactsCost.off.toFixed(2)} ms (CPU ${bodyContactsCost.offCpu.toFixed(2)}): ${(bodyContactsCost.on / bodyContactsCost.off).toFixed(2)}× (CPU ${(bodyContactsCost.onCpu / bodyContactsCost.offCpu).toFixed(2)}×; goal <= 1.5; up to ${bodyContactsCost.contacts} contacts in a substep)`,
      `sleeping: 50 resting boxes (${sleeping.bodies} asleep) ${sleeping.asleep.toFixed(2)} µs per step, empty world ${sleeping.empty.toFixed(2)} µs, the same boxes awake ${sleeping.awake.toFixed(1)} µs`,
      `history: the 50 sleeping boxes ${history.fresh.toFixed(2)} µs per step fresh, ${history.after.toFixed(2)} µs after 100,000 bodies were added and removed (goal: within 10%)`,
    ].join('\n'),
  );
});

describe('frame scenario', () => {
  const world = frameScene({}, core);
  bench('advance(1/60)', () => void world.advance(1 / 60), { time: 500 });
});
