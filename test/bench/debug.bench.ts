import { afterAll, bench, describe } from 'vitest';
import { createCloth, World } from '../../src/core/index.js';
import { BodyGeometry } from '../../src/three/bodyGeometry.js';
import { ColliderWireframes } from '../../src/three/colliderWireframes.js';
import { ParticlePoints, StickLines } from '../../src/three/debugViews.js';
import { timed } from './protocol.js';

// What drawing a 64 × 64 cloth costs in JavaScript per frame, apart from the
// physics: what <Debug /> writes every frame (points, strain-coloured sticks,
// collider wireframes; goal <= 1 ms), and the read-back of the cloth's positions
// and normals into its geometry (goal <= 0.2 ms). Both run on the source modules
// (the loops stay inside one module, where vitest's module runner adds nothing).

/** A 64 × 64 cloth pinned at its top corners, hanging in front of a floor, after half a second. */
function hangingCloth() {
  const world = new World();
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  const cloth = createCloth(world, { width: 64, height: 64, spacing: 0.03, corner: [-0.95, 2.2, 0], pin: 'top-corners', bend: { stiffness: 0.5 } });
  for (let i = 0; i < 30; i++) world.step();
  // Halfway between two steps, as most frames are: every position is blended.
  const blend = { alpha: 0.5 };
  return { world, cloth, blend };
}

const debugViews = () => {
  const scene = hangingCloth();
  return { ...scene, points: new ParticlePoints(), lines: new StickLines(), wires: new ColliderWireframes() };
};
type DebugScene = ReturnType<typeof debugViews>;
const drawDebug = ({ world, blend, points, lines, wires }: DebugScene) => {
  points.update(world, blend);
  lines.update(world, blend);
  wires.update(world);
};

const readBack = () => {
  const scene = hangingCloth();
  const { first, count, surface, uvs } = scene.cloth;
  return { ...scene, view: new BodyGeometry({ first, count, surface, uvs }) };
};
const readPositionsAndNormals = ({ world, blend, view }: ReturnType<typeof readBack>) => view.update(world, blend);

const debug = timed(debugViews, drawDebug);
const geometry = timed(readBack, readPositionsAndNormals);

afterAll(() => {
  const sticks = hangingCloth().world.sticks.count;
  console.log(
    [
      `<Debug /> on a 64×64 cloth (4096 points, ${sticks} sticks): ${debug.wall.toFixed(3)} ms of JavaScript per frame (CPU ${debug.cpu.toFixed(3)} ms; goal <= 1)`,
      `cloth read-back, positions + normals into a 64×64 geometry: ${geometry.wall.toFixed(3)} ms per frame (CPU ${geometry.cpu.toFixed(3)} ms; goal <= 0.2)`,
    ].join('\n'),
  );
});

describe('drawing a 64×64 cloth', () => {
  const debugScene = debugViews();
  bench('<Debug /> views update', () => drawDebug(debugScene), { time: 500 });
  const readBackScene = readBack();
  bench('BodyGeometry.update (positions + normals)', () => readPositionsAndNormals(readBackScene), { time: 500 });
});
