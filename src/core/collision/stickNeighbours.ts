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
 * The stick neighbours of one particle of a body at a time, marked for quick
 * questions: {@link JoinMarks.mark} marks particle i's (one pass over them),
 * then {@link JoinMarks.has} says in one read whether a stick joins any j to
 * it, instead of a walk over i's neighbours per pair.
 */
export class JoinMarks {
  /** Per particle of the body: the particle whose stick neighbour it is, plus one. */
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

  /** Marks particle `i`'s stick neighbours for {@link JoinMarks.has}. */
  mark(i: number): void {
    const k = i - this.first;
    // A stick neighbour of i is marked i + 1: a mark left from an earlier particle is another number,
    // and one from an earlier search of the same particle still true (the sticks were read once).
    for (let e = this.joinedStart[k]!; e < this.joinedStart[k + 1]!; e++) this.marks[this.joined[e]!] = i + 1;
  }

  /** Whether a stick joins particle `j` to the particle `i` last marked by {@link JoinMarks.mark}. */
  has(i: number, j: number): boolean {
    return this.marks[j - this.first] === i + 1;
  }
}
