import type { Meta, StoryObj } from '@storybook/react-vite';
import { useFrame } from '@react-three/fiber';
import { useMemo, useRef, useState, type RefObject } from 'react';
import { DoubleSide, type Mesh } from 'three';
import { expect, waitFor } from 'storybook/test';
import { Cloth, DragControls, Wind, World, useWorld, useWorldStoreApi, type ClothApi } from '../src/index.js';
import { Scene } from './support/Scene.js';
import { WorldProbe } from './support/WorldProbe.js';
import { FrameRegion, LabelLayer, PlaceLabels, labelStyle } from './support/teachingScene.js';

/** Controls of the solver trade-off story. */
interface SolverTradeoffArgs {
  /** Particles along each side of every cloth. */
  size: number;
  /** Substeps of the last panel (with 1 relaxation pass each). */
  substeps: number;
  /** Mean wind speed across the cloths (m/s). */
  windSpeed: number;
  /** Stiffness of the structural and shear sticks (share of the error repaired per pass). */
  stiffness: number;
  /** What runs the stick pass: the WebAssembly SIMD kernel or the TypeScript loops (same positions). */
  kernel: 'wasm' | 'js';
}

/** One panel: a `<World>` with its own substeps and relaxation passes. */
interface Setup {
  substeps: number;
  iterations: number;
  color: string;
}

/** Seconds between readout updates: readable, and no string building per frame. */
const READOUT_INTERVAL = 0.25;
/** `ClothStickKind.Structural` (a const enum in the core). */
const STRUCTURAL = 0;
const PANELS = 6;
const CELL_WIDTH = 1.3;
const CLOTH_WIDTH = 0.9;
/** Height of the pins. */
const TOP = 2.4;
/** Height of the bars' baseline, and of the tallest bar. */
const BASE = -2.3;
const BAR_HEIGHT = 1.5;
const BAR_WIDTH = 0.3;
/** The region the camera frames: the titles, the cloths and the bars with their values. */
const REGION = { top: TOP + 0.7, bottom: BASE - 0.45, halfWidth: (PANELS * CELL_WIDTH) / 2 };

/** The six set-ups: 1, 2, 5, 10 and 20 passes in one step, and `substeps` substeps of one pass. */
function setups(substeps: number): Setup[] {
  return [
    { substeps: 1, iterations: 1, color: '#ff8787' },
    { substeps: 1, iterations: 2, color: '#ffa94d' },
    { substeps: 1, iterations: 5, color: '#ffd43b' },
    { substeps: 1, iterations: 10, color: '#a9e34b' },
    { substeps: 1, iterations: 20, color: '#69db7c' },
    { substeps, iterations: 1, color: '#74c0fc' },
  ];
}

/** Centre of panel `i` along x. */
function column(i: number): number {
  return (i - (PANELS - 1) / 2) * CELL_WIDTH;
}

/** The latest numbers of every panel, shared by the meters (which write) and the bars (which read). */
interface Measurements {
  ms: Float64Array;
  stretch: Float64Array;
}

/**
 * Measures one world a few times a second: its smoothed milliseconds per step (the
 * store's `frame.msPerStep`) and the cloth's stretch (mean strain of its structural
 * sticks). Writes them into `into` and, with their running means, into the panel's
 * value label's `data-` attributes for tests.
 */
function Meter({ index, cloth, into, label }: { index: number; cloth: RefObject<ClothApi | null>; into: Measurements; label: () => HTMLElement | null }) {
  const store = useWorldStoreApi();
  const world = useWorld();
  const since = useRef(READOUT_INTERVAL);
  // Mean stretch after the first second (the drop), for a steady comparison.
  const mean = useRef({ sum: 0, samples: 0 });
  useFrame((_, delta) => {
    since.current += delta;
    const handle = cloth.current?.current;
    if (since.current < READOUT_INTERVAL || !handle) return;
    since.current = 0;
    const { a, b, rest, kind, id, count } = handle.sticks;
    const p = world.positions;
    let sum = 0;
    let n = 0;
    for (let s = 0; s < count; s++) {
      if (kind[s] !== STRUCTURAL || id[s]! < 0) continue;
      const i = a[s]! * 3;
      const j = b[s]! * 3;
      const length = Math.hypot(p[j]! - p[i]!, p[j + 1]! - p[i + 1]!, p[j + 2]! - p[i + 2]!);
      sum += Math.abs(length / rest[s]! - 1);
      n++;
    }
    const stretch = n > 0 ? sum / n : 0;
    const previous = into.stretch[index]!;
    into.stretch[index] = previous > 0 ? previous + (stretch - previous) * 0.5 : stretch;
    into.ms[index] = store.getState().frame.msPerStep;
    const target = label();
    if (!target) return;
    target.dataset.ms = String(into.ms[index]);
    target.dataset.time = String(world.time);
    if (world.time > 1) {
      mean.current.sum += stretch;
      mean.current.samples++;
      target.dataset.meanStretch = String(mean.current.sum / mean.current.samples);
    }
  });
  return null;
}

/**
 * Two bars under each cloth, rescaled a few times a second: its world's measured
 * ms per step (in the cloth's colour; the slowest panel's bar is full height) and its
 * stretch (grey; the stretchiest is full height), with the numbers written below.
 */
function Bars({ colors, into, labels }: { colors: readonly string[]; into: Measurements; labels: RefObject<(HTMLElement | null)[]> }) {
  const bars = useRef<(Mesh | null)[]>([]);
  const since = useRef(READOUT_INTERVAL);
  useFrame((_, delta) => {
    since.current += delta;
    if (since.current < READOUT_INTERVAL) return;
    since.current = 0;
    let maxMs = 0;
    let maxStretch = 0;
    for (let i = 0; i < PANELS; i++) {
      maxMs = Math.max(maxMs, into.ms[i]!);
      maxStretch = Math.max(maxStretch, into.stretch[i]!);
    }
    for (let i = 0; i < PANELS; i++) {
      const ms = into.ms[i]!;
      const stretch = into.stretch[i]!;
      setBar(bars.current[i * 2], maxMs > 0 ? ms / maxMs : 0);
      setBar(bars.current[i * 2 + 1], maxStretch > 0 ? stretch / maxStretch : 0);
      const label = labels.current?.[i];
      if (label && ms > 0) label.textContent = `${ms.toFixed(3)} ms\n${(stretch * 100).toFixed(1)}%`;
    }
  });
  return (
    <>
      {colors.map((color, i) => (
        <group key={i} position={[column(i), BASE, 0]}>
          {[0, 1].map((k) => (
            <mesh
              key={k}
              position={[(k - 0.5) * (BAR_WIDTH + 0.06), 0, 0]}
              scale={[1, 0.001, 1]}
              ref={(mesh) => {
                bars.current[i * 2 + k] = mesh;
              }}
            >
              <boxGeometry args={[BAR_WIDTH, BAR_HEIGHT, 0.1]} />
              <meshStandardMaterial color={k === 0 ? color : '#ced4da'} />
            </mesh>
          ))}
        </group>
      ))}
      <mesh position={[0, BASE - 0.01, 0]}>
        <boxGeometry args={[PANELS * CELL_WIDTH, 0.02, 0.12]} />
        <meshStandardMaterial color="#5c6470" />
      </mesh>
    </>
  );
}

/** Sets a bar (drawn BAR_HEIGHT tall, from the baseline up) to a share of its full height. */
function setBar(bar: Mesh | null | undefined, share: number) {
  if (!bar) return;
  const h = Math.max(0.001, share);
  bar.scale.y = h;
  bar.position.y = (h * BAR_HEIGHT) / 2;
}

/** One panel's world: the cloth, the wind, dragging and the meter. */
function Panel({ index, setup, args, into, label }: { index: number; setup: Setup; args: SolverTradeoffArgs; into: Measurements; label: () => HTMLElement | null }) {
  const cloth = useRef<ClothApi>(null);
  const origin = useMemo((): [number, number, number] => [column(index) - CLOTH_WIDTH / 2, TOP, -CLOTH_WIDTH / 2], [index]);
  return (
    <World substeps={setup.substeps} iterations={setup.iterations} sleep={false} kernel={args.kernel}>
      <WorldProbe name={`tradeoff-${index}`} />
      <Cloth
        ref={cloth}
        width={args.size}
        height={args.size}
        spacing={CLOTH_WIDTH / (args.size - 1)}
        corner={origin}
        orientation="horizontal"
        pin="top-corners"
        mass={0.5}
        structural={{ stiffness: args.stiffness }}
        shear={{ stiffness: args.stiffness }}
      >
        <meshStandardMaterial color={setup.color} side={DoubleSide} roughness={0.8} />
      </Cloth>
      <Wind velocity={[0, 0, args.windSpeed]} gust={0.5} turbulence={0.3} seed={7} />
      <DragControls />
      <Meter index={index} cloth={cloth} into={into} label={label} />
    </World>
  );
}

/**
 * The paper's "stop at any time": the same cloth solved with 1, 2, 5, 10 and 20
 * relaxation passes per 1/60 s step, and with `substeps` substeps of one pass.
 * Each cloth lives in its own `<World>`, so each number is that world's own time.
 */
function SolverTradeoff(args: SolverTradeoffArgs) {
  const list = useMemo(() => setups(args.substeps), [args.substeps]);
  const [into] = useState<Measurements>(() => ({ ms: new Float64Array(PANELS), stretch: new Float64Array(PANELS) }));
  const titles = useRef<(HTMLElement | null)[]>([]);
  const values = useRef<(HTMLElement | null)[]>([]);
  const titlePositions = useMemo(() => list.map((_, i): [number, number, number] => [column(i), TOP + 0.38, 0]), [list]);
  const valuePositions = useMemo(() => list.map((_, i): [number, number, number] => [column(i), BASE - 0.05, 0]), [list]);
  const colors = useMemo(() => list.map((setup) => setup.color), [list]);
  return (
    <div style={{ position: 'relative' }}>
      <Scene camera={[0, 0.3, 9]} target={[0, 0.3, 0]}>
        <FrameRegion center={[0, (REGION.top + REGION.bottom) / 2]} halfWidth={REGION.halfWidth} halfHeight={(REGION.top - REGION.bottom) / 2} margin={0.03} />
        <PlaceLabels elements={titles} positions={titlePositions} />
        <PlaceLabels elements={values} positions={valuePositions} />
        <mesh position={[0, TOP + 0.02, -CLOTH_WIDTH / 2]} rotation-z={Math.PI / 2}>
          <cylinderGeometry args={[0.02, 0.02, PANELS * CELL_WIDTH, 8]} />
          <meshStandardMaterial color="#868e96" />
        </mesh>
        {list.map((setup, i) => (
          <Panel key={`${i}/${setup.substeps}`} index={i} setup={setup} args={args} into={into} label={() => values.current[i] ?? null} />
        ))}
        <Bars colors={colors} into={into} labels={values} />
      </Scene>
      <LabelLayer>
        {list.map((setup, i) => (
          <div
            key={`title-${i}`}
            style={{ ...labelStyle(setup.color), textAlign: 'center', font: '600 13px/1.25 system-ui, sans-serif' }}
            ref={(element) => {
              titles.current[i] = element;
            }}
          >
            {setup.substeps === 1 ? `${setup.iterations} pass${setup.iterations === 1 ? '' : 'es'}` : `${setup.substeps} substeps`}
            <div style={{ font: '11px system-ui, sans-serif', color: '#adb5bd' }}>{setup.substeps === 1 ? 'in 1 step' : '× 1 pass'}</div>
          </div>
        ))}
        {list.map((setup, i) => (
          <div
            key={`value-${i}`}
            data-testid={`readout-${setup.substeps}x${setup.iterations}`}
            style={{ ...labelStyle('#dfe6ee', 'top-left'), transform: 'translate(-50%, 0)', textAlign: 'center', whiteSpace: 'pre', font: '12px/1.3 ui-monospace, monospace' }}
            ref={(element) => {
              values.current[i] = element;
            }}
          />
        ))}
        <div style={{ position: 'absolute', left: 10, bottom: 8, font: '11px system-ui, sans-serif', color: '#9aa3ad' }}>
          bars: coloured = measured ms per step (each world’s own), grey = stretch (mean strain of the structural sticks)
        </div>
      </LabelLayer>
    </div>
  );
}

const meta: Meta<typeof SolverTradeoff> = {
  title: 'Teaching/Solver trade-off',
  component: SolverTradeoff,
  args: { size: 24, substeps: 10, windSpeed: 1.5, stiffness: 1, kernel: 'wasm' },
  argTypes: {
    size: { control: { type: 'range', min: 6, max: 48, step: 1 }, description: 'Particles along each side of every cloth.' },
    substeps: { control: { type: 'range', min: 2, max: 20, step: 1 }, description: 'Substeps of the last panel, one relaxation pass each.' },
    windSpeed: { control: { type: 'range', min: 0, max: 12, step: 0.5 }, description: 'Mean wind speed across the cloths (m/s).' },
    stiffness: { control: { type: 'range', min: 0.1, max: 1, step: 0.05 }, description: 'Stiffness of the structural and shear sticks.' },
    kernel: {
      control: { type: 'inline-radio' },
      options: ['wasm', 'js'],
      description: 'What runs the stick pass: the WebAssembly SIMD kernel or the TypeScript loops. The cloths move the same; the milliseconds do not.',
    },
  },
  parameters: {
    docs: {
      description: {
        component:
          'Jakobsen’s relaxation can stop after any number of passes: fewer passes cost less and leave the cloth stretchier, never broken. Six `<World>`s run the same `<Cloth>` side by side; under each cloth, two bars and their numbers show that world’s measured milliseconds per step (the store’s smoothed `frame.msPerStep`) and the cloth’s stretch (mean strain of its structural sticks), updated a few times a second. The last panel spends its passes on substeps instead, as *Small Steps in Physics Simulation* recommends.',
      },
    },
  },
};
export default meta;

type Story = StoryObj<typeof SolverTradeoff>;

/** Reads a panel's readout once it has numbers. */
function readout(canvasElement: HTMLElement, key: string) {
  const element = canvasElement.querySelector<HTMLElement>(`[data-testid="readout-${key}"]`);
  if (!element) throw new Error(`no readout ${key}`);
  return { ms: Number(element.dataset.ms ?? Number.NaN), meanStretch: Number(element.dataset.meanStretch ?? Number.NaN), time: Number(element.dataset.time ?? 0), text: element.textContent ?? '' };
}

/**
 * Six cloths pinned by two corners, dropped flat into a light wind. Watch the one-pass cloth
 * sag like rubber, and the cloths firm up as passes are added, at a cost you can read under
 * each one; ten substeps of one pass beat even twenty passes in one step, for about the
 * price of ten, and keep swinging longest: they lose the least energy to the solver. Drag
 * any cloth to feel it; change the size, the substeps or the stiffness.
 */
export const SideBySide: Story = {
  play: async ({ canvasElement }) => {
    const keys = ['1x1', '1x2', '1x5', '1x10', '1x20', '10x1'];
    // Every panel measures its own world: a number of ms per step, live.
    await waitFor(
      () => {
        for (const key of keys) {
          const r = readout(canvasElement, key);
          expect(r.ms, `${key} ms/step`).toBeGreaterThan(0);
          expect(r.text).toMatch(/^\d+\.\d{3} ms\n\d+\.\d%$/);
          expect(r.time, `${key} has hung for a while`).toBeGreaterThan(2.5);
          expect(r.meanStretch).toBeGreaterThan(0);
        }
      },
      { timeout: 20_000, interval: 250 },
    );
    // Stretch averaged since the first second: more passes, less stretch; substeps beat the same passes spent in one step.
    const stretch = Object.fromEntries(keys.map((key) => [key, readout(canvasElement, key).meanStretch]));
    await expect(stretch['1x1']!).toBeGreaterThan(stretch['1x5']!);
    await expect(stretch['1x5']!).toBeGreaterThan(stretch['1x20']!);
    await expect(stretch['10x1']!).toBeLessThan(stretch['1x10']!);
  },
};
