import type { Meta, StoryObj } from '@storybook/react-vite';
import { useThree } from '@react-three/fiber';
import { useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { expect } from 'storybook/test';
import { Scene } from './support/Scene.js';
import { LabelLayer, PlaceLabels, Swatch, labelStyle, length, panelStyle } from './support/teachingScene.js';
import { EXACT, INTEGRATORS, SCENARIOS, compare, slidesTable, type Comparison, type Scenario } from './support/teachingIntegrators.js';
import { PlotPanel, type Curve, type Rect } from './support/teachingPlot.js';

/** Controls of the integrators story. */
interface IntegratorsArgs {
  /** What moves: the slides' projectile, a spring, or an orbit around a centre. */
  scenario: Scenario;
  /** Time step Δt in seconds (rounded so a whole number of steps fills the run). */
  dt: number;
  /** Simulated seconds traced per real second. */
  playback: number;
}

/** Height of the table strip under the panels, in pixels. */
const STRIP = 212;
/** Pixels above each plot for its title. */
const TITLE = 20;
const COLUMNS = 3;
const ROWS = 2;

/** A time step, written the way the slides write them. */
function seconds(dt: number): string {
  return `${Number(dt.toPrecision(3))} s`;
}

/** A position error, or "exact" when it is rounding only. */
function error(e: number): string {
  if (e < EXACT) return 'exact';
  return e >= 1e-3 ? length(e) : `${e.toExponential(2)} m`;
}

/** The six panels (one per stepper and one with all five), laid out above the strip. */
function Panels({ comparisons, scenario, playback, titles }: { comparisons: Comparison[]; scenario: Scenario; playback: number; titles: RefObject<(HTMLElement | null)[]> }) {
  const size = useThree((state) => state.size);
  const viewport = useThree((state) => state.viewport);
  const gl = useThree((state) => state.gl);
  useLayoutEffect(() => {
    gl.localClippingEnabled = true;
  }, [gl]);

  const pixel = viewport.height / size.height;
  const spec = SCENARIOS[scenario];
  const cells = useMemo(() => {
    const margin = 12 * pixel;
    const left = -viewport.width / 2 + margin;
    const right = viewport.width / 2 - margin;
    const top = viewport.height / 2 - 8 * pixel;
    const bottom = -viewport.height / 2 + (STRIP + 8) * pixel;
    const cellWidth = (right - left) / COLUMNS;
    const cellHeight = (top - bottom) / ROWS;
    const gap = 10 * pixel;
    return Array.from({ length: COLUMNS * ROWS }, (_, i) => {
      const column = i % COLUMNS;
      const row = Math.floor(i / COLUMNS);
      const x = left + column * cellWidth + gap / 2;
      const cellTop = top - row * cellHeight;
      const rect: Rect = { x, y: cellTop - cellHeight + gap / 2, width: cellWidth - gap, height: cellHeight - TITLE * pixel - gap / 2 };
      return { rect, title: [x, cellTop, 0] as [number, number, number] };
    });
  }, [viewport.width, viewport.height, pixel]);

  const curves = useMemo(() => {
    const one = comparisons.map((c): Curve[] => [{ plot: c.run.plot, steps: c.run.steps, dt: c.run.dt, color: c.info.color }]);
    return [...one, one.flat()];
  }, [comparisons]);
  const titlePositions = useMemo(() => cells.map((cell) => cell.title), [cells]);

  return (
    <>
      <PlaceLabels elements={titles} positions={titlePositions} />
      {cells.map((cell, i) => (curves[i] ? <PlotPanel key={i} spec={spec} curves={curves[i]!} rect={cell.rect} pixel={pixel} playback={playback} /> : null))}
    </>
  );
}

/** The log–log plot of the largest error over the run against Δt, one line per stepper. */
function ErrorPlot({ comparisons, dt }: { comparisons: Comparison[]; dt: number }) {
  const width = 300;
  const height = 186;
  const box = { left: 44, right: width - 8, top: 8, bottom: height - 30 };
  const floor = -6;
  const ceiling = 2;
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of comparisons) {
    for (const [d] of c.sweep) {
      lo = Math.min(lo, Math.log10(d));
      hi = Math.max(hi, Math.log10(d));
    }
  }
  lo -= 0.1;
  hi += 0.1;
  const x = (d: number) => box.left + ((Math.log10(d) - lo) / (hi - lo)) * (box.right - box.left);
  const y = (e: number) => box.bottom - ((Math.max(floor, Math.min(ceiling, Math.log10(Math.max(e, 1e-30)))) - floor) / (ceiling - floor)) * (box.bottom - box.top);
  const dashes = ['', '6 3', '', '7 4', '2 3'];
  const decades = Array.from({ length: ceiling - floor + 1 }, (_, i) => floor + i).filter((d) => d % 2 === 0);
  const xTicks: number[] = [];
  for (let d = Math.ceil(lo); d <= Math.floor(hi); d++) xTicks.push(d);
  const firstOrder = comparisons.find((c) => c.info.order === 1 && c.run.maxError >= EXACT);
  const secondOrder = comparisons.find((c) => c.info.order === 2 && c.run.maxError >= EXACT);
  // Reference slopes through the current Δt, half a decade below a stepper of that order.
  const guide = (c: Comparison | undefined, order: number) => {
    if (!c) return null;
    const e0 = c.run.maxError / 3;
    const d0 = c.run.dt;
    const d1 = c.sweep[c.sweep.length - 1]![0];
    return (
      <g>
        <line x1={x(d0)} y1={y(e0)} x2={x(d1)} y2={y(e0 * (d1 / d0) ** order)} stroke="#8a93a0" strokeDasharray="3 3" />
        <text x={(x(d0) + x(d1)) / 2} y={(y(e0) + y(e0 * (d1 / d0) ** order)) / 2 + 12} fill="#8a93a0" fontSize={10}>
          {order === 1 ? '∝ Δt' : '∝ Δt²'}
        </text>
      </g>
    );
  };
  return (
    <svg width={width} height={height} style={{ flex: 'none' }} data-testid="error-plot">
      <rect x={box.left} y={box.top} width={box.right - box.left} height={box.bottom - box.top} fill="#1a1e25" stroke="#3a414d" />
      {decades.map((d) => (
        <g key={d}>
          <line x1={box.left} x2={box.right} y1={y(10 ** d)} y2={y(10 ** d)} stroke="#2a303a" />
          <text x={box.left - 4} y={y(10 ** d) + 3} fill="#9aa3ad" fontSize={10} textAnchor="end">
            {d === 0 ? '1 m' : `1e${d}`}
          </text>
        </g>
      ))}
      {xTicks.map((d) => (
        <text key={d} x={x(10 ** d)} y={box.bottom + 12} fill="#9aa3ad" fontSize={10} textAnchor="middle">
          {10 ** d >= 1 ? `${10 ** d} s` : `${Number((10 ** d).toPrecision(1))} s`}
        </text>
      ))}
      <line x1={x(dt)} x2={x(dt)} y1={box.top} y2={box.bottom} stroke="#e8e8e8" strokeDasharray="2 2" />
      {guide(firstOrder, 1)}
      {guide(secondOrder, 2)}
      {comparisons.map((c, i) => (
        <polyline key={c.info.name} points={c.sweep.map(([d, e]) => `${x(d)},${y(e)}`).join(' ')} fill="none" stroke={c.info.color} strokeWidth={1.6} strokeDasharray={dashes[i]} />
      ))}
      <text x={(box.left + box.right) / 2} y={height - 4} fill="#9aa3ad" fontSize={10} textAnchor="middle">
        Δt vs largest error, log–log{comparisons.some((c) => c.run.maxError < EXACT) ? ' · bottom line: exact' : ''}
      </text>
    </svg>
  );
}

/** The numbers under the panels: error at Δt and Δt/2, their ratio, the energy trend; and the slides' one-step table. */
function Table({ comparisons, scenario }: { comparisons: Comparison[]; scenario: Scenario }) {
  const cell = { padding: '1px 6px', textAlign: 'right' } as const;
  const first = comparisons[0]!;
  const slides = scenario === 'projectile' ? slidesTable() : [];
  return (
    <div style={{ flex: 1, minWidth: 0 }}>
      <table style={{ borderCollapse: 'collapse', font: '12px/1.35 system-ui, sans-serif' }} data-testid="integrator-table">
        <thead style={{ color: '#9aa3ad' }}>
          <tr>
            <th style={{ ...cell, textAlign: 'left' }}>Δt = {seconds(first.run.dt)}</th>
            <th style={cell}>order</th>
            <th style={cell}>error at Δt</th>
            <th style={cell}>at Δt/2</th>
            <th style={cell}>ratio</th>
            <th style={cell}>energy</th>
          </tr>
        </thead>
        <tbody>
          {comparisons.map((c) => (
            <tr key={c.info.name} data-integrator={c.info.name} data-ratio={String(c.ratio)} data-error={String(c.run.maxError)} data-drift={String(c.run.energyDrift)}>
              <td style={{ ...cell, textAlign: 'left', whiteSpace: 'nowrap' }}>
                <Swatch color={c.info.color} />
                {c.info.label}
              </td>
              <td style={cell}>{c.info.order}</td>
              <td style={cell}>{error(c.run.maxError)}</td>
              <td style={cell}>{error(c.half.maxError)}</td>
              <td style={{ ...cell, fontWeight: 600 }} data-testid={`ratio-${c.info.name}`}>
                {Number.isNaN(c.ratio) ? '—' : c.ratio.toFixed(2)}
              </td>
              <td style={{ ...cell, color: c.run.energyDrift > 0.005 ? '#ff8787' : c.run.energyDrift < -0.005 ? '#74c0fc' : '#b2f2bb' }}>
                {c.run.energyDrift > 0.005
                  ? `gains +${(c.run.energyDrift * 100).toFixed(1)}%`
                  : c.run.energyDrift < -0.005
                    ? `loses ${(c.run.energyDrift * 100).toFixed(1)}%`
                    : `keeps (${Math.abs(c.run.energyDrift) < 5e-5 ? '±0.00' : (c.run.energyDrift * 100).toFixed(2)}%)`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div style={{ color: '#9aa3ad', marginTop: 4, fontSize: 11.5 }}>
        ratio = error at Δt ÷ error at Δt/2: 2 for first order, 4 for second. Energy: {scenario === 'projectile' ? 'at the end vs the start' : 'mean over the last period vs the first'}.
      </div>
      {slides.length > 0 && (
        <div style={{ color: '#c9d1d9', marginTop: 3, fontSize: 11.5 }} data-testid="slides-table">
          The slides’ table: one explicit Euler step from (10, 2) m at (7.68, 29) m/s, height numerical − exact (m), quartering as Δt halves:
          <br />
          {slides.map((row) => (
            <span key={row.dt} data-testid={`slides-${row.dt}`} style={{ whiteSpace: 'nowrap' }}>
              Δt {row.dt}: {row.numerical.toFixed(4)} − {row.exact.toFixed(4)} = <b>{Number(row.error.toFixed(4))}</b>
              {row.dt !== 0.01 ? ' · ' : ''}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * Explicit Euler, symplectic Euler, leapfrog, velocity Verlet and position Verlet
 * (sinew's teaching steppers) run the same motion at the same Δt, each traced step
 * by step over the faint closed form; the strip below measures the truncation error.
 */
function Integrators({ scenario, dt, playback }: IntegratorsArgs) {
  const comparisons = useMemo(() => compare(scenario, dt), [scenario, dt]);
  const titles = useRef<(HTMLElement | null)[]>([]);
  const spec = SCENARIOS[scenario];
  const names = [...INTEGRATORS.map((info) => ({ label: `${info.label} · order ${info.order}`, color: info.color })), { label: 'All five · white: closed form', color: '#e8e8e8' }];
  return (
    <div style={{ position: 'relative' }}>
      <Scene camera={[0, 0, 10]} target={[0, 0, 0]} fov={40}>
        <Panels comparisons={comparisons} scenario={scenario} playback={playback} titles={titles} />
      </Scene>
      <LabelLayer>
        {names.map((name, i) => (
          <div
            key={name.label}
            style={{ ...labelStyle(name.color, 'top-left'), font: '600 12px system-ui, sans-serif' }}
            ref={(element) => {
              titles.current[i] = element;
            }}
          >
            {name.label}
          </div>
        ))}
      </LabelLayer>
      <div style={{ ...panelStyle, position: 'absolute', left: 8, right: 8, bottom: 8, height: STRIP - 16, display: 'flex', gap: 12, boxSizing: 'border-box', overflow: 'hidden' }}>
        <div style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <div style={{ fontWeight: 600, marginBottom: 2 }}>
            {spec.title} · {comparisons[0]!.run.steps} steps over {spec.duration} s
          </div>
          <Table comparisons={comparisons} scenario={scenario} />
        </div>
        <ErrorPlot comparisons={comparisons} dt={comparisons[0]!.run.dt} />
      </div>
    </div>
  );
}

const meta: Meta<typeof Integrators> = {
  title: 'Teaching/Integrators',
  component: Integrators,
  args: { scenario: 'spring', dt: 0.02, playback: 1 },
  argTypes: {
    scenario: { control: { type: 'inline-radio' }, options: ['projectile', 'spring', 'orbit'], description: 'What moves: the slides’ projectile, a spring, or an orbit around a centre.' },
    dt: { control: { type: 'range', min: 0.0025, max: 0.4, step: 0.0025 }, description: 'Time step Δt (s), rounded so a whole number of steps fills the run.' },
    playback: { control: { type: 'range', min: 0.1, max: 3, step: 0.1 }, description: 'Simulated seconds traced per real second.' },
  },
  parameters: {
    docs: {
      description: {
        component:
          'The course notes’ and the slides’ integrators side by side: `explicitEuler`, `symplecticEuler`, `leapfrog`, `velocityVerlet` and `positionVerlet` from `sinew-physics/teaching` step the same particle at the same Δt. Each panel traces one of them (a dot per step) over the faint closed form; the white ring is where the exact solution is at that moment. The strip measures the largest position error over the run at Δt and at Δt/2, their ratio (2 for first order, 4 for second), and whether the energy grows, and plots the error against Δt on log–log axes.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<typeof Integrators>;

/** Reads a stepper's row of the table. */
function row(canvasElement: HTMLElement, name: string) {
  const element = canvasElement.querySelector<HTMLElement>(`tr[data-integrator="${name}"]`);
  if (!element) throw new Error(`no table row for ${name}`);
  return { ratio: Number(element.dataset.ratio), error: Number(element.dataset.error), drift: Number(element.dataset.drift) };
}

/**
 * The slides’ 75.2° shot at their Δt = 0.2 s. Under constant gravity explicit Euler flies
 * high and symplectic Euler low, both by ½·g·t·Δt, so their error exactly halves with
 * the step (ratio 2.00); the three second-order steppers are exact for a parabola (sinew
 * starts position Verlet from the closed form; the slides start it with an Euler step).
 * The strip also reproduces the slides’ one-step table: 0.1962, 0.049, 0.0005 m. One step’s
 * error quarters as Δt halves (it is ∝ Δt²), but a run of T/Δt steps adds them up, so the
 * error over the run only halves: first order. Try Δt = 0.1 and 0.05.
 */
export const Projectile: Story = {
  args: { scenario: 'projectile', dt: 0.2 },
  play: async ({ canvasElement }) => {
    const euler = row(canvasElement, 'explicitEuler');
    await expect(euler.ratio).toBeCloseTo(2, 2);
    await expect(euler.error).toBeCloseTo(0.5 * 9.81 * 5.4 * 0.2, 6);
    await expect(euler.drift).toBeGreaterThan(0);
    await expect(row(canvasElement, 'symplecticEuler').ratio).toBeCloseTo(2, 2);
    await expect(row(canvasElement, 'symplecticEuler').drift).toBeLessThan(0);
    for (const name of ['leapfrog', 'velocityVerlet', 'positionVerlet']) {
      await expect(row(canvasElement, name).error, `${name} is exact on a parabola`).toBeLessThan(1e-9);
      await expect(canvasElement.querySelector(`[data-testid="ratio-${name}"]`)!.textContent).toBe('—');
    }
    // The slides' truncation error table (position only).
    await expect(canvasElement.querySelector('[data-testid="slides-0.2"]')!.textContent).toContain('7.8000 − 7.6038 = 0.1962');
    await expect(canvasElement.querySelector('[data-testid="slides-0.1"]')!.textContent).toContain('4.9000 − 4.8510 = 0.049');
    await expect(canvasElement.querySelector('[data-testid="slides-0.01"]')!.textContent).toContain('2.2900 − 2.2895 = 0.0005');
  },
};

/**
 * A spring x″ = −ω²x with a 2 s period, two periods at Δt = 0.02 s. Explicit Euler’s swing
 * grows every step (it gains energy) and its error halves with the step; symplectic Euler
 * stays on the spring’s energy but is still first order; leapfrog, velocity Verlet and
 * position Verlet trace the same positions (forces of position only) and their error
 * quarters. Drag Δt up to watch Euler blow up, or down to see the ratios settle at 2 and 4.
 */
export const Spring: Story = {
  args: { scenario: 'spring', dt: 0.02 },
  play: async ({ canvasElement }) => {
    const euler = row(canvasElement, 'explicitEuler');
    await expect(euler.ratio).toBeGreaterThan(1.8);
    await expect(euler.ratio).toBeLessThan(2.4);
    await expect(euler.drift, 'explicit Euler gains energy').toBeGreaterThan(0.1);
    const symplectic = row(canvasElement, 'symplecticEuler');
    await expect(symplectic.ratio).toBeGreaterThan(1.8);
    await expect(symplectic.ratio).toBeLessThan(2.3);
    for (const name of ['symplecticEuler', 'leapfrog', 'velocityVerlet', 'positionVerlet']) {
      await expect(Math.abs(row(canvasElement, name).drift), `${name} keeps the energy`).toBeLessThan(0.005);
    }
    for (const name of ['leapfrog', 'velocityVerlet', 'positionVerlet']) {
      await expect(row(canvasElement, name).ratio, `${name} is second order`).toBeGreaterThan(3.8);
      await expect(row(canvasElement, name).ratio).toBeLessThan(4.2);
    }
  },
};

/**
 * A particle pulled to the centre by a = −GM·p/|p|³ on a circular orbit (period 2 s), two
 * turns at Δt = 0.02 s. Explicit Euler spirals outward: it gains energy every step. At this
 * Δt it has already left the orbit, so its error no longer halves with the step (the ratio
 * is far from 2); shrink Δt and the log–log line bends to slope 1. The others stay on the
 * circle: symplectic Euler with a first-order lag, the second-order three with a ratio of 4.
 */
export const Orbit: Story = {
  args: { scenario: 'orbit', dt: 0.02 },
  play: async ({ canvasElement }) => {
    await expect(row(canvasElement, 'explicitEuler').drift, 'explicit Euler gains energy').toBeGreaterThan(0.05);
    const symplectic = row(canvasElement, 'symplecticEuler');
    await expect(symplectic.ratio).toBeGreaterThan(1.8);
    await expect(symplectic.ratio).toBeLessThan(2.3);
    for (const name of ['symplecticEuler', 'leapfrog', 'velocityVerlet', 'positionVerlet']) {
      await expect(Math.abs(row(canvasElement, name).drift), `${name} keeps the energy`).toBeLessThan(0.005);
    }
    for (const name of ['leapfrog', 'velocityVerlet', 'positionVerlet']) {
      await expect(row(canvasElement, name).ratio, `${name} is second order`).toBeGreaterThan(3.8);
      await expect(row(canvasElement, name).ratio).toBeLessThan(4.2);
    }
  },
};
