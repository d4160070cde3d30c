import type { Engine } from './engine.js';

/**
 * Mean over a world's sticks of |length / rest − 1|: how far a step's relaxation
 * left the sticks from their rest lengths, the accuracy a solver buys with its
 * time. Reads the stick table as the solver left it, so it measures any world.
 */
export function meanStickStretch(world: InstanceType<Engine['World']>): number {
  const { a, b, rest, count } = world.sticks;
  const p = world.positions;
  let sum = 0;
  for (let row = 0; row < count; row++) {
    const i = a[row]! * 3;
    const j = b[row]! * 3;
    sum += Math.abs(Math.hypot(p[j]! - p[i]!, p[j + 1]! - p[i + 1]!, p[j + 2]! - p[i + 2]!) / rest[row]! - 1);
  }
  return count === 0 ? 0 : sum / count;
}
