import type { BodyRecord } from '../bodies/body.js';
import { particleSlot } from '../ids.js';
import type { World } from '../world.js';

/** Stick neighbours inside the body, as compressed rows (body-relative indices): particle first + k's are joined[joinedStart[k] .. joinedStart[k + 1]). The sticks are read now. */
export function stickNeighbours(world: World, body: BodyRecord): { joinedStart: Int32Array; joined: Int32Array } {
  const lists: number[][] = Array.from({ length: body.count }, () => []);
  const sticks = world.sticks;
  // The stick table holds slots.
  const first = particleSlot(body.first);
  const end = first + body.count;
  for (let row = 0; row < sticks.count; row++) {
    const a = sticks.a[row]!;
    const b = sticks.b[row]!;
    if (a < first || a >= end || b < first || b >= end) continue;
    lists[a - first]!.push(b - first);
    lists[b - first]!.push(a - first);
  }
  const joinedStart = new Int32Array(body.count + 1);
  for (let k = 0; k < body.count; k++) joinedStart[k + 1] = joinedStart[k]! + lists[k]!.length;
  const joined = new Int32Array(lists.flat());
  return { joinedStart, joined };
}

/**
 * Stick neighbours marked for quick questions: {@link JoinMarks.mark} marks a
 * particle's neighbours with a key (one pass over them), then
 * {@link JoinMarks.has} says in one read whether a stick joins any j to a
 * particle marked with that key, instead of a walk over rows per pair. Several
 * particles can share a key (the corners of a triangle).
 */
export class JoinMarks {
  /** Per particle of the body: the key it was last marked with. */
  private readonly marks: Int32Array;

  /**
   * @param first,count the particle range of the body.
   * @param joinedStart,joined per particle first + k, its stick neighbours are joined[joinedStart[k] .. joinedStart[k + 1]) (body-relative).
   */
  constructor(
    private readonly first: number,
    count: number,
    private readonly joinedStart: Int32Array,
    private readonly joined: Int32Array,
  ) {
    this.marks = new Int32Array(count);
  }

  /**
   * Marks particle `i`'s stick neighbours with `key` (not 0). A mark left with another key
   * reads as unmarked, and one from an earlier search with the same key still true (the sticks
   * were read once), so the marks are never cleared.
   */
  mark(i: number, key: number): void {
    const k = i - this.first;
    for (let e = this.joinedStart[k]!; e < this.joinedStart[k + 1]!; e++) this.marks[this.joined[e]!] = key;
  }

  /** Unmarks every particle, for a caller whose keys run out. */
  clear(): void {
    this.marks.fill(0);
  }

  /** Whether a stick joins particle `j` to a particle last marked with `key`. */
  has(j: number, key: number): boolean {
    return this.marks[j - this.first] === key;
  }
}
