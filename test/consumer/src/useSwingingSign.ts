import { useParticle, useRigidBody, useWorld, type Vec3 } from 'sinew-physics';

/** Options of {@link useSwingingSign}. */
export interface SwingingSignOptions {
  /** Registers the board under this name; its hooks are `${name}HookLeft` and `${name}HookRight`. */
  name?: string;
  /** Middle of the board's top edge, where it hangs from its two hooks (m). */
  position: Vec3;
  /** Width, height and thickness of the board (m). */
  size?: Vec3;
}

/** What {@link useSwingingSign} returns. */
export interface SwingingSign {
  /** Swings the sign: its bottom edge gets `speed` m/s along +z. */
  push(speed: number): void;
  /** How far the board has swung, in radians (positive towards +z): the angle between straight down and the line from its hinge to its centre, 0 at rest. */
  angle(): number;
}

/**
 * A shop sign: a board hung by its top back edge from two fixed hooks, so it
 * swings about that edge like a hinge (and at rest tilts a little, its centre
 * under the hinge). Box vertex i is the corner with bit 0, 1, 2 of i set for
 * +x, +y, +z: 2 and 3 are the top back corners; 0, 1, 4, 5 the bottom ones.
 */
export function useSwingingSign({ name = 'sign', position, size = [1, 0.5, 0.04] }: SwingingSignOptions): SwingingSign {
  const world = useWorld();
  const [x, y, z] = position;
  const [w, h, d] = size;
  useParticle({ name: `${name}HookLeft`, position: [x - w / 2, y, z - d / 2], mass: 0 });
  useParticle({ name: `${name}HookRight`, position: [x + w / 2, y, z - d / 2], mass: 0 });
  const board = useRigidBody({ name, shape: 'box', size, position: [x, y - h / 2, z], mass: 2, shared: { 2: `${name}HookLeft`, 3: `${name}HookRight` } });
  return {
    push(speed) {
      for (const corner of [0, 1, 4, 5]) world.setVelocity(board.particle(corner), [0, 0, speed]);
    },
    angle() {
      let cy = 0;
      let cz = 0;
      for (let corner = 0; corner < 8; corner++) {
        const [, py, pz] = world.getPosition(board.particle(corner));
        cy += py / 8;
        cz += pz / 8;
      }
      // The hinge is the top back edge, corners 2 and 3, straight above the centre at rest.
      const [, hy, hz] = world.getPosition(board.particle(2));
      return Math.atan2(cz - hz, hy - cy);
    },
  };
}
