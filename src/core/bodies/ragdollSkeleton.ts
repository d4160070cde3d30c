/**
 * The ragdoll's stick figure (paper section 6, "Hitman corpses"): particle names,
 * proportions, masses, limbs, angle limits and self-collision distances. Body
 * coordinates: x to the figure's left, y up, z forward; lengths are fractions of
 * the height, so a figure of height H stands with its feet on y = 0.
 */

/** The particles of a ragdoll. */
export const ragdollParts = [
  'head',
  'neck',
  'chest',
  'pelvis',
  'leftShoulder',
  'rightShoulder',
  'leftElbow',
  'rightElbow',
  'leftHand',
  'rightHand',
  'leftHip',
  'rightHip',
  'leftKnee',
  'rightKnee',
  'leftFoot',
  'rightFoot',
] as const;

/** Name of a ragdoll particle, e.g. `'leftHand'`. */
export type RagdollPart = (typeof ragdollParts)[number];

/** Per particle: standing position (fractions of height), share of the total mass, collision radius (fraction of height). */
interface PartSpec {
  standing: readonly [number, number, number];
  mass: number;
  radius: number;
}

// Joint heights and widths follow the usual anthropometric proportions (shoulder
// at 0.82 H, hip joint 0.53 H, knee 0.285 H, upper arm 0.186 H, thigh 0.245 H).
// Masses split the segment masses of the standard tables (trunk about half the
// body, each thigh 10 %, shank 4.65 %, foot 1.45 %, upper arm 2.8 %, forearm 1.6 %,
// hand 0.6 %) between each segment's end particles. The chest sits a little
// forward of the neck–shoulder line so the upper torso is a proper tetrahedron.
const parts: Record<RagdollPart, PartSpec> = {
  head: { standing: [0, 0.93, 0], mass: 0.07, radius: 0.06 },
  neck: { standing: [0, 0.845, 0], mass: 0.03, radius: 0.04 },
  chest: { standing: [0, 0.72, 0.03], mass: 0.19, radius: 0.07 },
  pelvis: { standing: [0, 0.58, 0], mass: 0.16, radius: 0.065 },
  leftShoulder: { standing: [0.13, 0.815, 0], mass: 0.04, radius: 0.035 },
  rightShoulder: { standing: [-0.13, 0.815, 0], mass: 0.04, radius: 0.035 },
  leftElbow: { standing: [0.15, 0.63, 0], mass: 0.025, radius: 0.03 },
  rightElbow: { standing: [-0.15, 0.63, 0], mass: 0.025, radius: 0.03 },
  leftHand: { standing: [0.175, 0.43, 0], mass: 0.015, radius: 0.03 },
  rightHand: { standing: [-0.175, 0.43, 0], mass: 0.015, radius: 0.03 },
  leftHip: { standing: [0.09, 0.53, 0], mass: 0.09, radius: 0.05 },
  rightHip: { standing: [-0.09, 0.53, 0], mass: 0.09, radius: 0.05 },
  leftKnee: { standing: [0.09, 0.285, 0], mass: 0.07, radius: 0.04 },
  rightKnee: { standing: [-0.09, 0.285, 0], mass: 0.07, radius: 0.04 },
  leftFoot: { standing: [0.09, 0.035, 0], mass: 0.035, radius: 0.035 },
  rightFoot: { standing: [-0.09, 0.035, 0], mass: 0.035, radius: 0.035 },
};

/** Available start poses. */
export type RagdollPose = 'standing' | 'T';

// The T pose's arms: stretched sideways at shoulder height, bone lengths as standing.
const tArms: Partial<Record<RagdollPart, readonly [number, number, number]>> = { ...tArm('left'), ...tArm('right') };

/** One side's elbow and hand in the T pose. */
function tArm(side: 'left' | 'right'): Partial<Record<RagdollPart, readonly [number, number, number]>> {
  const shoulder = parts[`${side}Shoulder`].standing;
  const elbow = parts[`${side}Elbow`].standing;
  const hand = parts[`${side}Hand`].standing;
  const out = side === 'left' ? 1 : -1;
  const elbowX = shoulder[0] + out * Math.hypot(elbow[0] - shoulder[0], elbow[1] - shoulder[1], elbow[2] - shoulder[2]);
  return {
    [`${side}Elbow`]: [elbowX, shoulder[1], shoulder[2]],
    [`${side}Hand`]: [elbowX + out * Math.hypot(hand[0] - elbow[0], hand[1] - elbow[1], hand[2] - elbow[2]), shoulder[1], shoulder[2]],
  };
}

/**
 * Position of `part` in `pose`, body coordinates, as fractions of the height. The
 * T pose stretches the arms sideways at shoulder height with the standing pose's
 * bone lengths, so both poses have the same skeleton.
 */
export function partPosition(part: RagdollPart, pose: RagdollPose): readonly [number, number, number] {
  const arm = pose === 'T' ? tArms[part] : undefined;
  return arm ?? parts[part].standing;
}

/** Share of the total mass carried by `part` (the shares sum to 1). */
export function partMass(part: RagdollPart): number {
  return parts[part].mass;
}

/** Collision radius of `part` as a fraction of the height; the foot's equals its height, so the figure stands on y = 0. */
export function partRadius(part: RagdollPart): number {
  return parts[part].radius;
}

/** Name of a limb (a bone drawn and collided as a capsule). */
export type RagdollLimbName =
  | 'head'
  | 'upperSpine'
  | 'lowerSpine'
  | 'leftClavicle'
  | 'rightClavicle'
  | 'leftUpperArm'
  | 'rightUpperArm'
  | 'leftForearm'
  | 'rightForearm'
  | 'leftPelvis'
  | 'rightPelvis'
  | 'leftThigh'
  | 'rightThigh'
  | 'leftShin'
  | 'rightShin';

/**
 * How a limb's frame finds its front (+z): from the bend of the joint it shares
 * with a neighbouring bone (`joint`, the far end `far` of that bone, and `sign`
 * +1 when the joint folds toward the front like an elbow, -1 when it sticks out to
 * the front like a knee), blended with a reference front (`front`, one of
 * {@link frontReferences}) that takes over when the limb is straight.
 */
export interface LimbSpec {
  name: RagdollLimbName;
  from: RagdollPart;
  to: RagdollPart;
  /** Capsule radius, fraction of the height. */
  radius: number;
  front: keyof typeof frontReferences;
  bend?: { joint: RagdollPart; far: RagdollPart; sign: 1 | -1 };
}

/** The limbs, one stick each, in the order of `Ragdoll.limbs` and `Ragdoll.frames`. */
export const limbSpecs: readonly LimbSpec[] = [
  { name: 'head', from: 'neck', to: 'head', radius: 0.055, front: 'chest' },
  { name: 'upperSpine', from: 'chest', to: 'neck', radius: 0.07, front: 'chest' },
  { name: 'lowerSpine', from: 'pelvis', to: 'chest', radius: 0.065, front: 'pelvis' },
  { name: 'leftClavicle', from: 'neck', to: 'leftShoulder', radius: 0.035, front: 'chest' },
  { name: 'rightClavicle', from: 'neck', to: 'rightShoulder', radius: 0.035, front: 'chest' },
  { name: 'leftUpperArm', from: 'leftShoulder', to: 'leftElbow', radius: 0.03, front: 'chest', bend: { joint: 'leftElbow', far: 'leftHand', sign: 1 } },
  { name: 'rightUpperArm', from: 'rightShoulder', to: 'rightElbow', radius: 0.03, front: 'chest', bend: { joint: 'rightElbow', far: 'rightHand', sign: 1 } },
  { name: 'leftForearm', from: 'leftElbow', to: 'leftHand', radius: 0.025, front: 'chest', bend: { joint: 'leftElbow', far: 'leftShoulder', sign: 1 } },
  { name: 'rightForearm', from: 'rightElbow', to: 'rightHand', radius: 0.025, front: 'chest', bend: { joint: 'rightElbow', far: 'rightShoulder', sign: 1 } },
  { name: 'leftPelvis', from: 'pelvis', to: 'leftHip', radius: 0.05, front: 'pelvis' },
  { name: 'rightPelvis', from: 'pelvis', to: 'rightHip', radius: 0.05, front: 'pelvis' },
  { name: 'leftThigh', from: 'leftHip', to: 'leftKnee', radius: 0.045, front: 'leftLeg', bend: { joint: 'leftKnee', far: 'leftFoot', sign: -1 } },
  { name: 'rightThigh', from: 'rightHip', to: 'rightKnee', radius: 0.045, front: 'rightLeg', bend: { joint: 'rightKnee', far: 'rightFoot', sign: -1 } },
  { name: 'leftShin', from: 'leftKnee', to: 'leftFoot', radius: 0.035, front: 'leftLeg', bend: { joint: 'leftKnee', far: 'leftHip', sign: -1 } },
  { name: 'rightShin', from: 'rightKnee', to: 'rightFoot', radius: 0.035, front: 'rightLeg', bend: { joint: 'rightKnee', far: 'rightHip', sign: -1 } },
];

/**
 * Reference fronts, each (left − right) × (high − low). The chest's comes from the
 * shoulders and the upper spine, the pelvis's from the hips and the lower spine. A
 * leg's is the knee hinge's: the hip axis crossed with the thigh, which stays
 * right however the spine bends (the knees bend about that axis, see `angleLimits`).
 */
export const frontReferences = {
  chest: { left: 'leftShoulder', right: 'rightShoulder', low: 'chest', high: 'neck' },
  pelvis: { left: 'leftHip', right: 'rightHip', low: 'pelvis', high: 'chest' },
  leftLeg: { left: 'leftHip', right: 'rightHip', low: 'leftKnee', high: 'leftHip' },
  rightLeg: { left: 'leftHip', right: 'rightHip', low: 'rightKnee', high: 'rightHip' },
} as const satisfies Record<string, { left: RagdollPart; right: RagdollPart; low: RagdollPart; high: RagdollPart }>;

/** Sticks besides the limbs that make the shoulder girdle and the pelvis rigid. */
export const braces: readonly (readonly [RagdollPart, RagdollPart])[] = [
  ['chest', 'leftShoulder'],
  ['chest', 'rightShoulder'],
  ['leftShoulder', 'rightShoulder'],
  ['leftHip', 'rightHip'],
];

/**
 * Sticks between shoulders and hips, as long as in the standing pose times
 * `stretch`: 'max' ones limit the twist of the shoulders against the hips
 * (twisting the spine lengthens both), 'min' ones how far the spine bends forward
 * or back at the pelvis (about 55° each way, with ~30° more above the chest).
 */
export const torsoLimits: readonly { a: RagdollPart; b: RagdollPart; stretch: number; kind: 'min' | 'max' }[] = [
  { a: 'leftShoulder', b: 'leftHip', stretch: 1.04, kind: 'max' },
  { a: 'rightShoulder', b: 'rightHip', stretch: 1.04, kind: 'max' },
  { a: 'leftShoulder', b: 'leftHip', stretch: 0.93, kind: 'min' },
  { a: 'rightShoulder', b: 'rightHip', stretch: 0.93, kind: 'min' },
];

/** Name of an anatomical angle limit. */
export type RagdollJoint =
  | 'neck'
  | 'upperSpine'
  | 'leftLowerSpine'
  | 'rightLowerSpine'
  | 'leftShoulder'
  | 'rightShoulder'
  | 'leftElbow'
  | 'rightElbow'
  | 'leftHipSpread'
  | 'rightHipSpread'
  | 'leftHipFlexion'
  | 'rightHipFlexion'
  | 'leftKnee'
  | 'rightKnee';

/**
 * An angle limit at `middle` between the arms to `a` and `b`, in degrees. A
 * `hinge` makes the joint bend one way about the axis from `hinge.axis[0]` to
 * `hinge.axis[1]` (see `addAngleConstraint`), up to `tolerance` degrees the other way.
 */
export interface AngleLimitSpec {
  name: RagdollJoint;
  a: RagdollPart;
  middle: RagdollPart;
  b: RagdollPart;
  min: number;
  max: number;
  hinge?: { axis: readonly [RagdollPart, RagdollPart]; tolerance: number; sideways?: number };
}

// Ranges: the neck tilts up to ~50°, the upper spine ~30° and the lower spine
// sideways ~25°; arms swing nearly free but stay out of the neck; elbows and knees
// flex to ~150° and ~145°; hips spread by ~40° (the knees' min stick stops them
// crossing) and flex forward ~110°. Knees are one-way hinges about the hip axis
// (pointing to the figure's left): they bend backward only (how far they lean
// sideways, the thigh's twist, is the hips' twist limits', `twistLimits`), and
// hyperextend up to 4°: a leg lying straight rests on the thigh's thicker capsule,
// and with 2° the foot could not reach the ground, so the hinge held the shin up
// every substep and that push made the body creep (of 795 random drops from 1.2 m, 9
// still had a part moving at 9–18 cm/s 8 s after landing; with 4°, none; one of them
// is in test/core/ragdollLimits.test.ts).
// Hips extend backward at most ~25°. The elbows' one-way hinge is not an angle
// row: its fold direction is carried with the upper arm (see `elbowHinge.ts`).
export const angleLimits: readonly AngleLimitSpec[] = [
  { name: 'neck', a: 'head', middle: 'neck', b: 'chest', min: 120, max: 180 },
  { name: 'upperSpine', a: 'neck', middle: 'chest', b: 'pelvis', min: 125, max: 180 },
  { name: 'leftLowerSpine', a: 'chest', middle: 'pelvis', b: 'leftHip', min: 93, max: 143 },
  { name: 'rightLowerSpine', a: 'chest', middle: 'pelvis', b: 'rightHip', min: 93, max: 143 },
  { name: 'leftShoulder', a: 'neck', middle: 'leftShoulder', b: 'leftElbow', min: 35, max: 180 },
  { name: 'rightShoulder', a: 'neck', middle: 'rightShoulder', b: 'rightElbow', min: 35, max: 180 },
  { name: 'leftElbow', a: 'leftShoulder', middle: 'leftElbow', b: 'leftHand', min: 30, max: 180 },
  { name: 'rightElbow', a: 'rightShoulder', middle: 'rightElbow', b: 'rightHand', min: 30, max: 180 },
  { name: 'leftHipSpread', a: 'pelvis', middle: 'leftHip', b: 'leftKnee', min: 70, max: 160 },
  { name: 'rightHipSpread', a: 'pelvis', middle: 'rightHip', b: 'rightKnee', min: 70, max: 160 },
  { name: 'leftHipFlexion', a: 'chest', middle: 'leftHip', b: 'leftKnee', min: 60, max: 180, hinge: { axis: ['leftHip', 'rightHip'], tolerance: 25 } },
  { name: 'rightHipFlexion', a: 'chest', middle: 'rightHip', b: 'rightKnee', min: 60, max: 180, hinge: { axis: ['leftHip', 'rightHip'], tolerance: 25 } },
  { name: 'leftKnee', a: 'leftHip', middle: 'leftKnee', b: 'leftFoot', min: 35, max: 180, hinge: { axis: ['rightHip', 'leftHip'], tolerance: 4 } },
  { name: 'rightKnee', a: 'rightHip', middle: 'rightKnee', b: 'rightFoot', min: 35, max: 180, hinge: { axis: ['rightHip', 'leftHip'], tolerance: 4 } },
];

/**
 * The limits that have friction (see `limitFriction.ts`): the joint, the particle
 * that swings against it, and the body part that holds it (three or more
 * particles not in a line, moving together). Only the neck and shoulders: with
 * friction at the hips too, a leg propped up on its limit crept and then fell
 * over 14 s after landing, at 72 cm/s, in 1 of 60 random drops (3 of 60 with
 * μ = 1); elbows and knees, whose frame would be a single bone, are hinges.
 */
export const limitFrictionLimbs: readonly { joint: RagdollJoint; swinging: RagdollPart; frame: readonly RagdollPart[] }[] = [
  { joint: 'neck', swinging: 'head', frame: ['neck', 'chest', 'leftShoulder', 'rightShoulder'] },
  { joint: 'leftShoulder', swinging: 'leftElbow', frame: ['neck', 'chest', 'leftShoulder', 'rightShoulder'] },
  { joint: 'rightShoulder', swinging: 'rightElbow', frame: ['neck', 'chest', 'leftShoulder', 'rightShoulder'] },
];

/**
 * Self-collision (paper section 6): 'min' sticks that only push, keeping parts
 * that must not pass through each other at least `distance` (fraction of the
 * height) apart, e.g. the knees, so the legs never cross.
 */
export const selfCollisions: readonly { a: RagdollPart; b: RagdollPart; distance: number }[] = [
  { a: 'leftKnee', b: 'rightKnee', distance: 0.09 },
  { a: 'leftFoot', b: 'rightFoot', distance: 0.08 },
  { a: 'leftHand', b: 'rightHand', distance: 0.06 },
  { a: 'leftHand', b: 'chest', distance: 0.1 },
  { a: 'rightHand', b: 'chest', distance: 0.1 },
  { a: 'leftHand', b: 'pelvis', distance: 0.1 },
  { a: 'rightHand', b: 'pelvis', distance: 0.1 },
  { a: 'leftHand', b: 'head', distance: 0.09 },
  { a: 'rightHand', b: 'head', distance: 0.09 },
  { a: 'leftElbow', b: 'chest', distance: 0.09 },
  { a: 'rightElbow', b: 'chest', distance: 0.09 },
  { a: 'leftKnee', b: 'chest', distance: 0.15 },
  { a: 'rightKnee', b: 'chest', distance: 0.15 },
];

/**
 * How far an elbow may bend past straight the wrong way (degrees; see
 * `elbowHinge.ts`). An arm lying straight rests on the upper arm's thicker
 * capsule, and a hinge with no slack would hold the forearm up off the ground.
 * With 5°, a ragdoll shoved down the stairs (test/core/ragdollLimits.test.ts) was
 * still rolling down them at 1.6 m/s more than 3 s after landing; with 10°
 * (within the 0–15° people's elbows hyperextend), at rest by then.
 */
export const ELBOW_HYPEREXTENSION = 10;

/** Name of a twist limit. */
export type RagdollTwist = 'leftShoulderTwist' | 'rightShoulderTwist' | 'leftHipTwist' | 'rightHipTwist';

/**
 * A twist limit of a shoulder (see `twistLimits.ts`) or a hip (see `hipTwist.ts`):
 * the upper arm's or thigh's rotation about itself, read from the plane the elbow
 * or knee (`plane`) bends in. The sideways part of the bend stays within a wedge
 * of half-angle `range` degrees about the hinge's fold direction, widened by
 * `free` degrees of sideways bend allowed at any bend: a joint bent 90° stops
 * twisting at {@link twistStop} degrees, a nearly straight one (whose bend plane
 * means little) may bend `free` sideways. (Past 90°, the shoulders' range, the
 * wedge takes in the sideways bend; `free` widens it at the stop by
 * asin(sin(free)·|cos(range)|), as below 90°, and a nearly straight arm may bend
 * that much any way.) The shoulders' act only with `createRagdoll`'s
 * `elbowHinges` (default true): their fold direction is the elbow hinge's, and
 * without it the elbow bends either way. The hips' fold direction is the knee
 * hinge's (the hip line crossed with the thigh).
 */
export interface TwistLimitSpec {
  name: RagdollTwist;
  bone: RagdollLimbName;
  plane: RagdollJoint;
  range: number;
  free: number;
}

// A person turns the upper arm about 70° inward and 90° outward (elbow bent 90°);
// the limit is symmetric about the hinge's fold direction, which is not the
// anatomical neutral in every pose, and stops at 123° each way: it is there to
// keep a bent elbow from twisting round to bend the wrong way (the elbow hinge,
// with its give for a bent elbow, lets a 90° bend twist to 132°). At 78° (range
// 70°, free 25°) a ragdoll lying on its back or front with a forearm flat on the
// ground beside it (twisted 90°: the elbow folds toward the torso's front, up or
// down) lay on its twist stop: the limit held the forearm up against gravity, the
// ground put it back, the arm slid along the stop. Of 60 seeded random drops, 4
// had a part faster than 5 cm/s from 3 s after landing (12 cm/s still from 6 s),
// and one dropped tipped forward crept at 1.4 cm/s and tipped over 5.9 s after
// landing. Friction on the stop (as `limitFriction.ts` on the cones) held the arm
// but left it hanging on the stop, propping the body: 1 of the 60 flopped over at
// 1.2 m/s, and two of the stairs cases slept only 5 and 25 s after landing. Past
// the ground's 90° a resting arm does not reach its stop. A nearly straight arm
// may bend asin(sin 40°·cos 70°) = 12.7° any way before its twist counts, past
// the 10.6° at which the elbow hinge stops a straight arm bent the wrong way: with
// 25° free (8.3°) the limit met such an arm first and, the wedge behind the fold
// being narrow, pushed it sideways rather than straight, and a straight elbow
// swung the wrong way at 2 m/s bent 16.9° the wrong way (test/core/ragdollElbow.test.ts).
// A person turns the thigh about 35–45° inward and 45–50° outward (the AAOS's
// and Kapandji's ranges, hip and knee flexed 90°); symmetric about the knee
// hinge's fold direction, the hip stops at 40° each way (range 35°, 6° free: the
// few degrees a flexed knee gives sideways). The knee hinge's lean limit
// (|(ŝ − û)·ĥ| ≤ sin 25°), which bounded the thigh's twist before, is off with
// these (see `hipTwist.ts` for why).
export const twistLimits: readonly TwistLimitSpec[] = [
  { name: 'leftShoulderTwist', bone: 'leftUpperArm', plane: 'leftElbow', range: 110, free: 40 },
  { name: 'rightShoulderTwist', bone: 'rightUpperArm', plane: 'rightElbow', range: 110, free: 40 },
  { name: 'leftHipTwist', bone: 'leftThigh', plane: 'leftKnee', range: 35, free: 6 },
  { name: 'rightHipTwist', bone: 'rightThigh', plane: 'rightKnee', range: 35, free: 6 },
];

/**
 * The knee hinge's sideways lean limit (degrees, `AngleOptions.hinge.sideways`)
 * used in place of the hips' twist limits when `createRagdoll`'s `twistLimits` is
 * false: it bounds the thigh's twist to 25° with the knee bent 90° (and
 * asin(sin 25° / sin β) at a bend β), but turns the thigh outward as much as it
 * untwists it (see `hipTwist.ts`).
 */
export const KNEE_LEAN = 25;

/**
 * Where a twist limit stops an elbow bent 90°, in degrees: the root ψ of
 * sin(ψ − range) = sin(free)·|cos(range)| (for a range under 90°, of
 * sin ψ − tan(range)·cos ψ = sin(free)), range + asin(sin(free)·|cos(range)|).
 */
export function twistStop(limit: Pick<TwistLimitSpec, 'range' | 'free'>): number {
  const d = Math.PI / 180;
  return limit.range + Math.asin(Math.sin(limit.free * d) * Math.abs(Math.cos(limit.range * d))) / d;
}
