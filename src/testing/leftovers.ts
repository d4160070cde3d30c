import type { TestScene } from './names.js';

/**
 * What is still registered with a scene's world and store, one line per kind of
 * thing: particles, sticks, pins, other constraints, colliders, force generators,
 * step callbacks, bodies, names and gravity overrides. Empty when nothing is:
 * after unmounting, anything listed is what a component forgot to remove.
 * ({@link MountedWorld.unmount} returns this list.)
 *
 * @example
 * ```ts
 * const scene = await mountWorld(<SwingingSign />);
 * await scene.update(null); // the sign's component unmounts, the <World> stays
 * expect(leftovers(scene)).toEqual([]); // otherwise e.g. ['1 force generator', 'the body name "sign"']
 * ```
 */
export function leftovers(scene: TestScene): string[] {
  const state = scene.store.getState();
  const world = state.world;
  const found: string[] = [];
  const count = (n: number, what: string, plural = `${what}s`) => {
    if (n > 0) found.push(`${n} ${n === 1 ? what : plural}`);
  };
  if (world.particleCount > 0) {
    const ids: number[] = [];
    for (let slot = 0; slot < world.particles.end && ids.length < 5; slot++) if (world.particles.isAlive(slot)) ids.push(world.particles.idOf(slot));
    found.push(`${world.particleCount} particle${world.particleCount === 1 ? '' : 's'} (ids ${ids.join(', ')}${world.particleCount > ids.length ? ', …' : ''})`);
  }
  count(world.sticks.count, 'stick');
  count(world.pins.count, 'pin');
  // Shared passes (capsule edges, angle limits, faces) stay registered once created and count their rows.
  let others = 0;
  for (const c of world.constraints) others += c.constraintCount ?? 1;
  for (const c of world.stages.constraints.items) others += c.constraintCount ?? 1;
  for (const c of world.stages.afterColliders.items) others += c.constraintCount ?? 1;
  count(others, 'other constraint (collision, angle or user constraint)', 'other constraints (collision, angle or user constraints)');
  count(world.colliders.length, 'collider');
  count(world.forces.length, 'force generator');
  count(world.beforeStep.length, 'before-step callback');
  count(world.afterStep.length, 'after-step callback');
  const bodies = world.bodies.filter((b) => b.alive);
  if (bodies.length > 0) found.push(`${bodies.length} bod${bodies.length === 1 ? 'y' : 'ies'} (${bodies.map((b) => b.kind).join(', ')})`);
  for (const name of Object.keys(state.particles)) found.push(`the particle name "${name}"`);
  for (const name of Object.keys(state.bodies)) found.push(`the body name "${name}"`);
  const own = state.settings.gravity;
  const now = world.gravity;
  if (own[0] !== now[0] || own[1] !== now[1] || own[2] !== now[2]) found.push(`a gravity override: the world pulls with [${now.join(', ')}], its <World> gravity is [${own.join(', ')}]`);
  return found;
}
