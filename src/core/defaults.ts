import type { StickKernel } from './wasm/stickKernel.js';

// The physical and tuning defaults of the world and of what is added to it, in
// one place: the constructors, the add and create functions, the three.js and
// React layers read them here, so each default has one owner.

/**
 * The one definition of the world settings' defaults: `new World()` uses them,
 * and the React layer derives its `<World>` defaults from them (changing only
 * what it documents: sleeping on, a looser rest speed).
 */
export const WORLD_DEFAULTS = {
  /** Acceleration of gravity (m/s²). */
  gravity: [0, -9.81, 0] as const,
  /** The fixed step (s). */
  timeStep: 1 / 60,
  /** Relaxation passes per substep. */
  iterations: 1,
  /** Substeps per step. */
  substeps: 10,
  /** Per-second drag k of the damped Verlet step (1/s): none. */
  damping: 0,
  /** The paper's square-root approximation in the stick pass: off. */
  sqrtApprox: false,
  /** Most steps per `advance()` call. */
  maxStepsPerAdvance: 5,
  /** Seed of the world's random generator. */
  seed: 0x5eed,
  /** Per-frame time budget (ms): 0, off. */
  budgetMs: 0,
  /** Fewest substeps a time budget may leave. */
  minSubsteps: 1,
  /** Fewest relaxation passes a time budget may leave. */
  minIterations: 1,
  /** Put resting bodies to sleep: off. */
  sleep: false,
  /** Speed (m/s) below which a particle counts as resting. */
  sleepSpeed: 0.01,
  /** Time (s) a body must rest before it sleeps. */
  sleepTime: 0.5,
  /** The stick kernel. */
  kernel: 'wasm' as StickKernel,
  /** Most speed (m/s) a contact's push-out may give a particle. */
  maxPushOutSpeed: 3,
  /** Approach speed (m/s) below which contacts do not bounce. */
  restitutionThreshold: 0.5,
  /** Long-range attachments (tethers) to anchors: on. */
  tethers: true,
};

/** What `addParticle` gives a particle whose options leave these out; the bodies' particles too, unless their builder says otherwise. */
export const PARTICLE_DEFAULTS = {
  /** Mass (kg). */
  mass: 1,
  /** Collision radius (m): a point. */
  radius: 0,
  /** Coulomb friction coefficient μ against colliders. */
  friction: 0.5,
  /** Bounciness in [0, 1]: none. */
  restitution: 0,
} as const;

/** What `addStick` gives a stick whose options leave these out (its length: the particles' distance now); the bodies' sticks too (a cloth's families, a rope's segments). */
export const STICK_DEFAULTS = {
  /** Share of the error a pass corrects (deprecated option). */
  stiffness: 1,
  /** Pushes and pulls. */
  kind: 'equal',
  /** Rigid (m/N). */
  compliance: 0,
  /** No dashpot (N·s/m). */
  damping: 0,
} as const;

/** What `addPin` gives a pin whose options leave these out; the pins a cloth or rope makes too. */
export const PIN_DEFAULTS = {
  /** Rigid (m/N). */
  compliance: 0,
  /** No dashpot (N·s/m). */
  damping: 0,
} as const;

/** What a collider gets when its shape leaves these out (a contact's μ is the particle's × the collider's, its restitution the larger of the two). */
export const COLLIDER_DEFAULTS = {
  /** Coulomb friction coefficient μ. */
  friction: 1,
  /** Bounciness in [0, 1]: none. */
  restitution: 0,
} as const;

/** What `addAngleConstraint` gives a limit whose options leave these out. */
export const ANGLE_DEFAULTS = {
  /** Smallest angle at the middle particle (rad): none. */
  min: 0,
  /** Largest angle at the middle particle (rad): straight. */
  max: Math.PI,
  /** Share of the error a pass repairs, in (0, 1]. */
  stiffness: 1,
  /** A hard limit (rad/(N·m)). */
  compliance: 0,
  /** How far (rad) the hinge plane may tilt before the hinge pushes back. */
  hingeTolerance: 0,
  /** How far (rad) the far limb may lean out of the hinge plane: π/2, unlimited. */
  hingeSideways: Math.PI / 2,
} as const;

/** What `addPlaneConstraint` gives a plane limit whose options leave these out. */
export const PLANE_CONSTRAINT_DEFAULTS = {
  /** The plane's offset along its normal (m). */
  offset: 0,
  /** Which side the particles are held on. */
  mode: 'on',
  /** Share of the distance a pass repairs, in (0, 1]. */
  stiffness: 1,
  /** Hard (m/N). */
  compliance: 0,
} as const;

/** What a `VolumeConstraint` gets when its options leave these out. */
export const VOLUME_DEFAULTS = {
  /** Share of the volume error a pass repairs, in [0, 1]. */
  pressure: 1,
  /** Target volume as a multiple of the rest volume. */
  inflation: 1,
  /** Incompressible, as far as `pressure` repairs it (m³/Pa). */
  compliance: 0,
} as const;

/** What `attach` gives an attachment whose options leave these out. */
export const ATTACHMENT_DEFAULTS = {
  /** Rigid links (m/N). */
  compliance: 0,
  /** No dashpot beside the spring (N·s/m). */
  damping: 0,
} as const;

/** What a `BodyAttachment` gives its links when its options leave these out. */
export const BODY_ATTACHMENT_DEFAULTS = {
  /** Rigid links (m/N). */
  compliance: 0,
} as const;

/** What `Springs.add` gives a spring whose options leave these out. */
export const SPRING_DEFAULTS = {
  /** No damping along the spring (N·s/m). */
  damping: 0,
} as const;

/** What `Buoyancy` takes when its options leave these out. */
export const BUOYANCY_DEFAULTS = {
  /** Density of the liquid (kg/m³): water. */
  density: 1000,
  /** Drag of the liquid on what is submerged (1/s). */
  drag: 3,
} as const;

/** What `GravitationalForce` takes when its options leave these out. */
export const GRAVITATION_DEFAULTS = {
  /** The gravitational constant (N·m²/kg²), the real one. */
  G: 6.674e-11,
  /** Softening length (m): the exact law. */
  softening: 0,
} as const;

/** What `ElectricForce` takes when its options leave these out. */
export const ELECTRIC_DEFAULTS = {
  /** Coulomb's constant (N·m²/C²), the real one. */
  K: 8.9875517923e9,
  /** Softening length (m): the exact law. */
  softening: 0,
} as const;

/** What `createWind` takes when its options leave these out. */
export const WIND_DEFAULTS = {
  /** Factor on the course notes' force (kg/m³ if read as an air density). */
  coefficient: 1,
  /** Relative strength of gusts: steady. */
  gust: 0,
  /** Gusts per second (Hz). */
  gustFrequency: 0.5,
  /** Relative strength of turbulence: none. */
  turbulence: 0,
  /** Size of the turbulent eddies (m). */
  turbulenceScale: 1,
} as const;

/** What an `Attractor` takes when its options leave these out. */
export const ATTRACTOR_DEFAULTS = {
  /** Reach (m): the same pull everywhere. */
  radius: Infinity,
} as const;

/** What `explode` takes when its options leave these out (`maxPush` defaults to ∛strength). */
export const EXPLOSION_DEFAULTS = {
  /** Reach (m): every particle is pushed. */
  radius: Infinity,
} as const;

/** What `createCloth` gives a cloth whose options leave these out (its sticks get {@link STICK_DEFAULTS}, its pins {@link PIN_DEFAULTS}, its particles {@link PARTICLE_DEFAULTS}). */
export const CLOTH_DEFAULTS = {
  /** Distance between neighbouring particles (m). */
  spacing: 0.1,
  /** Areal density (kg/m²) given no mass or material: a light woven cotton. */
  arealDensity: 0.15,
  /** Hanging like a curtain. */
  orientation: 'vertical',
  /** Pinned particles: none. */
  pin: 'none',
  /** Other bodies collide with the cloth's triangles. */
  surfaceContacts: true,
} as const;

/** What `createRope` gives a rope whose options leave these out (its segments get {@link STICK_DEFAULTS}, its end pins {@link PIN_DEFAULTS}). */
export const ROPE_DEFAULTS = {
  /** Linear density (kg/m) given no mass or material: a 10 mm climbing rope, rounded up for its sheath. */
  linearDensity: 0.1,
  /** A chain of rods that also resists compression. */
  kind: 'equal',
  /** The segments collide with other bodies' surfaces. */
  segmentContacts: true,
} as const;

/** What `createSoftBody` gives a soft body whose options leave these out (its volume gets {@link VOLUME_DEFAULTS}). */
export const SOFT_BODY_DEFAULTS = {
  /** The shape. */
  shape: 'sphere',
  /** Edge length of the box or diameter of the sphere (m). */
  size: 1,
  /** Squares per box edge. */
  boxResolution: 3,
  /** Icosphere subdivisions of the sphere (2: 162 particles). */
  sphereResolution: 2,
  /** Stiffness in (0, 1] of the surface sticks given no compliance: a jelly. */
  stiffness: 0.1,
  /** Stiffness in (0, 1] of the surface sticks given a compliance. */
  stiffnessWithCompliance: 1,
  /** Compliance of the surface sticks (m/N): none beyond `stiffness`. */
  compliance: 0,
} as const;

/** What the rigid builders (`createBox`, `createTetrahedron`, `createConvex`) give a body whose options leave these out. */
export const RIGID_DEFAULTS = {
  /** Edge length of a box or tetrahedron (m). */
  size: 1,
  /** Density (kg/m³) given no mass: a light wood. */
  density: 500,
  /** Mass (kg) of a flat body given neither mass nor density (it spans no volume). */
  flatMass: 1,
  /** Collision radius of each vertex particle (m). */
  radius: 0,
  /** Coulomb friction coefficient of each vertex particle: a particle's. */
  friction: PARTICLE_DEFAULTS.friction,
  /** Bounciness of each vertex particle, in [0, 1]: a particle's. */
  restitution: PARTICLE_DEFAULTS.restitution,
  /** The surface edges collide as capsules. */
  collideEdges: true,
  /** Fewest relaxation passes per substep a body gets given no `iterations` (fewer let a box stopped by a wall spring back: see `RIGID_MIN_ITERATIONS`). */
  minIterations: 4,
} as const;

/** What `createRagdoll` gives a figure whose options leave these out. */
export const RAGDOLL_DEFAULTS = {
  /** Height (m). */
  height: 1.8,
  /** Mass (kg) of a figure {@link RAGDOLL_DEFAULTS.massHeight} tall; other heights scale it with the cube of the height. */
  mass: 70,
  /** Height (m) of the figure that weighs {@link RAGDOLL_DEFAULTS.mass}. */
  massHeight: 1.75,
  /** The pose it starts in. */
  pose: 'standing',
  /** Coulomb friction coefficient of every particle: a particle's. */
  friction: PARTICLE_DEFAULTS.friction,
  /** Bounciness of every particle, in [0, 1]: a particle's. */
  restitution: PARTICLE_DEFAULTS.restitution,
  /** Stiffness of the angle limits, in (0, 1]. */
  angleStiffness: 1,
  /** Per-second damping of the limbs' motion relative to the body (1/s). */
  jointDamping: 2,
  /** Most extra relaxation passes per substep over the ragdoll's own constraints. */
  ownPasses: 16,
  /** Coulomb friction coefficient of the joints pressed against their limits. */
  limitFriction: 0.5,
  /** How far (degrees) a hinged limb may lean out of its hinge plane where its table says nothing: 90, unlimited. */
  hingeSideways: 90,
  /** The elbows are one-way hinges. */
  elbowHinges: true,
  /** The thighs' and upper arms' twist is limited. */
  twistLimits: true,
  /** 'min' sticks stop limbs passing through each other. */
  selfCollision: true,
  /** Every limb collides as a capsule. */
  capsules: true,
  /** The paper's fast-object guards. */
  protectFromTunnelling: true,
} as const;

/** What `createPlant` gives a blade whose options leave these out. */
export const PLANT_DEFAULTS = {
  /** Length of the blade (m). */
  height: 0.5,
  /** Levels above the foot. */
  segments: 6,
  /** Width at the foot (m). */
  width: 0.1,
  /** The way the blade grows: up. */
  direction: [0, 1, 0],
  /** The way its width runs. */
  across: [1, 0, 0],
  /** Stiffness in (0, 1] of the support sticks. */
  stiffness: 0.5,
  /** Relaxation passes per substep: the paper's plants used one. */
  iterations: 1,
} as const;

/** What the three.js layer's `AnimatedRagdoll` takes when its options leave these out. */
export const ANIMATED_RAGDOLL_DEFAULTS = {
  /** How hard the particles hold to the animated pose, in [0, 1]: limp, a plain ragdoll once hit. */
  strength: 0,
  /** Speed (m/s) of another body's particle about to reach a limb at which the ragdoll turns physical. */
  strikeSpeed: 2,
} as const;
