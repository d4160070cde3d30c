import { AnimationMixer, Vector3, type Object3D, type SkinnedMesh } from 'three';
import { describe, expect, it } from 'vitest';
import { ragdollParts, type RagdollPart } from '../../src/core/bodies/ragdollSkeleton.js';
import type { ColliderShape } from '../../src/core/colliderFactory.js';
import { World } from '../../src/core/world.js';
import { AnimatedRagdoll } from '../../src/three/animatedRagdoll.js';
import { dualQuaternionVertex } from '../../src/three/dualQuaternionSkinning.js';
import { createTestHumanoid, createWalkClip } from 'sinew-physics/testing';
import { buildRig, mixamoExport, plain, unreal, type RigConvention } from '../support/rigs.js';

// Issue 29, item 1: the bones a ragdoll poses lie on its particles, and the skin on what the ragdoll lies on.

/** What one fall measured. */
interface Fall {
  /** Per part, the largest distance between the particle and where its bone puts it: while falling, and lying (the last half second). */
  falling: Map<RagdollPart, number>;
  lying: Map<RagdollPart, number>;
  /** The lowest skin vertex (y, m; the floor is y = 0) of the trunk, head and limbs lying, and its main bone. */
  lowest: number;
  lowestBone: string;
  /** The same for the hands and feet (and the fingers and toes). */
  lowestEnd: number;
  lowestEndBone: string;
}

/** Hands, feet and what hangs on them: the ragdoll has no particle to turn them by; they rest on the floor by a turn at the wrist or ankle. */
const extremity = /hand|foot|toe|ball|finger/i;

/** The lowest vertex (dual quaternion skinning) of the trunk, head and limbs, and of the hands and feet, each with its main (heaviest) bone. */
function lowestVertices(mesh: SkinnedMesh, height: (v: Vector3) => number): { body: [number, string]; ends: [number, string] } {
  const vertex = new Vector3();
  const weight = mesh.geometry.getAttribute('skinWeight');
  const index = mesh.geometry.getAttribute('skinIndex');
  const body: [number, string] = [Infinity, ''];
  const ends: [number, string] = [Infinity, ''];
  for (let i = 0; i < mesh.geometry.getAttribute('position').count; i++) {
    const main = mesh.skeleton.bones[weight.getX(i) >= weight.getY(i) ? index.getX(i) : index.getY(i)]!.name;
    const y = height(dualQuaternionVertex(mesh, i, vertex));
    const into = extremity.test(main) ? ends : body;
    if (y < into[0]) [into[0], into[1]] = [y, main];
  }
  return { body, ends };
}

/** What a character stands on: its colliders, and a point's height above their surface (m; below it, minus its depth). */
interface Ground {
  colliders: ColliderShape[];
  height: (v: Vector3) => number;
}

const floor: Ground = { colliders: [{ type: 'plane', normal: [0, 1, 0], offset: 0 }], height: (v) => v.y };

/**
 * A character on the floor y = 0 (or `ground`), hit at `part` along `direction` after 12 frames of its
 * animation (or of standing still), then `frames` frames of the fall.
 */
function fall(
  root: Object3D,
  mesh: SkinnedMesh,
  options: { names?: Partial<Record<RagdollPart, string>>; mixer?: AnimationMixer; ground?: Ground },
  part: RagdollPart,
  direction: [number, number, number],
  frames = 150,
): Fall {
  const world = new World({ sleep: false });
  const ground = options.ground ?? floor;
  for (const collider of ground.colliders) world.addCollider(collider);
  const character = new AnimatedRagdoll(world, root, { names: options.names });
  const frame = () => {
    options.mixer?.update(1 / 60);
    character.follow(1 / 60);
    world.advance(1 / 60);
    character.pose();
  };
  for (let i = 0; i < 12; i++) frame();
  character.hit(part, direction, 0.012);
  const falling = new Map<RagdollPart, number>();
  const lying = new Map<RagdollPart, number>();
  const point = new Vector3();
  let lowest = Infinity;
  let lowestBone = '';
  let lowestEnd = Infinity;
  let lowestEndBone = '';
  for (let i = 0; i < frames; i++) {
    frame();
    const resting = i >= frames - 30;
    for (const p of ragdollParts) {
      const anchor = character.fit.anchors[p];
      const d = point
        .copy(anchor.offset)
        .applyMatrix4(anchor.bone.matrixWorld)
        .distanceTo(new Vector3(...world.getPosition(character.ragdoll.part(p))));
      const into = resting ? lying : falling;
      into.set(p, Math.max(into.get(p) ?? 0, d));
    }
    if (resting && i % 10 === 0) {
      const { body, ends } = lowestVertices(mesh, ground.height);
      if (body[0] < lowest) [lowest, lowestBone] = body;
      if (ends[0] < lowestEnd) [lowestEnd, lowestEndBone] = ends;
    }
  }
  character.remove();
  return { falling, lying, lowest, lowestBone, lowestEnd, lowestEndBone };
}

const hits: [RagdollPart, [number, number, number]][] = [
  ['chest', [0, 0, -1]],
  ['chest', [0, 0, 1]],
  ['head', [1, 0, 0]],
  ['pelvis', [-1, 0, 0.5]],
];

function humanoidFall(part: RagdollPart, direction: [number, number, number]): Fall {
  const humanoid = createTestHumanoid();
  const mixer = new AnimationMixer(humanoid.mesh);
  mixer.clipAction(createWalkClip()).play();
  mixer.update(0.3);
  return fall(humanoid.root, humanoid.mesh, { mixer }, part, direction);
}

function rigFall(convention: RigConvention, part: RagdollPart, direction: [number, number, number], pelvisHeight?: number): Fall {
  const rig = buildRig(convention, pelvisHeight);
  return fall(rig.root, rig.mesh, { names: convention.names }, part, direction);
}

/** Stairs of boxes rising along +x: a landing at y = 0 up to x = D, then step k's tread at k·H over [k·D, (k + 1)·D], the top one on. */
const D = 0.3;
const H = 0.18;
const STEPS = 6;
const stairs: Ground = {
  colliders: Array.from({ length: STEPS }, (_, k) => ({ type: 'box', min: [k === 0 ? -4 : k * D, -1, -2], max: [k === STEPS - 1 ? 6 : (k + 1) * D, k * H, 2] }) as ColliderShape),
  // Outside: the height above the tread below. Inside: minus the distance to the free space, the union of the
  // quadrants x < k·D, y > (k − 1)·H (the last one unbounded in x).
  height: (v) => {
    const k = v.x < D ? 0 : Math.min(STEPS - 1, Math.floor(v.x / D));
    if (v.y >= k * H) return v.y - k * H;
    let depth = Infinity;
    for (let q = 1; q <= STEPS; q++) depth = Math.min(depth, Math.hypot(q === STEPS ? 0 : Math.max(0, v.x - q * D), Math.max(0, (q - 1) * H - v.y)));
    return -depth;
  },
};

function stairsFall(x: number, y: number, facing: number, part: RagdollPart, direction: [number, number, number]): Fall {
  const humanoid = createTestHumanoid();
  humanoid.root.position.set(x, y, 0);
  humanoid.root.rotation.y = facing;
  const mixer = new AnimationMixer(humanoid.mesh);
  mixer.clipAction(createWalkClip()).play();
  mixer.update(0.3);
  return fall(humanoid.root, humanoid.mesh, { mixer, ground: stairs }, part, direction, 240);
}

const worst = (m: Map<RagdollPart, number>) => [...m].reduce((a, b) => (b[1] > a[1] ? b : a));

/** Checks one fall against issue 29's bounds, naming the rig, the hit and the part in each message. */
function expectOnTheRagdoll(label: string, f: Fall): void {
  const [falling, fallingBy] = worst(f.falling);
  const [lying, lyingBy] = worst(f.lying);
  expect(fallingBy, `${label}: ${falling} the furthest from its bone falling`).toBeLessThan(0.03);
  expect(lyingBy, `${label}: ${lying} the furthest from its bone lying`).toBeLessThan(0.02);
  expect(f.lowest, `${label}: the lowest skin, on ${f.lowestBone}`).toBeGreaterThan(-0.01);
  expect(f.lowestEnd, `${label}: the lowest skin of the hands and feet, on ${f.lowestEndBone}`).toBeGreaterThan(-0.01);
}

describe('bones on the ragdoll (dual quaternion skinning, the floor y = 0)', () => {
  it('the test humanoid, hit mid-walk in four places: every bone with a particle within 3 cm of it falling, 2 cm lying, and no skin more than 1 cm under the floor, hands and feet included', () => {
    // Measured. Before the bones were carried by their particles: 16.7–20.1 cm falling (the head; the neck and
    // chest 14.5–17.7 cm, the shoulders 7.8–15.6 cm, the hips 5.0–6.2 cm, the elbows up to 11.3 cm), 5.6–13.5 cm
    // lying (the neck 4.5–11.5 cm, the shoulders up to 8.7 cm, the hips up to 6.1 cm), the skin up to 12.3 cm under
    // the floor (the head; the back 7.8 cm). Now: the head 0.6–1.5 cm falling and 1.3 cm lying at most (it is
    // aimed at its particle, not carried), the hands and feet less, every carried part under a micrometre; the
    // skin 0.6 cm under at most (Spine1, lying on its back). Hands and feet, while they kept the animation's turn
    // against the forearm and shin: the toes 13.2 cm under the floor lying on its front, 6.7 cm after the pelvis
    // hit, a hand 10.3 cm; rested by a turn at the wrist or ankle, 0.1 cm above it at the lowest (a toe, a hand).
    for (const [part, direction] of hits) expectOnTheRagdoll(`humanoid, ${part} hit along ${direction.join()}`, humanoidFall(part, direction));
  });

  it('rigs named and turned as Unreal, a Mixamo export and Blender name and turn them, in an A pose, hit in four places: the same bounds', () => {
    // Measured before: 9.8–19.8 cm falling (the head; the neck 6.7–16.6 cm, the hips 4.6–7.2 cm), 4.3–9.8 cm lying,
    // the back 3.4–4.7 cm under the floor. Now: the head 1.1–2.2 cm falling, 0.8 cm lying at most; the skin 0.3 cm
    // under at most (the spine, on its back). Hands and feet in their bind turn against the forearm and shin: the
    // toes 13.6–14.2 cm under the floor lying on the front, a hand 5.6 cm (Blender's names, the pelvis hit); rested,
    // 0.1 cm above it at the lowest (a toe, a hand).
    for (const convention of [unreal, mixamoExport, plain])
      for (const [part, direction] of hits) expectOnTheRagdoll(`${convention.label}, ${part} hit along ${direction.join()}`, rigFall(convention, part, direction));
  });

  it('the test humanoid on stairs of boxes, knocked onto them forward, backward, down them and sideways: the same bounds', () => {
    // Measured lying, the lowest skin of the hands and feet against the steps, before they were rested (they kept
    // the animation's turn): a hand 7.7 cm inside a step knocked forward onto the stairs, a toe 4.6 cm knocked down
    // them, 12.4 cm knocked sideways off a step; rested, 0.1 cm above at the lowest (0.8 cm inside while the skin's
    // points were taken along 26 directions only). The trunk, head and limbs 0.7 cm inside at most (Spine1, on its
    // back across a step's nose).
    const cases: [number, number, number, [number, number, number], string][] = [
      [-0.35, 0, Math.PI / 2, [1, 0, 0], 'on the landing facing the stairs, hit in the back'],
      [4 * D + 0.15, 4 * H, -Math.PI / 2, [-1, 0, 0], 'on the fourth step facing down, hit in the back'],
      [4 * D + 0.15, 4 * H, -Math.PI / 2, [1, 0, 0], 'on the fourth step facing down, hit in the chest'],
      [2 * D + 0.15, 2 * H, 0, [0, 0, 1], 'on the second step facing along it, hit in the back'],
    ];
    for (const [x, y, facing, direction, label] of cases) expectOnTheRagdoll(`humanoid on stairs ${label}`, stairsFall(x, y, facing, 'chest', direction));
  });

  it('a pelvis joint half a centimetre above the hips (a pelvis triangle nearly flat, which turns the pelvis bone): the same bounds', () => {
    // Measured: the head 1.2 and 2.2 cm falling, 0.7 cm lying at most; the skin above the floor. (The pelvis bone
    // turns with the triangle; flat as it is, the pelvis's skin keeps within 19.6% of its bind distances, 16.9% with
    // the joint 5 cm above the hips, by issue 12's measure.)
    for (const [part, direction] of hits.slice(0, 2)) expectOnTheRagdoll(`Unreal, pelvis at 0.905 m, ${part} hit along ${direction.join()}`, rigFall(unreal, part, direction, 0.905));
  });
});
