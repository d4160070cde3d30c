/**
 * A small seeded pseudo-random generator (mulberry32). The world owns one so that
 * the jitter it adds to separate coincident particles is the same on every run:
 * identical scenes give identical bits.
 */
export class SeededRandom {
  /** The generator's whole state; snapshots store it. */
  state: number;

  constructor(seed = 0x5eed) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}
