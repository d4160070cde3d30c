import type { Vec3, World } from '../../src/core/index.js';

/** Sets `ids` moving rigidly: velocity `v` of their centre of mass plus a spin `omega` (rad/s) about it. */
export function setRigidMotion(world: World, ids: readonly number[], omega: Vec3, v: Vec3): void {
  let mass = 0;
  const c = [0, 0, 0];
  for (const id of ids) {
    const m = world.getMass(id);
    const p = world.getPosition(id);
    mass += m;
    for (let k = 0; k < 3; k++) c[k] = c[k]! + m * p[k]!;
  }
  for (const id of ids) {
    const p = world.getPosition(id);
    const r = [0, 1, 2].map((k) => p[k]! - c[k]! / mass) as Vec3;
    world.setVelocity(id, [v[0] + omega[1] * r[2] - omega[2] * r[1], v[1] + omega[2] * r[0] - omega[0] * r[2], v[2] + omega[0] * r[1] - omega[1] * r[0]]);
  }
}
