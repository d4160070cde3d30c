import type { ClothHandle } from '../core/bodies/cloth.js';
import { ClothTearing } from '../core/bodies/clothTearing.js';
import { Attachment } from '../core/motion/attachment.js';
import { BodyAttachment } from '../core/constraints/bodyAttachment.js';
import { CHARACTER_MIRROR_LENGTH, CharacterDriver } from '../core/motion/characterDriver.js';
import type { PostFromWorker } from './transport.js';

/** A cloth handle the main thread holds, with the sticks already reported torn. */
interface WatchedCloth {
  kind: 'cloth';
  handle: ClothHandle;
  reported: Uint8Array;
  torn: number;
}

/** An attachment the main thread holds, with which of its particles it held before the latest advance. */
interface WatchedAttachment {
  kind: 'attachment';
  attachment: Attachment;
  held: Uint8Array;
}

/** A body attachment the main thread holds, with which of its links held before the latest advance. */
interface WatchedLinks {
  kind: 'links';
  links: BodyAttachment;
  held: Uint8Array;
}

/** A character driver the main thread holds, with what was last posted of it. */
interface WatchedCharacter {
  kind: 'character';
  driver: CharacterDriver;
  posted: Float64Array;
  /** Its state after the commands, before the advance's steps. */
  before: Float64Array;
  scratch: Float64Array;
}

/**
 * What the steps change that the shadow world cannot see and must mirror: cloths that tear,
 * attachments and body attachments that break, and characters whose steps turned them physical, blended their
 * get-up or handed them back to the animation. The worker watches the objects the main thread holds
 * references to and, after each advance, posts what changed in its steps (`tears`, `breaks`, `links`, `character`),
 * so the shadow can make the same change and the app can hear of it. A change a command
 * made (an attachment released by the app) is not reported: it happened on both sides already.
 */
export class StepEvents {
  private readonly watched = new Map<number, WatchedCloth | WatchedAttachment | WatchedLinks | WatchedCharacter>();

  constructor(private readonly post: PostFromWorker) {}

  /** Watches `value` (reference `ref`) when it is a cloth handle, an attachment, a body attachment or a character driver. */
  watch(ref: number, value: unknown): void {
    if (value instanceof CharacterDriver) {
      const posted = new Float64Array(CHARACTER_MIRROR_LENGTH);
      value.saveMirror(posted);
      this.watched.set(ref, { kind: 'character', driver: value, posted, before: posted.slice(), scratch: new Float64Array(CHARACTER_MIRROR_LENGTH) });
      return;
    }
    if (value instanceof BodyAttachment) {
      this.watched.set(ref, { kind: 'links', links: value, held: value.holding.slice() });
      return;
    }
    if (value instanceof Attachment) {
      this.watched.set(ref, { kind: 'attachment', attachment: value, held: new Uint8Array(value.pins.length) });
      return;
    }
    const tearing = (value as { tearing?: unknown } | null)?.tearing;
    if (tearing instanceof ClothTearing) {
      const handle = value as ClothHandle;
      const reported = new Uint8Array(handle.sticks.count);
      for (let e = 0; e < handle.sticks.count; e++) reported[e] = handle.sticks.id[e]! < 0 ? 1 : 0;
      this.watched.set(ref, { kind: 'cloth', handle, reported, torn: handle.torn });
    }
  }

  /** Stops watching reference `ref` (released). */
  forget(ref: number): void {
    this.watched.delete(ref);
  }

  /** Notes what each attachment holds before an advance, so that only what its steps let go is reported. */
  beforeAdvance(): void {
    for (const w of this.watched.values()) {
      if (w.kind === 'attachment') for (let i = 0; i < w.held.length; i++) w.held[i] = w.attachment.pins[i]! >= 0 ? 1 : 0;
      else if (w.kind === 'links') w.held.set(w.links.holding);
      else if (w.kind === 'character') w.driver.saveMirror(w.before);
    }
  }

  /**
   * Posts the sticks each watched cloth lost, the particles each watched attachment let go in
   * advance number `advances`, and each watched character's state where it changed.
   */
  afterAdvance(advances: number): void {
    for (const [ref, w] of this.watched) {
      if (w.kind === 'cloth') this.tears(ref, w, advances);
      else if (w.kind === 'attachment') this.breaks(ref, w, advances);
      else if (w.kind === 'links') this.links(ref, w, advances);
      else this.character(ref, w, advances);
    }
  }

  /**
   * The links a body attachment let go in the advance's steps: over its break force (`broken`,
   * what `onBreak` hears), or because a particle of the link went away (`dropped`, which a
   * removal command made on both sides; the worker's step only noticed).
   */
  private links(ref: number, w: WatchedLinks, advances: number): void {
    const { links, held } = w;
    let broken: number[] | undefined;
    let dropped: number[] | undefined;
    const particles = links.world.particles;
    for (let i = 0; i < held.length; i++) {
      if (held[i] === 0 || links.holding[i] === 1) continue;
      let alive = particles.isAlive(links.particles[i]!);
      for (let k = 0; k < 4 && alive; k++) {
        const a = links.anchors[i * 4 + k]!;
        if (a >= 0) alive = particles.isAlive(a);
      }
      if (alive) (broken ??= []).push(i);
      else (dropped ??= []).push(i);
    }
    if (broken !== undefined || dropped !== undefined) this.post({ type: 'links', ref, advances, broken: Int32Array.from(broken ?? []), dropped: Int32Array.from(dropped ?? []) });
  }

  /**
   * The character's state when its steps changed it, or when it differs from what was posted
   * last: the shadow made the same calls, but on the state it had then, which may have been
   * a frame behind.
   */
  private character(ref: number, w: WatchedCharacter, advances: number): void {
    w.driver.saveMirror(w.scratch);
    if (same(w.scratch, w.before) && same(w.scratch, w.posted)) return;
    w.posted.set(w.scratch);
    this.post({ type: 'character', ref, advances, state: w.scratch.slice() });
  }

  private tears(ref: number, w: WatchedCloth, advances: number): void {
    const { handle, reported } = w;
    if (handle.torn === w.torn) return;
    w.torn = handle.torn;
    const torn: number[] = [];
    for (let e = 0; e < handle.sticks.count; e++) {
      if (handle.sticks.id[e]! < 0 && reported[e] === 0) {
        reported[e] = 1;
        torn.push(e);
      }
    }
    if (torn.length > 0) this.post({ type: 'tears', ref, advances, sticks: Int32Array.from(torn) });
  }

  private breaks(ref: number, w: WatchedAttachment, advances: number): void {
    let released: number[] | undefined;
    const { attachment } = w;
    for (let i = 0; i < w.held.length; i++) {
      // A particle removed (by a command, on both sides) takes its pin along: not a break.
      if (w.held[i] === 1 && attachment.pins[i]! < 0 && attachment.world.particles.slotOf(attachment.particles[i]!) >= 0) (released ??= []).push(i);
    }
    if (released !== undefined) this.post({ type: 'breaks', ref, advances, particles: Int32Array.from(released) });
  }
}

function same(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
