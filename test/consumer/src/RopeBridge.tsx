import { Rope, type Vec3 } from 'sinew-physics';

/** Props of {@link RopeBridge}. */
export interface RopeBridgeProps {
  /** Registers the rope under this name: `"bridge.0"`, `"bridge.end"`. */
  name?: string;
  /** Where the rope is tied on either side (m). */
  from: Vec3;
  to: Vec3;
  /** Rope length beyond the span, as a fraction of it. Default 0.2. */
  slack?: number;
  /** Links in the rope. Default 16. */
  segments?: number;
}

/** A slack rope tied between two posts, sagging under its own weight. */
export function RopeBridge({ name = 'bridge', from, to, slack = 0.2, segments = 16 }: RopeBridgeProps) {
  const span = Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
  return <Rope name={name} from={from} to={to} segments={segments} length={span * (1 + slack)} kind="max" pinStart pinEnd thickness={0.03} />;
}
