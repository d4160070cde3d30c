import type { Constraint } from './constraints/constraint.js';
import type { Force } from './forces/force.js';

/** Inert stand-ins for entries removed while a step walks their list. */
const RETIRED_CALLBACK = (): void => {};
const RETIRED_FORCE: Force = { apply: () => {} };
const RETIRED_CONSTRAINT: Constraint = { project: () => {} };

/**
 * The lists a step walks (user constraints, force generators, before- and
 * after-step callbacks) and their one way to take an entry out. During a step an
 * entry is swapped for an inert stand-in and the list is compacted when the step
 * ends: splicing at once would shift the entries behind it under the running loop,
 * which would then skip the next one.
 *
 * @example
 * ```ts
 * const lists = new StepLists<World>();
 * const tear = (w: World) => tearCloth(w);
 * lists.subscribe(lists.afterStep, tear, 'onAfterStep');
 * lists.running(() => runTheStep()); // removals inside are deferred
 * lists.unsubscribe(lists.afterStep, tear);
 * ```
 */
export class StepLists<W> {
  /** User constraints, projected in every relaxation pass. */
  readonly constraints: Constraint[] = [];
  /** Force generators, applied at the start of every substep. */
  readonly forces: Force[] = [];
  /** Callbacks run at the start of every step, before forces. */
  readonly beforeStep: ((world: W) => void)[] = [];
  /** Callbacks run at the end of every step. */
  readonly afterStep: ((world: W) => void)[] = [];
  /** True while a step runs. */
  stepping = false;
  private retired = false;

  /** Adds `callback` to `list` (beforeStep or afterStep). `what` names it in errors. */
  subscribe(list: ((world: W) => void)[], callback: (world: W) => void, what: string): void {
    if (typeof callback !== 'function') throw new TypeError(`${what}: callback must be a function, got ${String(callback)}`);
    list.push(callback);
  }

  /** Takes `callback` out of `list`. */
  unsubscribe(list: ((world: W) => void)[], callback: (world: W) => void): void {
    this.drop(list, callback, RETIRED_CALLBACK);
  }

  /** Adds a force generator. */
  addForce(force: Force): void {
    this.forces.push(force);
  }

  /** Takes a force generator out. */
  removeForce(force: Force): void {
    this.drop(this.forces, force, RETIRED_FORCE);
  }

  /** Takes a user constraint out. */
  removeConstraint(constraint: Constraint): void {
    this.drop(this.constraints, constraint, RETIRED_CONSTRAINT);
  }

  /** Runs `step` with removals deferred to its end. Throws when a step is already running (a callback stepping its own world). */
  running(step: () => void): void {
    if (this.stepping) throw new Error('step: called from inside a step (a callback, force or constraint of this world)');
    this.stepping = true;
    try {
      step();
    } finally {
      this.stepping = false;
      if (this.retired) this.compactAll();
    }
  }

  private drop<T>(list: T[], item: T, retired: T): void {
    const i = list.indexOf(item);
    if (i < 0) return;
    if (this.stepping) {
      list[i] = retired;
      this.retired = true;
    } else list.splice(i, 1);
  }

  private compactAll(): void {
    this.retired = false;
    compact(this.beforeStep, RETIRED_CALLBACK);
    compact(this.afterStep, RETIRED_CALLBACK);
    compact(this.forces, RETIRED_FORCE);
    compact(this.constraints, RETIRED_CONSTRAINT);
  }
}

/** Removes every `retired` entry from `list`, in place, keeping the order of the rest. */
function compact<T>(list: T[], retired: T): void {
  let kept = 0;
  for (let i = 0; i < list.length; i++) if (list[i] !== retired) list[kept++] = list[i]!;
  list.length = kept;
}
