import type { Meta, StoryObj } from '@storybook/react-vite';
import { useFrame } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import * as THREE from 'three';
import { expect, waitFor } from 'storybook/test';
import { Ground, Particle, World, particleSlot, useAfterStep, useWorld, type ParticleHandle, type Vec3 } from '../src/index.js';
import { projectilePosition, targetPractice, type Launch } from '../src/teaching/index.js';
import { Scene } from './support/Scene.js';
import { WorldProbe } from './support/WorldProbe.js';
import { FrameRegion, LabelLayer, PlaceLabels, Swatch, degrees, labelStyle, length, panelStyle } from './support/teachingScene.js';

/** Controls of the target practice story. */
interface TargetPracticeArgs {
  /** Launch speed |V| in m/s. */
  speed: number;
  /** Horizontal position of the target (m); the launcher stands at x = 10 m, as in the slides. */
  targetX: number;
  /** Height of the target (m). */
  targetHeight: number;
  /** Height of the launch point (m). */
  launchHeight: number;
  /** Simulated seconds per real second. */
  timeScale: number;
}

const G = 9.81;
const GRAVITY: Vec3 = [0, -G, 0];
const LAUNCH_X = 10;
const SHOT_COLORS = ['#ffb347', '#4fc3f7'] as const;
const TRY_COLOR = '#aab2bf';
/** Seconds between the last shot's end and the next volley. */
const PAUSE = 1.5;
/** Longest trail a shot draws, in steps. */
const TRAIL_CAPACITY = 4096;

/** One shot to fire: a closed-form launch, and whether it should hit. */
interface ShotPlan {
  velocity: Vec3;
  elevation: number;
  /** Seconds until the shot is judged: at the target (a hit) or on the ground (the best try). */
  duration: number;
  /** The closed-form arc, sampled. */
  arc: Float32Array;
  color: string;
  hits: boolean;
}

/** Launches for the current controls: the solver's two (or one), or the best try when there is none. */
function plan(speed: number, start: Vec3, target: Vec3) {
  const solution = targetPractice({ speed, start, target, gravity: GRAVITY });
  const shots: ShotPlan[] = solution.launches.map((launch: Launch, i) => ({
    velocity: launch.velocity,
    elevation: launch.elevation,
    duration: launch.flightTime,
    arc: sampleArc(start, launch.velocity, launch.flightTime),
    color: SHOT_COLORS[i] ?? SHOT_COLORS[0],
    hits: true,
  }));
  const A = Math.abs(target[0] - start[0]);
  const dz = target[1] - start[1];
  // The least speed that reaches the target: V² = g·(Δz + √(Δz² + A²)).
  const minimumSpeed = Math.sqrt(G * (dz + Math.hypot(dz, A)));
  if (shots.length === 0) {
    // The best one can do: the elevation that climbs highest at the target's distance, tan φ = V²/(g·A).
    const elevation = Math.atan2(speed * speed, G * A);
    const direction = Math.sign(target[0] - start[0]) || 1;
    const velocity: Vec3 = [direction * speed * Math.cos(elevation), speed * Math.sin(elevation), 0];
    const landing = (velocity[1] + Math.sqrt(velocity[1] * velocity[1] + 2 * G * start[1])) / G;
    shots.push({ velocity, elevation, duration: landing, arc: sampleArc(start, velocity, landing), color: TRY_COLOR, hits: false });
  }
  return { radicand: solution.radicand, shots, minimumSpeed };
}

/** Points of p(t) = p₀ + v₀t + ½gt² for t in [0, duration], from the slides' closed form. */
function sampleArc(start: Vec3, velocity: Vec3, duration: number): Float32Array {
  const samples = 160;
  const out = new Float32Array((samples + 1) * 3);
  const p: Vec3 = [0, 0, 0];
  for (let i = 0; i <= samples; i++) {
    projectilePosition(start, velocity, GRAVITY, (duration * i) / samples, p);
    out.set(p, i * 3);
  }
  return out;
}

/** The dome of points a launcher at `start` can reach at `speed`: y = y₀ + V²/2g − g·s²/2V². */
function reachEnvelope(start: Vec3, speed: number, direction: number): Float32Array {
  const reach = (speed / G) * Math.sqrt(speed * speed + 2 * G * Math.max(0, start[1]));
  const samples = 120;
  const out = new Float32Array((samples + 1) * 3);
  for (let i = 0; i <= samples; i++) {
    const s = (reach * i) / samples;
    out[i * 3] = start[0] + direction * s;
    out[i * 3 + 1] = Math.max(0, start[1] + (speed * speed) / (2 * G) - (G * s * s) / (2 * speed * speed));
    out[i * 3 + 2] = 0;
  }
  return out;
}

/** A line through `points`, dashed or not. */
function useLine(points: Float32Array, color: string, dashed: boolean, opacity = 1) {
  const line = useMemo(() => {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(points, 3));
    const material = dashed ? new THREE.LineDashedMaterial({ color, dashSize: 0.9, gapSize: 0.7, transparent: true, opacity }) : new THREE.LineBasicMaterial({ color, transparent: true, opacity });
    const result = new THREE.Line(geometry, material);
    if (dashed) result.computeLineDistances();
    return result;
  }, [points, color, dashed, opacity]);
  useEffect(
    () => () => {
      line.geometry.dispose();
      (line.material as THREE.Material).dispose();
    },
    [line],
  );
  return line;
}

/** What a shot reports when it is judged. */
type ShotReport = (index: number, miss: number) => void;

/**
 * One simulated projectile: a sinew particle launched with the solver's velocity.
 * After every step it measures how close the path came to the target (distance to
 * the segment it just flew, so the 1/60 s steps do not hide a hit) and draws its trail;
 * a hit sticks in the target at its closest point.
 */
function Shot({ index, start, target, shot, onJudged }: { index: number; start: Vec3; target: Vec3; shot: ShotPlan; onJudged: ShotReport }) {
  const world = useWorld();
  const particle = useRef<ParticleHandle>(null);
  const [trail] = useState(() => {
    const positions = new Float32Array(TRAIL_CAPACITY * 3);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    geometry.setDrawRange(0, 0);
    const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: shot.color, linewidth: 2 }));
    line.frustumCulled = false;
    return { positions, geometry, line, count: 0 };
  });
  const track = useRef({ launchedAt: 0, previous: [0, 0, 0] as Vec3, best: Infinity, closest: [0, 0, 0] as Vec3, judged: false });

  useLayoutEffect(() => {
    const t = track.current;
    t.launchedAt = world.time;
    t.previous[0] = start[0];
    t.previous[1] = start[1];
    t.previous[2] = start[2];
    trail.positions.set(start, 0);
    trail.count = 1;
    trail.geometry.setDrawRange(0, 1);
  }, [world, start, trail]);

  useEffect(
    () => () => {
      trail.geometry.dispose();
      (trail.line.material as THREE.Material).dispose();
    },
    [trail],
  );

  useAfterStep((w) => {
    const id = particle.current?.id ?? -1;
    const t = track.current;
    if (id < 0 || t.judged) return;
    // Positions are indexed by slot (an id carries a generation once its slot is reused, as after a remount).
    const p = w.positions;
    const slot = particleSlot(id);
    const x = p[slot * 3]!;
    const y = p[slot * 3 + 1]!;
    const z = p[slot * 3 + 2]!;
    closestOnSegment(t.previous, x, y, z, target, t);
    t.previous[0] = x;
    t.previous[1] = y;
    t.previous[2] = z;
    if (trail.count < TRAIL_CAPACITY) {
      trail.positions[trail.count * 3] = x;
      trail.positions[trail.count * 3 + 1] = y;
      trail.positions[trail.count * 3 + 2] = z;
      trail.count++;
      trail.geometry.setDrawRange(0, trail.count);
      trail.geometry.attributes.position!.needsUpdate = true;
    }
    if (w.time - t.launchedAt >= shot.duration - 1e-9) {
      t.judged = true;
      // A hit stays in the target, at the point of its path nearest the bull's eye.
      if (shot.hits) w.addPin(id, t.closest);
      onJudged(index, t.best);
    }
  });

  return (
    <>
      <Particle ref={particle} position={start} velocity={shot.velocity} radius={0.35}>
        <mesh>
          <sphereGeometry args={[0.55, 20, 14]} />
          <meshStandardMaterial color={shot.color} emissive={shot.color} emissiveIntensity={0.35} />
        </mesh>
      </Particle>
      <primitive object={trail.line} />
    </>
  );
}

/** Distance from `target` to the segment previous→(x, y, z); keeps the smallest in `into.best`, its point in `into.closest`. */
function closestOnSegment(previous: Vec3, x: number, y: number, z: number, target: Vec3, into: { best: number; closest: Vec3 }) {
  const dx = x - previous[0];
  const dy = y - previous[1];
  const dz = z - previous[2];
  const length2 = dx * dx + dy * dy + dz * dz;
  let s = length2 > 0 ? ((target[0] - previous[0]) * dx + (target[1] - previous[1]) * dy + (target[2] - previous[2]) * dz) / length2 : 0;
  s = Math.min(1, Math.max(0, s));
  const cx = previous[0] + dx * s;
  const cy = previous[1] + dy * s;
  const cz = previous[2] + dz * s;
  const d = Math.hypot(target[0] - cx, target[1] - cy, target[2] - cz);
  if (d < into.best) {
    into.best = d;
    into.closest[0] = cx;
    into.closest[1] = cy;
    into.closest[2] = cz;
  }
}

/** The bull's eye, facing the camera, on a pole down to the ground. */
function Target({ position }: { position: Vec3 }) {
  return (
    <group position={position}>
      <mesh position={[0, -position[1] / 2, -0.3]}>
        <cylinderGeometry args={[0.12, 0.12, Math.max(0.01, position[1]), 8]} />
        <meshStandardMaterial color="#6b7280" />
      </mesh>
      {[1.6, 1.2, 0.8, 0.4].map((r, i) => (
        <mesh key={r} position={[0, 0, -0.2 + i * 0.01]}>
          <circleGeometry args={[r, 40]} />
          <meshBasicMaterial color={i % 2 === 0 ? '#e03131' : '#f1f3f5'} />
        </mesh>
      ))}
    </group>
  );
}

/** Volleys of shots: all fired together, re-fired {@link PAUSE} s after the last one is judged. */
function Volleys({ start, target, shots, rows, planKey }: { start: Vec3; target: Vec3; shots: ShotPlan[]; rows: RefObject<(HTMLElement | null)[]>; planKey: string }) {
  const [volley, setVolley] = useState(0);
  const state = useRef({ judged: 0, doneAt: -1, asked: false });
  useLayoutEffect(() => {
    state.current = { judged: 0, doneAt: -1, asked: false };
  }, [volley, shots]);
  // New controls, new shots: the readout waits for their first volley (later volleys keep the last result up).
  useLayoutEffect(() => {
    for (const row of rows.current ?? []) {
      if (!row) continue;
      row.textContent = 'in flight…';
      row.dataset.miss = '';
    }
  }, [shots, rows]);
  const onJudged: ShotReport = (index, miss) => {
    const row = rows.current?.[index];
    if (row) {
      row.textContent = `miss ${length(miss)}${shots[index]?.hits ? (miss < 0.05 ? ' ✓ hit' : ' ✗') : ''}`;
      row.dataset.miss = String(miss);
    }
    state.current.judged++;
  };
  useFrame(({ clock }) => {
    const s = state.current;
    if (s.judged < shots.length || s.asked) return;
    if (s.doneAt < 0) s.doneAt = clock.elapsedTime;
    else if (clock.elapsedTime - s.doneAt > PAUSE) {
      s.asked = true;
      setVolley((v) => v + 1);
    }
  });
  return (
    <>
      {shots.map((shot, i) => (
        <Shot key={`${planKey}/${volley}/${i}`} index={i} start={start} target={target} shot={shot} onJudged={onJudged} />
      ))}
    </>
  );
}

/** The closed-form arcs and the reach envelope. */
function Arcs({ shots, envelope }: { shots: ShotPlan[]; envelope: Float32Array }) {
  return (
    <>
      <primitive object={useLine(envelope, '#8892a0', true, 0.4)} />
      {shots.map((shot, i) => (
        <ArcLine key={i} shot={shot} />
      ))}
    </>
  );
}

function ArcLine({ shot }: { shot: ShotPlan }) {
  return <primitive object={useLine(shot.arc, shot.color, true, 0.7)} />;
}

/**
 * The slides' target practice: pick a launch speed and a target; `targetPractice()`
 * gives the launch angles, `projectilePosition()` draws both arcs, and two sinew
 * particles launched with those velocities fly them in a `<World>`.
 */
function TargetPractice({ speed, targetX, targetHeight, launchHeight, timeScale }: TargetPracticeArgs) {
  const start = useMemo<Vec3>(() => [LAUNCH_X, launchHeight, 0], [launchHeight]);
  const target = useMemo<Vec3>(() => [targetX, targetHeight, 0], [targetX, targetHeight]);
  const { radicand, shots, minimumSpeed } = useMemo(() => plan(speed, start, target), [speed, start, target]);
  const direction = Math.sign(target[0] - start[0]) || 1;
  const envelope = useMemo(() => reachEnvelope(start, speed, direction), [start, speed, direction]);
  const rows = useRef<(HTMLElement | null)[]>([]);
  const labels = useRef<(HTMLElement | null)[]>([]);
  // Each angle is written 7 m out along its launch direction.
  const labelPositions = useMemo(
    () => shots.map((shot): Vec3 => [start[0] + 7 * Math.cos(shot.elevation) * (Math.sign(shot.velocity[0]) || 1), start[1] + 7 * Math.sin(shot.elevation), 0]),
    [shots, start],
  );

  // Frame the launcher, the target and the highest arc.
  let top = Math.max(start[1], target[1]) + 2;
  for (const shot of shots) for (let i = 1; i < shot.arc.length; i += 3) top = Math.max(top, shot.arc[i]!);
  const left = Math.min(start[0], target[0]) - 4;
  const right = Math.max(start[0], target[0]) + 4;
  const bottom = -1;
  // Room above the arcs for the readout in the top-left corner.
  top += (top - bottom) * 0.22;
  const center: [number, number] = [(left + right) / 2, (top + bottom) / 2];
  const solved = shots[0]?.hits ?? false;

  const overlay = (
    <div style={{ ...panelStyle, minWidth: 300 }} data-testid="target-practice-readout">
      <div style={{ fontWeight: 600 }}>
        Target practice · V = {speed} m/s · from ({start[0]}, {start[1]}) to ({target[0]}, {target[1]}) m
      </div>
      <div data-testid="radicand" data-radicand={radicand}>
        radicand {radicand.toFixed(1)} {radicand >= 0 ? (shots.length === 2 ? '> 0: two angles' : '= 0: one angle') : '< 0'}
      </div>
      {solved ? (
        shots.map((shot, i) => (
          <div key={i} data-testid={`shot-${i}`}>
            <Swatch color={shot.color} />φ = <b data-testid={`angle-${i}`}>{degrees(shot.elevation)}</b> · arrives after {shot.duration.toFixed(2)} s ·{' '}
            <span
              data-testid={`miss-${i}`}
              ref={(element) => {
                rows.current[i] = element;
              }}
            />
          </div>
        ))
      ) : (
        <>
          <div data-testid="no-solution" style={{ color: '#ff8787', fontWeight: 600 }}>
            No solution: {speed} m/s is too slow to reach the target (needs ≥ {minimumSpeed.toFixed(1)} m/s).
          </div>
          <div>
            <Swatch color={TRY_COLOR} />
            best try φ = {degrees(shots[0]!.elevation)} (highest at the target’s distance) ·{' '}
            <span
              data-testid="miss-0"
              ref={(element) => {
                rows.current[0] = element;
              }}
            />
          </div>
        </>
      )}
      <div style={{ color: '#9aa3ad' }}>dashed: closed form · solid: simulated · grey dashes: the reach of {speed} m/s</div>
    </div>
  );

  return (
    <div style={{ position: 'relative' }}>
      <Scene camera={[center[0], center[1], 80]} target={[center[0], center[1], 0]} overlay={overlay}>
        <PlaceLabels elements={labels} positions={labelPositions} />
        <FrameRegion center={center} halfWidth={(right - left) / 2} halfHeight={(top - bottom) / 2} />
        <gridHelper args={[400, 80, '#3a4150', '#262b33']} rotation-x={Math.PI / 2} position={[center[0], 0, -2]} />
        <World timeScale={timeScale} sleep={false} maxStepsPerAdvance={30}>
          <WorldProbe name="targetPractice" />
          <Ground>
            <mesh position={[center[0], -15, 0]}>
              <boxGeometry args={[400, 30, 6]} />
              <meshStandardMaterial color="#3b4350" />
            </mesh>
          </Ground>
          <mesh position={[start[0], start[1] / 2, 0]}>
            <boxGeometry args={[1.6, Math.max(0.05, start[1]), 1.6]} />
            <meshStandardMaterial color="#868e96" />
          </mesh>
          <Target position={target} />
          <Arcs shots={shots} envelope={envelope} />
          <Volleys start={start} target={target} shots={shots} rows={rows} planKey={`${speed}/${targetX}/${targetHeight}/${launchHeight}`} />
        </World>
      </Scene>
      <LabelLayer>
        {shots.map((shot, i) => (
          <div
            key={i}
            style={labelStyle(shot.color, 'left')}
            ref={(element) => {
              labels.current[i] = element;
            }}
          >
            {degrees(shot.elevation)}
          </div>
        ))}
      </LabelLayer>
    </div>
  );
}

const meta: Meta<typeof TargetPractice> = {
  title: 'Teaching/Target practice',
  component: TargetPractice,
  args: { speed: 30, targetX: 50, targetHeight: 20, launchHeight: 2, timeScale: 1 },
  argTypes: {
    speed: { control: { type: 'range', min: 5, max: 50, step: 0.5 }, description: 'Launch speed |V| (m/s).' },
    targetX: { control: { type: 'range', min: 15, max: 100, step: 1 }, description: 'Horizontal position of the target (m); the launcher is at x = 10 m.' },
    targetHeight: { control: { type: 'range', min: 0, max: 60, step: 1 }, description: 'Height of the target (m).' },
    launchHeight: { control: { type: 'range', min: 0, max: 20, step: 0.5 }, description: 'Height of the launch point (m).' },
    timeScale: { control: { type: 'range', min: 0.1, max: 3, step: 0.1 }, description: 'Simulated seconds per real second.' },
  },
  parameters: {
    docs: {
      description: {
        component:
          'The lecture slides’ “target practice”: fix the launch speed, solve for the direction. `targetPractice()` returns the radicand and the launch angles; `projectilePosition()` draws each closed-form arc (dashed), and a sinew `<World>` flies a particle launched with each velocity (solid trail). Every volley is judged by the closest approach of the simulated path to the bull’s eye, and re-fired a moment later.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<typeof TargetPractice>;

/**
 * The slides’ example (z up there, y up here): 30 m/s from (10, 2) m at a target at (50, 20) m.
 * The radicand is 668, the angles 39.1° (arrives after 1.7 s) and 75.2° (after 5.2 s), and
 * both simulated shots end in the bull’s eye. Try lowering the speed until the two angles
 * meet at 45°-ish and then vanish, or move the target.
 */
export const SlidesExample: Story = {
  play: async ({ canvasElement }) => {
    const readout = canvasElement.querySelector<HTMLElement>('[data-testid="target-practice-readout"]')!;
    await expect(readout).toBeTruthy();
    // The slides: "Value of Radicand of tanφ equation: 668 · Launch angle φ: 39.1 deg or 75.2 deg".
    const radicand = Number(readout.querySelector<HTMLElement>('[data-testid="radicand"]')!.dataset.radicand);
    await expect(Math.round(radicand)).toBe(668);
    await expect(readout.querySelector('[data-testid="angle-0"]')!.textContent).toBe('39.1°');
    await expect(readout.querySelector('[data-testid="angle-1"]')!.textContent).toBe('75.2°');
    // Both simulated shots end within a few cm of the target (the slow one flies 5.2 s).
    await waitFor(
      () => {
        for (const i of [0, 1]) {
          const miss = readout.querySelector<HTMLElement>(`[data-testid="miss-${i}"]`)!.dataset.miss;
          expect(miss, `shot ${i} was judged`).toBeTruthy();
          expect(Number(miss), `shot ${i} hits`).toBeLessThan(0.03);
        }
      },
      { timeout: 15_000, interval: 200 },
    );
  },
};

/**
 * 20 m/s cannot reach (50, 20) m from (10, 2) m: the radicand is negative, so there is no
 * launch angle. The target lies outside the grey dashed envelope of everything 20 m/s can reach;
 * the grey shot is the best try (the elevation that climbs highest at the target’s distance),
 * and it falls short. Raise the speed past 24.6 m/s to get a solution.
 */
export const TooSlow: Story = {
  args: { speed: 20 },
  play: async ({ canvasElement }) => {
    const readout = canvasElement.querySelector<HTMLElement>('[data-testid="target-practice-readout"]')!;
    await expect(readout.querySelector('[data-testid="no-solution"]')).toBeTruthy();
    const radicand = Number(readout.querySelector<HTMLElement>('[data-testid="radicand"]')!.dataset.radicand);
    await expect(radicand).toBeLessThan(0);
    await expect(targetPractice({ speed: 20, start: [10, 2, 0], target: [50, 20, 0] }).launches).toHaveLength(0);
    await expect(readout.textContent).toContain('needs ≥ 24.6 m/s');
    // The best try is simulated too, and misses by metres.
    await waitFor(
      () => {
        const miss = readout.querySelector<HTMLElement>('[data-testid="miss-0"]')!.dataset.miss;
        expect(Number(miss || 0)).toBeGreaterThan(1);
      },
      { timeout: 10_000, interval: 200 },
    );
  },
};
