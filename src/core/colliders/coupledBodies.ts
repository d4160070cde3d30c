/**
 * Every {@link CoupledBody} ever constructed, so that `addCollider` can tell one
 * from anything else without importing the class: an app that never makes a
 * coupled body then carries none of its code (the collider factory is reached
 * through `world.addCollider` by every app with a collider).
 */
import type { CoupledBody } from './coupledBody.js';

const made = new WeakSet<object>();

/** @internal Called by the CoupledBody constructor. */
export function markCoupledBody(body: CoupledBody): void {
  made.add(body);
}

/** @internal True when `value` is a {@link CoupledBody} (what `instanceof CoupledBody` answers for a constructed one). */
export function isCoupledBody(value: unknown): value is CoupledBody {
  return typeof value === 'object' && value !== null && made.has(value);
}
