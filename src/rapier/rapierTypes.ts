// The parts of Rapier (@dimforge/rapier3d-compat 0.19) the bridge uses, as
// structural types: the bridge works with whatever Rapier module the
// application loaded (@react-three/rapier bundles its own copy) without
// importing one, so `sinew-physics/rapier` pulls no Rapier into a bundle by itself.

/** A vector as Rapier hands it out. */
export interface RapierVector {
  x: number;
  y: number;
  z: number;
}

/** A rotation as Rapier hands it out (a unit quaternion). */
export interface RapierRotation extends RapierVector {
  w: number;
}

/** A symmetric 3 × 3 matrix as Rapier hands it out (`SdpMatrix3`). */
export interface RapierSymmetricMatrix {
  readonly m11: number;
  readonly m12: number;
  readonly m13: number;
  readonly m22: number;
  readonly m23: number;
  readonly m33: number;
}

/** A Rapier rigid body (`RigidBody`). */
export interface RapierBodyLike {
  readonly handle: number;
  isDynamic(): boolean;
  invMass(): number;
  effectiveWorldInvInertia(): RapierSymmetricMatrix;
  gravityScale(): number;
  translation(): RapierVector;
  rotation(): RapierRotation;
  worldCom(): RapierVector;
  localCom(): RapierVector;
  linvel(): RapierVector;
  angvel(): RapierVector;
  setTranslation(translation: RapierVector, wakeUp: boolean): void;
  setRotation(rotation: RapierRotation, wakeUp: boolean): void;
  setLinvel(velocity: RapierVector, wakeUp: boolean): void;
  setAngvel(velocity: RapierVector, wakeUp: boolean): void;
}

/** A Rapier collider (`Collider`). */
export interface RapierColliderLike {
  readonly handle: number;
  shapeType(): number;
  translation(): RapierVector;
  rotation(): RapierRotation;
  /** Its position in its parent body's frame (null without a parent). */
  translationWrtParent(): RapierVector | null;
  /** Its rotation in its parent body's frame (null without a parent). */
  rotationWrtParent(): RapierRotation | null;
  isSensor(): boolean;
  isEnabled(): boolean;
  friction(): number;
  parent(): RapierBodyLike | null;
  radius(): number;
  halfHeight(): number;
  halfExtents(): RapierVector;
  vertices(): Float32Array;
  indices(): Uint32Array | undefined | null;
}

/** A Rapier world (`World`). */
export interface RapierWorldLike {
  gravity: RapierVector;
  timestep: number;
  /** Rapier's substeps per step (0.19: default 4); absent in older versions, read as 1. */
  numSolverIterations?: number;
  step(): void;
  forEachCollider(f: (collider: RapierColliderLike) => void): void;
  getRigidBody(handle: number): RapierBodyLike | null | undefined;
}

/** Rapier's `ShapeType` numbers that sinew follows (the same from 0.12 through 0.19). */
export const RapierShape = {
  Ball: 0,
  Cuboid: 1,
  Capsule: 2,
  TriMesh: 6,
  ConvexPolyhedron: 9,
} as const;

/** Names of Rapier's `ShapeType` numbers, for messages. */
export const RAPIER_SHAPE_NAMES: Readonly<Record<number, string>> = {
  0: 'Ball',
  1: 'Cuboid',
  2: 'Capsule',
  3: 'Segment',
  4: 'Polyline',
  5: 'Triangle',
  6: 'TriMesh',
  7: 'HeightField',
  9: 'ConvexPolyhedron',
  10: 'Cylinder',
  11: 'Cone',
  12: 'RoundCuboid',
  13: 'RoundTriangle',
  14: 'RoundCylinder',
  15: 'RoundCone',
  16: 'RoundConvexPolyhedron',
  17: 'HalfSpace',
  18: 'Voxels',
};
