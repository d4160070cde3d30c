/**
 * Errors that name every bad prop of a component, not only the first: a user
 * who wrote `<Cloth width={-3} height={0}>` should not fix one and meet the next.
 */

/**
 * Runs a component's prop checks one after another, keeping each error, then
 * throws one error naming every bad prop (see {@link combinedError}).
 *
 * @internal
 * @example
 * ```ts
 * const checks = new PropChecks('<Ground>');
 * const height = checks.run(() => checkNumber(props.height, '<Ground>: height'));
 * checks.run(() => checkNumber(props.friction, '<Ground>: friction', 0));
 * checks.throwIfAny(); // `height` is only read after this
 * ```
 */
export class PropChecks {
  private readonly errors: Error[] = [];
  constructor(private readonly who: string) {}

  /** `check()`'s value; `undefined` when it threw, which is fine since {@link throwIfAny} then throws before the value is used. */
  run<T>(check: () => T): T {
    try {
      return check();
    } catch (error) {
      this.errors.push(error instanceof Error ? error : new Error(String(error)));
      return undefined as T;
    }
  }

  /** Throws if any check failed: the one error, or one naming them all. */
  throwIfAny(): void {
    if (this.errors.length > 0) throw combinedError(this.who, this.errors);
  }
}

/**
 * One error for several: `<Cloth>: width must be an integer >= 2, got -3; height
 * must be an integer >= 2, got 0`, of the first error's class, with the errors
 * as its `cause`. A single error is returned as it is.
 *
 * @internal
 */
export function combinedError(who: string, errors: readonly Error[]): Error {
  if (errors.length === 1) return errors[0]!;
  const prefix = `${who}: `;
  const message = prefix + errors.map((e) => (e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message)).join('; ');
  const Kind = errors[0]!.constructor as new (message: string, options: { cause: unknown }) => Error;
  return new Kind(message, { cause: errors });
}

/**
 * Stand-ins tried for a bad option to see past it to the next bad one: leaving
 * it out (its default), then values most numeric options accept.
 */
const STAND_INS: readonly unknown[] = [undefined, 2, 1, 0.5, 0, [0, 0, 0]];

/**
 * Every bad option of a body builder, given the first error it threw. A core
 * builder (`createCloth`) stops at the first bad option, and its message starts
 * with the option's name (`createCloth: width must be …`); so this replaces that
 * option with a stand-in that passes and builds again (in a scratch world the
 * caller provides), until the build succeeds or an error names no option it can
 * stand in for. Only the error path pays for this.
 *
 * @internal
 */
export function everyBadOption(first: Error, builder: string, options: object, build: (options: object) => void): Error[] {
  const errors = [first];
  const probe: Record<string, unknown> = { ...options };
  let error = first;
  for (let round = 0; round < 16; round++) {
    const option = optionNamed(error, builder, probe);
    if (option === undefined) break;
    let next: Error | undefined;
    let passed = false;
    for (const standIn of STAND_INS) {
      try {
        build({ ...probe, [option]: standIn });
        passed = true;
      } catch (e) {
        if (!(e instanceof Error) || optionNamed(e, builder, probe) === option) continue;
        next = e;
        passed = true;
      }
      probe[option] = standIn;
      break;
    }
    if (!passed || !next) break;
    errors.push(next);
    error = next;
  }
  return errors;
}

/** The option an error of `builder` is about (`createCloth: width must be …` → `width`), if `options` has it. */
function optionNamed(error: Error, builder: string, options: object): string | undefined {
  const match = new RegExp(`^(?:${builder}|<\\w+>|\\w+\\(\\)): (\\w+)`).exec(error.message);
  return match && Object.hasOwn(options, match[1]!) ? match[1] : undefined;
}
