import { AnimationMixer, Quaternion, Vector3, type Bone, type Object3D } from 'three';
import { ragdollParts, type RagdollPart } from '../../src/core/bodies/ragdollSkeleton.js';
import { particleSlot } from '../../src/core/ids.js';
import { World } from '../../src/core/world.js';
import type { StickKernel } from '../../src/core/wasm/stickKernel.js';
import { AnimatedRagdoll, type AnimatedRagdollOptions } from '../../src/three/animatedRagdoll.js';
import { createTestHumanoid, createWalkClip, walkSpeed } from 'sinew-physics/testing';
import { createUnrealRig, unrealNames } from './unrealRig.js';

/** A walking rig to knock down and get up: the test humanoid with its walk, or the Unreal-named rig built in the tests. */
export type GetUpRig = 'humanoid' | 'unreal';

/** A knock-down and get-up, as {@link measureGetUp} runs it. */
export interface GetUpCase {
  rig: GetUpRig;
  /** The blow: part, direction and strength (m), as `AnimatedRagdoll.hit` takes them. */
  hit: readonly [RagdollPart, readonly [number, number, number], number];
  /** Seconds lying before the get-up begins. */
  lie: number;
  /** The get-up's duration (s). */
  seconds: number;
  kernel?: StickKernel;
  options?: AnimatedRagdollOptions;
  /** Build and remove a ragdoll first, so that the character's particles take reused slots (their ids carry a generation). */
  reusedSlots?: boolean;
}

/** What a get-up did, measured frame by frame (one world step per frame). */
export interface GetUpMeasure {
  /** Fastest particle during the get-up (m/s, its move over a frame / the frame), and its part. */
  fastest: number;
  fastestPart: RagdollPart;
  /** Fastest any particle of the animation moves over the get-up's frames (m/s). */
  animationFastest: number;
  /** Farthest a particle lies from its animated place when the get-up begins (m). */
  farthest: number;
  /** Largest over the get-up's frames and particles of (its speed − its animated place's speed − 1.5 × the distance its ease covers / T), m/s: at most 0 by the ease's bound. */
  overEase: number;
  /** Farthest a particle is from its animated place after the frame whose step ends the get-up (m). */
  endOff: number;
  /**
   * Per frame, from the third-last of the get-up to the second after it (the third is the one
   * whose step ends it; the bones follow the animation from then on): the largest move of a
   * particle apart from its animated place's move (m), the same for the bones' joints (m), and
   * the largest turn of a bone apart from its animated turn (rad).
   */
  endFrames: { particles: number; bones: number; turns: number }[];
  /** Whether the ragdoll was inactive again after the get-up, and whether it still got up then. */
  endedInactive: boolean;
  gettingUpAtEnd: boolean;
}

const DT = 1 / 60;

/** Knocks a walking rig down, lets it lie, gets it up and measures the speeds. */
export function measureGetUp(c: GetUpCase): GetUpMeasure {
  const world = new World({ sleep: false, kernel: c.kernel });
  world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
  let root: Object3D;
  let mixer: AnimationMixer;
  let speed: number;
  let options: AnimatedRagdollOptions = c.options ?? {};
  if (c.rig === 'humanoid') {
    const humanoid = createTestHumanoid();
    root = humanoid.root;
    mixer = new AnimationMixer(humanoid.mesh);
    mixer.clipAction(createWalkClip()).play();
    speed = walkSpeed();
  } else {
    ({ root, mixer, speed } = createUnrealRig());
    options = { names: unrealNames, ...options };
  }
  mixer.update(0.3);
  if (c.reusedSlots === true) new AnimatedRagdoll(world, root, options).remove();
  const character = new AnimatedRagdoll(world, root, options);
  const n = ragdollParts.length;
  // The particle columns are indexed by slot.
  const first = particleSlot(character.ragdoll.first);
  const animated = new Float64Array(n * 3);
  const point = new Vector3();
  const sampleAnimation = () => {
    ragdollParts.forEach((p, i) => {
      const a = character.fit.anchors[p];
      point.copy(a.offset).applyMatrix4(a.bone.matrixWorld);
      animated.set([point.x, point.y, point.z], i * 3);
    });
  };
  const bones: Bone[] = [];
  root.traverse((o) => {
    if ((o as Bone).isBone) bones.push(o as Bone);
  });
  const animatedBones = bones.map(() => ({ at: new Vector3(), turn: new Quaternion() }));
  const posedBones = bones.map(() => ({ at: new Vector3(), turn: new Quaternion() }));
  const scale = new Vector3();
  const readBones = (into: typeof animatedBones) => bones.forEach((b, k) => b.matrixWorld.decompose(into[k]!.at, into[k]!.turn, scale));
  const positions = () => Float64Array.from({ length: n * 3 }, (_, k) => world.particles.position[first * 3 + k]!);
  // The root walks on while the ragdoll is inactive; it stands where it fell from while it lies and gets up.
  const frame = () => {
    mixer.update(DT);
    if (!character.active) root.position.z += speed * DT;
    character.follow(DT);
    sampleAnimation();
    readBones(animatedBones);
    world.advance(DT);
    character.pose();
    readBones(posedBones);
  };
  for (let i = 0; i < 20; i++) frame();
  character.hit(c.hit[0], c.hit[1], c.hit[2]);
  for (let i = 0; i < Math.round(c.lie * 60); i++) frame();
  const distance = (a: Float64Array, b: Float64Array, i: number) => Math.hypot(a[i * 3]! - b[i * 3]!, a[i * 3 + 1]! - b[i * 3 + 1]!, a[i * 3 + 2]! - b[i * 3 + 2]!);
  // The animated pose of this frame, to know how far the body lies from it.
  mixer.update(0);
  character.follow(0);
  sampleAnimation();
  let farthest = 0;
  const lying = positions();
  for (let i = 0; i < n; i++) farthest = Math.max(farthest, distance(lying, animated, i));
  character.getUp(c.seconds);
  const frames = Math.round(c.seconds * 60);
  let before = positions();
  let animBefore = Float64Array.from(animated);
  let fastest = 0;
  let fastestPart: RagdollPart = 'pelvis';
  let animationFastest = 0;
  let overEase = -Infinity;
  let endOff = 0;
  const far = new Float64Array(n);
  const endFrames: GetUpMeasure['endFrames'] = [];
  const clone = (list: typeof animatedBones) => list.map((b) => ({ at: b.at.clone(), turn: b.turn.clone() }));
  let bonesBefore = clone(posedBones);
  let animatedBonesBefore = clone(animatedBones);
  const move = new Vector3();
  for (let f = 0; f < frames + 2; f++) {
    frame();
    const now = positions();
    const end = { particles: 0, bones: 0, turns: 0 };
    for (let i = 0; i < n; i++) {
      const v = distance(now, before, i) / DT;
      const va = distance(animated, animBefore, i) / DT;
      if (f < frames) {
        // The distance the ease covers, the farthest the animated place has been from where the particle lay.
        far[i] = Math.max(far[i]!, distance(lying, animated, i), distance(lying, animBefore, i));
        if (v > fastest) [fastest, fastestPart] = [v, ragdollParts[i]!];
        animationFastest = Math.max(animationFastest, va);
        overEase = Math.max(overEase, v - va - (1.5 * far[i]!) / c.seconds);
      }
      move.set(now[i * 3]! - before[i * 3]!, now[i * 3 + 1]! - before[i * 3 + 1]!, now[i * 3 + 2]! - before[i * 3 + 2]!);
      move.x -= animated[i * 3]! - animBefore[i * 3]!;
      move.y -= animated[i * 3 + 1]! - animBefore[i * 3 + 1]!;
      move.z -= animated[i * 3 + 2]! - animBefore[i * 3 + 2]!;
      end.particles = Math.max(end.particles, move.length());
      if (f === frames - 1) endOff = Math.max(endOff, distance(now, animated, i));
    }
    bones.forEach((_, k) => {
      const moved = posedBones[k]!.at.clone().sub(bonesBefore[k]!.at);
      const animatedMove = animatedBones[k]!.at.clone().sub(animatedBonesBefore[k]!.at);
      end.bones = Math.max(end.bones, moved.distanceTo(animatedMove));
      end.turns = Math.max(end.turns, Math.abs(posedBones[k]!.turn.angleTo(bonesBefore[k]!.turn) - animatedBones[k]!.turn.angleTo(animatedBonesBefore[k]!.turn)));
    });
    if (f >= frames - 3) endFrames.push(end);
    bonesBefore = clone(posedBones);
    animatedBonesBefore = clone(animatedBones);
    before = now;
    animBefore = Float64Array.from(animated);
  }
  return { fastest, fastestPart, animationFastest, overEase, farthest, endOff, endFrames, endedInactive: !character.active, gettingUpAtEnd: character.gettingUp };
}
