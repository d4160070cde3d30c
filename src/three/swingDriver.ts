import { Matrix4, Quaternion, Vector3, type Object3D } from 'three';
import type { World } from '../core/world.js';
import { frame, normalizeInPlace, setVector, turnBetween } from './swingMath.js';

/**
 * A bone posed from a stick figure's particles by {@link SwingDriver}. It turns so
 * that it points from its joint at particle `to`; its joint stays where its parent
 * puts it unless a particle carries it (`at`, or a `root`).
 */
export interface SwungBone {
  /** The bone to pose (its `matrixAutoUpdate` should be false while driven). */
  bone: Object3D;
  /** The driven ancestor whose turn the bone inherits when it has no `side` (posed before it). */
  parent: Object3D | null;
  /** Particle the bone points at from its joint. */
  to: number;
  /** For the root: the particle its joint is carried by (kept at its bind offset). */
  root?: { at: number; from: number };
  /**
   * The particle that carries the bone's joint, kept at its bind offset in the bone's
   * turned frame, instead of the place its parent puts it: the bone then lies on its
   * particle however the bones above it bent (the gap goes into the joint with its
   * parent, a stretch of the skin there, or is spread over a `blend` chain ending at it).
   */
  at?: number;
  /**
   * Particles `[left, right]` giving the bone's side, so it turns fully with
   * them (the pelvis with the hips, the chest with the shoulders); without it
   * the bone only swings against its parent and never twists.
   */
  side?: readonly [number, number];
  /**
   * The particle the aim starts from (default the bone's joint): the bone then
   * turns as the ragdoll's limb does, wherever the bones above have put its joint.
   * With a `side` its turn comes from particles alone, so the bones of a `blend`
   * can use it before the bone itself is placed.
   */
  from?: number;
  /**
   * Turn by `share` of the way (a slerp) from bone `from`'s turn to bone `to`'s,
   * both bones of this driver with a `side` and a `root` or `from` particle (the
   * pelvis and the chest), instead of aiming at `to`: the spine bones between them
   * then share the trunk's bend and twist, where one joint taking it all (66° and
   * more) pulls the skin of a short, thick spine segment off its bind distances.
   */
  blend?: { from: Object3D; to: Object3D; share: number };
  /**
   * Without a `side`: the share of its swing the bone takes, in [0, 1] (default 1),
   * leaving the rest to a driven child aimed at the same particle (the neck half
   * the head's nod, the head the other half), so no one joint bends the whole way.
   */
  share?: number;
}

interface Bound {
  readonly spec: SwungBone;
  /** The bone's world rotation at bind. */
  readonly rotation: Quaternion;
  /** The parent's world rotation at bind. */
  readonly parentRotation: Quaternion;
  /** Bind rotation relative to the parent's. */
  readonly relative: Quaternion;
  /** The aim at bind, in the parent's space (no side) or in the world (with a side). */
  readonly aim: Vector3;
  /** The side at bind (world). */
  readonly side: Vector3;
  /** With a carrying particle (`at` or a root): joint minus that particle at bind, in the bone's space. */
  readonly offset: Vector3;
  /** The carrying particle, -1 without one. */
  readonly at: number;
  /**
   * A bone of a `blend` chain whose far bone is carried by a particle: the share of
   * the chain's gap (its far joint's place by the particle minus by the chain) it takes.
   */
  spread: number;
  /** The first bone of such a chain: indices of the chain's bones in order, the carried far bone last. */
  chain: Int32Array | null;
  /** World turn from bind, for bones whose turn comes from particles alone (a `side` with a `root` or `from`). */
  readonly delta: Quaternion;
  /** True when `delta` is found before any bone is placed. */
  readonly early: boolean;
  /** Its place in the driver's order (the index of its share in `shares`). */
  readonly index: number;
  /** `spec.from`, or -1 without one. */
  readonly from: number;
  /** True when it takes part of its swing only (a `share` below 1). */
  readonly partial: boolean;
  /** Indices (in the driver's order) of the blend's two bones, -1 without a blend. */
  readonly blendFrom: number;
  readonly blendTo: number;
}

/**
 * Poses bones from a stick figure so that skinning stays right. A joint stays
 * where its parent bone puts it, so the bones on either side of it agree on its
 * place (with dual quaternion skinning every vertex between them keeps its
 * distance from it), unless a particle carries it (`at`): then the bone lies on
 * its particle and the joint with its parent stretches by what the two disagree.
 * Each bone turns to point at its particle: by the shortest turn against its parent (a swing: a stick figure does not know a
 * limb's twist, and a twist read from the bend of an elbow without a hinge can
 * turn an upper arm half round against the shoulder and collapse the skin there),
 * or, given a `side`, fully with the particles (the pelvis and chest, whose
 * turn the hips and shoulders do give). Parents must come before their
 * children. Allocates nothing per update.
 */
export class SwingDriver {
  private readonly bound: Bound[];
  private readonly rotation = new Quaternion();
  private readonly parentRotation = new Quaternion();
  private readonly swing = new Quaternion();
  private readonly inverse = new Quaternion();
  private readonly identity = new Quaternion();
  private readonly slerped = new Float64Array(4);
  /** Each bone's blend share, or the share of its swing it takes (1 without either). */
  private readonly shares: Float64Array;
  private readonly aim = new Vector3();
  private readonly side = new Vector3();
  private readonly origin = new Vector3();
  private readonly position = new Vector3();
  private readonly scale = new Vector3();
  private readonly unit = new Vector3(1, 1, 1);
  private readonly parentInverse = new Matrix4();
  private readonly basis = new Matrix4();
  private readonly bindBasis = new Matrix4();
  /** The gap of the `blend` chain being posed, and the turn that swings the chain onto its far joint (see `chainGap`). */
  private readonly gap = new Vector3();
  private readonly chainTurn = new Quaternion();
  private readonly chainStart = new Vector3();

  /** Throws a `RangeError` for a blend whose share is outside [0, 1] or whose bones are not early-turned bones of this driver. */
  constructor(bones: readonly SwungBone[]) {
    const early = (spec: SwungBone) => spec.side !== undefined && (spec.root !== undefined || spec.from !== undefined);
    const indexOf = (bone: Object3D, of: Object3D) => {
      const i = bones.findIndex((b) => b.bone === bone);
      if (i < 0 || !early(bones[i]!))
        throw new RangeError(`SwingDriver: ${of.name || 'a bone'} blends with ${bone.name || 'a bone'}, which is not a bone of the driver with a side and a root or from particle`);
      return i;
    };
    // Shares in a typed array, read as raw doubles in the per-frame slerp.
    this.shares = Float64Array.from(bones, (spec) => spec.blend?.share ?? spec.share ?? 1);
    this.bound = bones.map((spec, index) => {
      const blend = spec.blend;
      if (blend && !(blend.share >= 0 && blend.share <= 1)) throw new RangeError(`SwingDriver: ${spec.bone.name || 'a bone'}'s blend share must be in [0, 1], got ${String(blend.share)}`);
      if (spec.share !== undefined && !(spec.share >= 0 && spec.share <= 1)) throw new RangeError(`SwingDriver: ${spec.bone.name || 'a bone'}'s share must be in [0, 1], got ${String(spec.share)}`);
      return {
        spec,
        rotation: new Quaternion(),
        parentRotation: new Quaternion(),
        relative: new Quaternion(),
        aim: new Vector3(),
        side: new Vector3(),
        offset: new Vector3(),
        at: spec.root ? spec.root.at : (spec.at ?? -1),
        spread: 0,
        chain: null,
        delta: new Quaternion(),
        early: early(spec),
        index,
        from: spec.from ?? -1,
        partial: spec.share !== undefined && spec.share < 1,
        blendFrom: blend ? indexOf(blend.from, spec.bone) : -1,
        blendTo: blend ? indexOf(blend.to, spec.bone) : -1,
      };
    });
    this.spreadChains();
  }

  /**
   * Finds each `blend` chain that runs unbroken, parent to child, into a `to` bone
   * carried by a particle, and shares that chain's gap evenly among its joints (see
   * `chainGap`): each bone of the chain shifts by its share more than its parent, so
   * every joint from the chain's first to the `to` bone's stretches alike.
   */
  private spreadChains(): void {
    for (const far of this.bound) {
      if (far.at < 0 || far.spec.root) continue;
      const members = this.bound.filter((b) => b.blendTo === far.index);
      if (members.length === 0) continue;
      const chain: Bound[] = [];
      let link = far.spec.bone.parent;
      while (link) {
        const member = members.find((m) => m.spec.bone === link);
        if (!member) break;
        chain.unshift(member);
        link = link.parent;
      }
      if (chain.length !== members.length) continue;
      for (const b of chain) b.spread = 1 / (chain.length + 1);
      chain[0]!.chain = Int32Array.from([...chain.map((b) => b.index), far.index]);
    }
  }

  /**
   * Records each bone against its parent and its particles, which lie at `pose` (xyz per
   * particle from slot `first`: the pose a `CharacterDriver` turned physical in); the bones
   * must be in that pose now.
   */
  bind(pose: Float64Array, first: number): void {
    // The specs name slots; `pose` starts at slot `first`.
    const pos = pose;
    const base = first * 3;
    for (const b of this.bound) {
      const { bone, parent, to, root, side } = b.spec;
      bone.updateWorldMatrix(true, false);
      bone.matrixWorld.decompose(this.origin, b.rotation, this.scale);
      if (parent) parent.matrixWorld.decompose(this.position, b.parentRotation, this.scale);
      else b.parentRotation.identity();
      b.relative.copy(b.parentRotation).invert().multiply(b.rotation);
      const start = root ? root.from : (b.spec.from ?? -1);
      const o = start * 3;
      const ox = start >= 0 ? pos[o - base]! : this.origin.x;
      const oy = start >= 0 ? pos[o + 1 - base]! : this.origin.y;
      const oz = start >= 0 ? pos[o + 2 - base]! : this.origin.z;
      b.aim.set(pos[to * 3 - base]! - ox, pos[to * 3 + 1 - base]! - oy, pos[to * 3 + 2 - base]! - oz).normalize();
      if (side)
        b.side.set(pos[side[0] * 3 - base]! - pos[side[1] * 3 - base]!, pos[side[0] * 3 + 1 - base]! - pos[side[1] * 3 + 1 - base]!, pos[side[0] * 3 + 2 - base]! - pos[side[1] * 3 + 2 - base]!);
      else b.aim.applyQuaternion(this.inverse.copy(b.parentRotation).invert());
      if (b.at >= 0) {
        const p = b.at * 3;
        b.offset.set(this.origin.x - pos[p - base]!, this.origin.y - pos[p + 1 - base]!, this.origin.z - pos[p + 2 - base]!).applyQuaternion(this.inverse.copy(b.rotation).invert());
      }
    }
  }

  /** Poses every bone from the particles: writes `matrix` and `matrixWorld` only. */
  update(world: World): void {
    const pos = world.particles.position;
    // First the turns that the particles alone give (pelvis, chest), which the blended bones between them need.
    for (let i = 0; i < this.bound.length; i++) {
      const b = this.bound[i]!;
      if (!b.early) continue;
      const start = b.spec.root ? b.spec.root.from : b.from;
      setVector(this.origin, pos, start * 3, -1);
      if (this.sideTurn(b, pos)) b.delta.copy(this.swing);
    }
    for (let i = 0; i < this.bound.length; i++) {
      const b = this.bound[i]!;
      const bone = b.spec.bone;
      const holder = bone.parent;
      if (b.chain) this.chainGap(b.chain, pos);
      if (!this.turn(b, pos)) continue;
      if (b.at >= 0) {
        const p = b.at * 3;
        this.origin.copy(b.offset).applyQuaternion(this.rotation);
        this.origin.x += pos[p]!;
        this.origin.y += pos[p + 1]!;
        this.origin.z += pos[p + 2]!;
      } else if (b.spread > 0) {
        // Written out: a share passed to addScaledVector would be boxed (see `slerpTurn`).
        const share = b.spread;
        this.origin.x += this.gap.x * share;
        this.origin.y += this.gap.y * share;
        this.origin.z += this.gap.z * share;
      }
      bone.matrixWorld.compose(this.origin, this.rotation, this.unit);
      if (holder) bone.matrix.multiplyMatrices(this.parentInverse.copy(holder.matrixWorld).invert(), bone.matrixWorld);
      else bone.matrix.copy(bone.matrixWorld);
    }
  }

  /** The bone's joint (into `origin`) and turn (into `rotation`) from the particles; false when it has no direction. */
  private turn(b: Bound, pos: Float64Array): boolean {
    const { bone, parent, to, root, side } = b.spec;
    const holder = bone.parent;
    // The joint: where the parent puts it (a bone between it and the driven parent brought up to date first).
    if (holder && holder !== parent) holder.updateWorldMatrix(true, false);
    if (holder) this.origin.copy(bone.position).applyMatrix4(holder.matrixWorld);
    else this.origin.copy(bone.position);
    if (root) {
      // The root's joint is carried by its particle; aim from that particle, as the bone's offset is not known yet.
      const p = root.from * 3;
      setVector(this.origin, pos, p, -1);
    }
    if (b.early) {
      this.rotation.copy(b.delta).multiply(b.rotation);
      return true;
    }
    if (b.blendFrom >= 0) {
      this.slerpTurn(b, this.bound[b.blendFrom]!.delta, this.bound[b.blendTo]!.delta);
      if (b.spread > 0) this.rotation.copy(this.chainTurn).multiply(this.swing).multiply(b.rotation);
      else this.rotation.copy(this.swing).multiply(b.rotation);
      return true;
    }
    if (side) {
      // Turned fully with its side particles, aiming from its joint (a side bone with a root or `from` is early).
      if (!this.sideTurn(b, pos)) return false;
      this.rotation.copy(this.swing).multiply(b.rotation);
      return true;
    }
    if (b.from < 0) {
      setVector(this.aim, pos, to * 3, -1);
      this.aim.sub(this.origin);
    } else {
      const t = to * 3;
      const f = b.from * 3;
      this.aim.x = pos[t]! - pos[f]!;
      this.aim.y = pos[t + 1]! - pos[f + 1]!;
      this.aim.z = pos[t + 2]! - pos[f + 2]!;
    }
    if (!normalizeInPlace(this.aim)) return false;
    if (parent) parent.matrixWorld.decompose(this.position, this.parentRotation, this.scale);
    else this.parentRotation.identity();
    this.aim.applyQuaternion(this.inverse.copy(this.parentRotation).invert());
    turnBetween(b.aim, this.aim, this.swing, this.slerped);
    if (b.partial) this.slerpTurn(b, this.identity, this.inverse.copy(this.swing));
    this.rotation.copy(this.parentRotation).multiply(this.swing).multiply(b.relative);
    return true;
  }

  /**
   * Before the first bone of a `blend` chain whose far bone a particle carries: into
   * `chainTurn`, the turn about the first bone's joint that swings the chain's far joint
   * (the bones turned by their blends, each holding its child's joint at the child's
   * local `position`) onto the line to where the particle puts it; into `gap`, what
   * the chain then still lacks in length, along that line. The first bone's parent
   * must be posed already. Uses the scratch `position`, `parentRotation`, `aim`,
   * `side`, `swing` and `inverse`.
   */
  private chainGap(chain: Int32Array, pos: Float64Array): void {
    const first = this.bound[chain[0]!]!;
    const holder = first.spec.bone.parent!;
    holder.matrixWorld.decompose(this.position, this.parentRotation, this.scale);
    const last = chain.length - 1;
    for (let k = 0; k <= last; k++) {
      const b = this.bound[chain[k]!]!;
      this.aim.copy(b.spec.bone.position).applyQuaternion(this.parentRotation);
      this.position.add(this.aim);
      if (k === 0) this.chainStart.copy(this.position);
      if (k === last) break;
      this.slerpTurn(b, this.bound[b.blendFrom]!.delta, this.bound[b.blendTo]!.delta);
      this.parentRotation.copy(this.swing).multiply(b.rotation);
    }
    // The far joint where its particle puts it, into `gap` for now.
    const far = this.bound[chain[last]!]!;
    const p = far.at * 3;
    this.inverse.copy(far.delta).multiply(far.rotation);
    this.gap.copy(far.offset).applyQuaternion(this.inverse);
    this.gap.x += pos[p]!;
    this.gap.y += pos[p + 1]!;
    this.gap.z += pos[p + 2]!;
    // From the chain's start: `aim` to where the chain ends, `side` to where its particle puts it.
    this.aim.subVectors(this.position, this.chainStart);
    this.side.subVectors(this.gap, this.chainStart);
    const reach = Math.sqrt(this.aim.x * this.aim.x + this.aim.y * this.aim.y + this.aim.z * this.aim.z);
    const wanted = Math.sqrt(this.side.x * this.side.x + this.side.y * this.side.y + this.side.z * this.side.z);
    if (!normalizeInPlace(this.aim) || !normalizeInPlace(this.side)) {
      this.chainTurn.identity();
      this.gap.sub(this.position);
      return;
    }
    turnBetween(this.aim, this.side, this.chainTurn, this.slerped);
    const short = wanted - reach;
    this.gap.x = this.side.x * short;
    this.gap.y = this.side.y * short;
    this.gap.z = this.side.z * short;
  }

  /**
   * Into `swing`: the bone's share of the way from turn `a` to turn `c` (spherical), written out so that
   * the share is not passed as a double argument (see "How we work": V8 boxes those).
   */
  private slerpTurn(b: Bound, a: Quaternion, c: Quaternion): void {
    const t = this.shares[b.index]!;
    let cx = c.x;
    let cy = c.y;
    let cz = c.z;
    let cw = c.w;
    let cos = a.x * cx + a.y * cy + a.z * cz + a.w * cw;
    // The shorter way round.
    if (cos < 0) {
      cx = -cx;
      cy = -cy;
      cz = -cz;
      cw = -cw;
      cos = -cos;
    }
    let wa = 1 - t;
    let wc = t;
    if (cos < 0.9999) {
      const angle = Math.acos(cos);
      const sin = Math.sin(angle);
      wa = Math.sin((1 - t) * angle) / sin;
      wc = Math.sin(t * angle) / sin;
    }
    const x = wa * a.x + wc * cx;
    const y = wa * a.y + wc * cy;
    const z = wa * a.z + wc * cz;
    const w = wa * a.w + wc * cw;
    const length = Math.sqrt(x * x + y * y + z * z + w * w);
    const out = this.slerped;
    out[0] = x / length;
    out[1] = y / length;
    out[2] = z / length;
    out[3] = w / length;
    this.swing.fromArray(out);
  }

  /** Into `swing`: the turn taking the bind basis (aim, side) onto today's, aiming from `origin` at the bone's particle; false when the aim has no direction. */
  private sideTurn(b: Bound, pos: Float64Array): boolean {
    const side = b.spec.side!;
    setVector(this.aim, pos, b.spec.to * 3, -1);
    this.aim.sub(this.origin);
    if (!normalizeInPlace(this.aim)) return false;
    setVector(this.side, pos, side[0] * 3, side[1] * 3);
    frame(b.aim, b.side, this.bindBasis);
    frame(this.aim, this.side, this.basis);
    this.swing.setFromRotationMatrix(this.basis.multiply(this.bindBasis.transpose()));
    return true;
  }
}
