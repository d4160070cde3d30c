/**
 * Constructs a core collider (or adds one to the world), rethrowing a bad shape's error with the
 * component's name in front of the core's (`<BoxCollider>: obb collider:
 * halfExtents must be >= 0, got [-1, 1, 1]`), so the message says where the
 * bad prop came from.
 *
 * @example
 * ```ts
 * const collider = useMemo(() => buildCollider('<CapsuleCollider>', () => new CapsuleCollider(shape)), [shape]);
 * ```
 */
export function buildCollider<C>(who: string, build: () => C): C {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    const Kind = error.constructor as new (message: string, options: { cause: unknown }) => Error;
    throw new Kind(`${who}: ${error.message}`, { cause: error });
  }
}
