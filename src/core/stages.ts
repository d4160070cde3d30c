import type { Constraint } from './constraints/constraint.js';
import type { ConstraintId } from './ids.js';
import type { SubstepStage } from './stepContext.js';
import type { World } from './world.js';

/**
 * The built-in kinds of constraint a relaxation pass projects, in this order,
 * whatever order they were created in (docs/architecture.md says what each reads
 * and writes). Within a kind, instances keep the order they were added in. In a
 * pass they come after the tethers and the sticks and before the users'
 * constraints, the body contacts, the colliders and the pins (see `solver.ts`):
 *
 * 1. `volumes`: soft bodies' volume (`constraints/volume.ts`)
 * 2. `angles`: the angle table (`constraints/angleTable.ts`)
 * 3. `planes`: the plane-constraint table (`constraints/planeConstraint.ts`)
 * 4. `capsuleEdges`: capsule edges against the static colliders (`collision/edges.ts`)
 * 5. `collisionTriangles`: solid triangles against the static colliders (`collision/faces.ts`)
 * 6. `tunnellingGuard`: a limb that went through a wall this pass is put back (`collision/sweep.ts`)
 * 7. `ragdollLimits`: ragdolls' twist, hip twist and elbow limits (`bodies/twistLimits.ts`, `hipTwist.ts`, `elbowHinge.ts`)
 * 8. `attachments`: particles held to another body or engine (`BodyAttachment`, `CoupledAttachment`)
 * 9. `selfCollision`: a body against itself, its particle pairs (`collision/selfCollision.ts`)
 * 10. `particleCollisions`: particles against each other (`collision/particleCollisions.ts`)
 *
 * The first seven follow the order a ragdoll builds its parts in (its angle
 * limits, capsule edges and guard, then its twist limits): a body keeps its
 * shape first, its limits then correct what that did. The ones a user adds to
 * bodies (attachments, self- and particle collisions) follow, once the shape of
 * every body has been kept.
 */
export const CONSTRAINT_STAGES = [
  'volumes',
  'angles',
  'planes',
  'capsuleEdges',
  'collisionTriangles',
  'tunnellingGuard',
  'ragdollLimits',
  'attachments',
  'selfCollision',
  'particleCollisions',
] as const;

/**
 * The built-in relaxation constraints projected after the colliders in each
 * pass, before the pins:
 *
 * 1. `selfCollisionHits`: a body's particles against its own triangles
 *    (`collision/selfCollision.ts`). They read where the colliders left the
 *    particles: a corner of a triangle lying on the ground is not pushed back
 *    into it (`pressedIntoCollider`), and the particle falling on it takes the
 *    whole push; where they pushed, the colliders are projected again over
 *    the body. Before the colliders, the ground took back the lower layer's
 *    share of each push, and a 1 mm layer thrown on it passed through. (The
 *    body's particle pairs stay before the colliders: held there too, a
 *    particle resting on the ground went in and out of contact every other
 *    substep between two pushes, and the ground's push back out kept it
 *    moving.)
 */
export const AFTER_COLLIDER_STAGES = ['selfCollisionHits'] as const;

/** A built-in kind of relaxation constraint (see {@link CONSTRAINT_STAGES} and {@link AFTER_COLLIDER_STAGES}). */
export type ConstraintStage = (typeof CONSTRAINT_STAGES)[number] | (typeof AFTER_COLLIDER_STAGES)[number];

/**
 * The built-in stages of a substep, in this order: each one's `afterIntegrate`
 * runs after Verlet integration, before the relaxation passes, and its
 * `afterRelax` after the passes, before contacts turn into velocity.
 *
 * 1. `coupledBodies`: bodies of another engine take their pose for the substep (`colliders/coupledBody.ts`)
 * 2. `kinematicColliders`: kinematic colliders move to the substep's pose (`kinematicColliders.ts`)
 * 3. `rigidMotion`: free rigid bodies turn rigidly instead of along Verlet's chords (`bodies/rigidMotion.ts`)
 * 4. `attachments`: attached particles' pins follow their object (`motion/attachment.ts`, `BodyAttachment`)
 * 5. `selfCollision`: a body's self-contact pairs are listed again where they may have changed (`collision/selfCollision.ts`)
 * 6. `ragdolls`: after the passes, a ragdoll's extra passes, then its limits' friction (`bodies/ownPasses.ts`, `limitFriction.ts`)
 */
export const SUBSTEP_STAGES = ['coupledBodies', 'kinematicColliders', 'rigidMotion', 'attachments', 'selfCollision', 'ragdolls'] as const;

/** A built-in kind of substep stage (see {@link SUBSTEP_STAGES}). */
export type SubstepStageKind = (typeof SUBSTEP_STAGES)[number];

/**
 * Items of several kinds in one flat list that a step walks by index, kept in
 * the declared order of the kinds (then in the order added). Taking one out
 * while a step walks the list leaves `retired` in its place until
 * {@link StageList.compact}: splicing would shift the items behind it under the
 * running loop.
 */
export class StageList<T, K extends string> {
  /** The items in running order; walk it by index. The array is kept (changed in place). */
  readonly items: T[] = [];
  private readonly kinds: K[] = [];
  private retired = false;

  constructor(
    private readonly order: readonly K[],
    private readonly inert: T,
  ) {}

  /** Adds `item` of `kind` after every item of its kind and of the kinds before it. */
  add(kind: K, item: T): void {
    const rank = this.order.indexOf(kind);
    if (rank < 0) throw new RangeError(`stages: unknown kind '${String(kind)}' (one of ${this.order.join(', ')})`);
    let at = this.items.length;
    while (at > 0 && this.order.indexOf(this.kinds[at - 1]!) > rank) at--;
    this.items.splice(at, 0, item);
    this.kinds.splice(at, 0, kind);
  }

  /** True while `item` is in the list. */
  has(item: T): boolean {
    return this.items.includes(item);
  }

  /** Takes `item` out (now, or at the next {@link compact} when `stepping`); false when it was not there. */
  remove(item: T, stepping: boolean): boolean {
    const at = this.items.indexOf(item);
    if (at < 0) return false;
    if (stepping) {
      this.items[at] = this.inert;
      this.retired = true;
    } else {
      this.items.splice(at, 1);
      this.kinds.splice(at, 1);
    }
    return true;
  }

  /** Drops the stand-ins of items removed during a step. */
  compact(): void {
    if (!this.retired) return;
    this.retired = false;
    let kept = 0;
    for (let i = 0; i < this.items.length; i++) {
      if (this.items[i] === this.inert) continue;
      this.items[kept] = this.items[i]!;
      this.kinds[kept++] = this.kinds[i]!;
    }
    this.items.length = kept;
    this.kinds.length = kept;
  }
}

const INERT_CONSTRAINT: Constraint = { project: () => {} };
const INERT_STAGE: SubstepStage = { afterIntegrate: () => {} };

/**
 * The world's declared step order for its built-in parts: the relaxation
 * constraints ({@link CONSTRAINT_STAGES}) and the substep stages
 * ({@link SUBSTEP_STAGES}). The users' constraints are in `world.constraints`,
 * projected after the built-in ones.
 *
 * @example
 * ```ts
 * const id = addBuiltinConstraint(world, 'angles', table); // world.remove(id) takes it out
 * addSubstepStage(world, 'rigidMotion', motion);
 * ```
 */
export class Stages {
  /** Built-in relaxation constraints, in {@link CONSTRAINT_STAGES} order. */
  readonly constraints = new StageList<Constraint, ConstraintStage>(CONSTRAINT_STAGES, INERT_CONSTRAINT);
  /** Built-in relaxation constraints projected after the colliders, in {@link AFTER_COLLIDER_STAGES} order. */
  readonly afterColliders = new StageList<Constraint, ConstraintStage>(AFTER_COLLIDER_STAGES, INERT_CONSTRAINT);
  /** Substep stages, in {@link SUBSTEP_STAGES} order. */
  readonly substep = new StageList<SubstepStage, SubstepStageKind>(SUBSTEP_STAGES, INERT_STAGE);
  /** Registry id → built-in constraint. */
  readonly ids = new Map<number, Constraint>();

  /** Drops what was removed during the step that just ended. */
  compact(): void {
    this.constraints.compact();
    this.afterColliders.compact();
    this.substep.compact();
  }
}

/**
 * Adds a built-in relaxation constraint of `kind` to `world` and returns its id
 * (`world.remove(id)` takes it out): it runs in its kind's place of
 * {@link CONSTRAINT_STAGES}, not in the users' constraint list.
 */
export function addBuiltinConstraint(world: World, kind: ConstraintStage, constraint: Constraint): ConstraintId {
  const stages = world.stages;
  const list = (AFTER_COLLIDER_STAGES as readonly string[]).includes(kind) ? stages.afterColliders : stages.constraints;
  const id = world.registry.issue({
    remove: (gone: number) => {
      world.registry.release(gone);
      stages.ids.delete(gone);
      list.remove(constraint, world.lists.stepping);
    },
  });
  stages.ids.set(id, constraint);
  list.add(kind, constraint);
  return id;
}

/** Adds a substep stage of `kind` to `world` (in its place of {@link SUBSTEP_STAGES}); safe to add once only. */
export function addSubstepStage(world: World, kind: SubstepStageKind, stage: SubstepStage): void {
  world.stages.substep.add(kind, stage);
}

/** Takes `stage` out of `world`'s substep stages if it is there: safe to call twice. */
export function dropSubstepStage(world: World, stage: SubstepStage): void {
  world.stages.substep.remove(stage, world.lists.stepping);
}
