import { World, type WorldOptions } from '../../src/core/index.js';

/** A pendulum of length `length` hung from an immovable anchor at the origin, released at `degrees`. */
export function pendulum(options: WorldOptions, degrees: number, length = 1) {
  const world = new World(options);
  const anchor = world.addParticle({ position: [0, 0, 0], mass: 0 });
  const angle = (degrees * Math.PI) / 180;
  const bob = world.addParticle({ position: [length * Math.sin(angle), -length * Math.cos(angle), 0] });
  world.addStick(anchor, bob);
  return { world, anchor, bob, angle };
}

/** A chain of `links` links of `linkLength` hanging straight down from a pinned first particle. */
export function hangingChain(options: WorldOptions, links = 20, linkLength = 0.1) {
  const world = new World(options);
  const first = world.addParticles(Array.from({ length: links + 1 }, (_, i) => ({ position: [0, -linkLength * i, 0] as [number, number, number] })));
  world.addPin(first);
  for (let i = 0; i < links; i++) world.addStick(first + i, first + i + 1);
  return { world, first, last: first + links, length: links * linkLength };
}

/** Relative stretch of a hanging chain after `steps` steps: (end-to-end distance - rest length) / rest length. */
export function chainStretch(options: WorldOptions, steps = 600): number {
  const { world, first, last, length } = hangingChain(options);
  for (let i = 0; i < steps; i++) world.step();
  const a = world.getPosition(first);
  const b = world.getPosition(last);
  return (Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) - length) / length;
}

/** Amplitude kept by a 1 m pendulum started at 5° after 10 periods, as a fraction of the start. */
export function pendulumAmplitudeKept(options: WorldOptions): number {
  const { world, bob, angle } = pendulum(options, 5);
  const period = 2 * Math.PI * Math.sqrt(1 / 9.81);
  const steps = Math.round((10 * period) / world.timeStep);
  let peak = 0;
  for (let i = 0; i < steps; i++) {
    world.step();
    // The last period holds the final swing's peak.
    if (i * world.timeStep > 9 * period) peak = Math.max(peak, Math.abs(world.getPosition(bob)[0]));
  }
  return peak / Math.sin(angle);
}
