// The ring story's pieces (stories/Cloth.stories.tsx, "Pulled through a ring"): the ring, the
// pull that gathers and turns the cloth's top edge through it, and the twist its play reads.
import { useEffect, useRef } from 'react';
import type { ConstraintId, World as CoreWorld } from '../../src/core/index.js';
import { CapsuleCollider, useBeforeStep, useWorld } from '../../src/react/index.js';

/** The ring: 16 capsules round a circle about the y axis (as in test/core/selfCollision.test.ts). */
export const RING = { radius: 0.25, tube: 0.03, y: 1.6, segments: 16 };
export const PULL = { width: 20, height: 30, spacing: 0.05 };

/** The ring's capsules, and a torus drawn over them. */
export function Ring() {
  const capsules = [];
  for (let k = 0; k < RING.segments; k++) {
    const a0 = (2 * Math.PI * k) / RING.segments;
    const a1 = (2 * Math.PI * (k + 1)) / RING.segments;
    capsules.push(
      <CapsuleCollider key={k} a={[RING.radius * Math.cos(a0), RING.y, RING.radius * Math.sin(a0)]} b={[RING.radius * Math.cos(a1), RING.y, RING.radius * Math.sin(a1)]} radius={RING.tube} />,
    );
  }
  return (
    <>
      {capsules}
      <mesh position={[0, RING.y, 0]} rotation={[Math.PI / 2, 0, 0]} castShadow>
        <torusGeometry args={[RING.radius, RING.tube, 12, 48]} />
        <meshStandardMaterial color="#c9a227" metalness={0.6} roughness={0.35} />
      </mesh>
    </>
  );
}

/**
 * Pins the cloth's top row and bottom corners once the cloth exists and moves them each
 * step: in 0.5 s the top row gathers to 0.4 m and the corners to 0.6 m, then in 2 s both
 * rise 1 m, the top row turning once about the ring's axis and the corners not at all.
 */
export function PullThrough() {
  const world = useWorld();
  const state = useRef<{ pins: ConstraintId[]; first: number; step: number } | null>(null);
  useEffect(() => {
    let frame = 0;
    const attach = () => {
      const cloth = world.bodies.find((body) => body?.alive && body.kind === 'cloth');
      if (!cloth) {
        frame = requestAnimationFrame(attach);
        return;
      }
      const ids = [...Array.from({ length: PULL.width }, (_, i) => cloth.first + i), cloth.first + (PULL.height - 1) * PULL.width, cloth.first + PULL.height * PULL.width - 1];
      state.current = { pins: ids.map((id) => world.addPin(id)), first: cloth.first, step: 0 };
    };
    attach();
    return () => {
      cancelAnimationFrame(frame);
      for (const pin of state.current?.pins ?? []) if (world.hasConstraint(pin)) world.removeConstraint(pin);
      state.current = null;
    };
  }, [world]);
  const target = useRef<[number, number, number]>([0, 0, 0]);
  useBeforeStep((w) => {
    const s = state.current;
    if (!s) return;
    const t = s.step++ / 60;
    const wide = (PULL.width - 1) * PULL.spacing;
    const top = RING.y - 0.2;
    const bottom = top - (PULL.height - 1) * PULL.spacing;
    const gather = Math.min(t / 0.5, 1);
    const rise = Math.min(Math.max((t - 0.5) / 2, 0), 1);
    const half = (wide + (0.4 - wide) * gather) / 2;
    const angle = 2 * Math.PI * rise;
    const p = target.current;
    for (let i = 0; i < PULL.width; i++) {
      const x = -half + (2 * half * i) / (PULL.width - 1);
      p[0] = x * Math.cos(angle);
      p[1] = top + rise;
      p[2] = x * Math.sin(angle);
      w.setPinTarget(s.pins[i]!, p);
    }
    const corner = (wide + (0.6 - wide) * gather) / 2;
    p[0] = -corner;
    p[1] = bottom + rise;
    p[2] = 0;
    w.setPinTarget(s.pins[PULL.width]!, p);
    p[0] = corner;
    w.setPinTarget(s.pins[PULL.width + 1]!, p);
  });
  return null;
}

/** How far (degrees) the cloth's rows turn about the vertical from its bottom row to its top row, row by row. */
export function rowTwist(world: CoreWorld, first: number): number {
  let total = 0;
  let last = NaN;
  for (let j = PULL.height - 1; j >= 0; j--) {
    const l = world.getPosition(first + j * PULL.width);
    const r = world.getPosition(first + j * PULL.width + PULL.width - 1);
    const angle = Math.atan2(r[2] - l[2], r[0] - l[0]);
    if (!Number.isNaN(last)) {
      let turn = angle - last;
      while (turn > Math.PI) turn -= 2 * Math.PI;
      while (turn < -Math.PI) turn += 2 * Math.PI;
      total += turn;
    }
    last = angle;
  }
  return (total * 180) / Math.PI;
}
