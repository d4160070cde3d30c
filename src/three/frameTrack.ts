import { blendFrames, copyFrame, makeFrame, type Frame } from './frames.js';
import type { Blend } from './positions.js';

/**
 * Interpolates a transform that only the core can compute (a rigid body's, a
 * limb's) from current positions: call {@link FrameTrack.capture} at the start of
 * every step (`world.onBeforeStep`) and {@link FrameTrack.sample} when drawing.
 * Allocates nothing after construction.
 *
 * @example
 * ```ts
 * const track = new FrameTrack((out) => body.transform(out));
 * const capture = world.onBeforeStep(() => track.capture()); // later: world.remove(capture)
 * // in useFrame:
 * const drawn = track.sample(frame);
 * writeTransform(group, drawn.position, drawn.quaternion);
 * ```
 */
export class FrameTrack {
  private readonly start = makeFrame();
  private readonly end = makeFrame();
  private readonly drawn = makeFrame();
  private captured = false;

  /** @param read writes the transform as the particles are now into `out` */
  constructor(private readonly read: (out: Frame) => void) {}

  /** Records the transform at the start of a step. */
  capture(): void {
    this.read(this.start);
    this.captured = true;
  }

  /** The transform blended by `blend.alpha` from the latest step's start to now; the returned frame is reused. */
  sample(blend: Blend): Frame {
    this.read(this.end);
    // Nothing captured yet (no step since the body appeared): draw it where it is.
    if (!this.captured) return copyFrame(this.end, this.drawn);
    return blendFrames(this.start, this.end, blend, this.drawn);
  }

  /** Forgets the captured start, e.g. when the tracked body is re-created. */
  reset(): void {
    this.captured = false;
  }
}
