import type { Meta, StoryObj } from '@storybook/react-vite';
import { useFrame } from '@react-three/fiber';
import { useRef, type RefObject } from 'react';
import { DoubleSide } from 'three';
import { expect } from 'storybook/test';
import { FABRICS, particleSlot, type FabricName } from '../src/core/index.js';
import { Cloth, DragControls, Wind, World, useWorld, type ClothApi } from '../src/react/index.js';
import { waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { Floor, Hint, bodiesOf, documents, waitForSteps } from './support/softScenes.js';
import type { Probe } from './support/WorldProbe.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Materials',
  component: documents(Cloth),
};
export default meta;

/** Mean height of the top row minus mean height of the bottom row of a `width` × `height` cloth starting at particle `first`. */
function hangingLength(probe: Probe, first: number, width: number, height: number): number {
  const p = probe.world.particles.position;
  let sum = 0;
  for (let i = 0; i < width; i++) sum += p[(first + i) * 3 + 1]! - p[(first + (height - 1) * width + i) * 3 + 1]!;
  return sum / width;
}

/** Mean z of the bottom row: how far the breeze has blown the hem. */
function hemDrift(probe: Probe, first: number, width: number, height: number): number {
  const p = probe.world.particles.position;
  let sum = 0;
  for (let i = 0; i < width; i++) sum += p[(first + (height - 1) * width + i) * 3 + 2]!;
  return sum / width;
}

// ---------------------------------------------------------------------------
// The same curtain in three fabrics

interface FabricsArgs {
  /** Speed of the breeze blowing through the three curtains (m/s). */
  windSpeed: number;
  left: FabricName;
  middle: FabricName;
  right: FabricName;
}

const FABRIC = { width: 16, height: 20, spacing: 0.05, top: 2.2, gap: 1.1 } as const;
const FABRIC_COLORS: Record<FabricName, string> = { silk: '#e7c6e0', cotton: '#f1ede4', denim: '#3d5a80', rubberSheet: '#d9822b' };
const FABRIC_NAMES = Object.keys(FABRICS) as FabricName[];

function FabricsScene({ windSpeed, left, middle, right }: FabricsArgs) {
  const fabrics = [left, middle, right];
  const half = ((FABRIC.width - 1) * FABRIC.spacing) / 2;
  const label = fabrics.map((name) => `${name} (${Math.round(FABRICS[name].arealDensity * 1000)} g/m², ${FABRICS[name].stretchStiffness} N/m)`).join(' · ');
  return (
    <Scene camera={[0.6, 1.75, 3.4]} target={[0, 1.6, 0.2]} overlay={<Hint>Left to right: {label}. The same breeze blows through all three.</Hint>}>
      <World damping={0.05} sleep={false}>
        <WorldProbe name="fabrics" />
        <Floor />
        {fabrics.map((material, k) => (
          <Cloth
            key={`${k}/${material}`}
            name={`fabric-${k}`}
            width={FABRIC.width}
            height={FABRIC.height}
            spacing={FABRIC.spacing}
            corner={[(k - 1) * FABRIC.gap - half, FABRIC.top, 0]}
            pin="top"
            material={material}
            castShadow
          >
            <meshStandardMaterial color={FABRIC_COLORS[material]} side={DoubleSide} roughness={material === 'rubberSheet' ? 0.45 : 0.85} />
          </Cloth>
        ))}
        <Wind velocity={[0, 0, windSpeed]} gust={0.3} turbulence={0.3} seed={7} />
        <DragControls />
      </World>
      <mesh position={[0, FABRIC.top + 0.02, 0]} rotation-z={Math.PI / 2}>
        <cylinderGeometry args={[0.015, 0.015, 3 * FABRIC.gap + 0.4, 8]} />
        <meshStandardMaterial color="#868e96" metalness={0.6} roughness={0.4} />
      </mesh>
    </Scene>
  );
}

/**
 * One curtain, 16 × 20 particles 5 cm apart, in three real fabrics (the
 * `material` prop: areal density and stretch stiffness from `FABRICS`), hung from
 * one rail in the same breeze. The light silk billows, the heavy denim barely
 * lifts: the wind pushes every square metre alike, and a fabric's weight per
 * square metre decides how far that moves it. Pick the fabrics in the controls.
 */
export const ThreeFabrics: StoryObj<FabricsArgs> = {
  name: 'The same curtain in three fabrics',
  render: (args) => <FabricsScene {...args} />,
  args: { windSpeed: 3, left: 'silk', middle: 'cotton', right: 'denim' },
  argTypes: {
    windSpeed: { control: { type: 'range', min: 0, max: 8, step: 0.5 }, description: 'Speed of the breeze (m/s).' },
    left: { control: 'select', options: FABRIC_NAMES, description: 'Fabric of the left curtain.' },
    middle: { control: 'select', options: FABRIC_NAMES, description: 'Fabric of the middle curtain.' },
    right: { control: 'select', options: FABRIC_NAMES, description: 'Fabric of the right curtain.' },
  },
  parameters: { controls: { include: ['windSpeed', 'left', 'middle', 'right'] } },
  play: async () => {
    const probe = await waitForProbe('fabrics');
    await waitForSteps(probe, 10, 10_000);
    const cloths = bodiesOf(probe, 'cloth');
    await expect(cloths.length).toBe(3);
    // Each particle carries its fabric's areal density times the 5 cm square it stands for.
    const w = probe.world.particles.inverseMass;
    const densities = [FABRICS.silk, FABRICS.cotton, FABRICS.denim].map((f) => f.arealDensity);
    cloths.forEach((cloth, k) => expect(1 / w[cloth.first + FABRIC.width]!).toBeCloseTo(densities[k]! * FABRIC.spacing ** 2, 9));
    // Step the world here for 4 s, then read back over 1 s more: the lighter the fabric, the further the breeze blows its hem.
    for (let i = 0; i < 240; i++) probe.world.step();
    const drift = [0, 0, 0];
    for (let i = 0; i < 60; i++) {
      probe.world.step();
      cloths.forEach((cloth, k) => (drift[k] = drift[k]! + hemDrift(probe, cloth.first, FABRIC.width, FABRIC.height) / 60));
    }
    await expect(drift[0]!).toBeGreaterThan(drift[1]!);
    await expect(drift[1]!).toBeGreaterThan(drift[2]!);
    await expect(drift[2]!).toBeGreaterThan(0.05);
  },
};

// ---------------------------------------------------------------------------
// Substeps change, the look stays

interface SubstepsArgs {
  /** Substeps per 1/60 s step of both worlds (1 relaxation pass each). */
  substeps: number;
}

/** The curtain: 20 × 20 particles of 1 kg, 5 cm apart (0.95 m at rest), pinned along its top. */
const CURTAIN = { size: 20, spacing: 0.05, top: 2.1 } as const;
/** Structural and shear compliance (m/N) that hangs the curtain 1.00 m long (test/core/complianceCurtain.test.ts). */
const CURTAIN_COMPLIANCE = 4.4e-5;
/** Legacy per-pass stiffness that hangs it about 1.00 m at the default 10 substeps. */
const LEGACY_STIFFNESS = 0.1;

/** Writes the curtain's hanging length into `into` four times a second. */
function LengthReadout({ cloth, into, title }: { cloth: RefObject<ClothApi | null>; into: RefObject<HTMLElement | null>; title: string }) {
  const world = useWorld();
  const since = useRef(0);
  useFrame((_, delta) => {
    since.current += delta;
    const handle = cloth.current?.current;
    const element = into.current;
    if (since.current < 0.25 || !handle || !element) return;
    since.current = 0;
    const p = world.particles.position;
    let sum = 0;
    for (let i = 0; i < CURTAIN.size; i++) sum += p[(handle.first + i) * 3 + 1]! - p[(handle.first + (CURTAIN.size - 1) * CURTAIN.size + i) * 3 + 1]!;
    element.textContent = `${title}\n${(sum / CURTAIN.size).toFixed(3)} m`;
  });
  return null;
}

function CurtainWorld({ substeps, x, legacy, readout }: { substeps: number; x: number; legacy: boolean; readout: RefObject<HTMLElement | null> }) {
  const cloth = useRef<ClothApi>(null);
  const sticks = legacy ? { stiffness: LEGACY_STIFFNESS } : { compliance: CURTAIN_COMPLIANCE };
  return (
    <World substeps={substeps} iterations={1} damping={2} sleep={false}>
      <WorldProbe name={legacy ? 'legacy' : 'compliant'} />
      <Cloth
        ref={cloth}
        width={CURTAIN.size}
        height={CURTAIN.size}
        spacing={CURTAIN.spacing}
        corner={[x - ((CURTAIN.size - 1) * CURTAIN.spacing) / 2, CURTAIN.top, 0]}
        pin="top"
        particleMass={1}
        structural={sticks}
        shear={sticks}
      >
        <meshStandardMaterial color={legacy ? '#e8605c' : '#4fb3c4'} side={DoubleSide} roughness={0.8} />
      </Cloth>
      <LengthReadout cloth={cloth} into={readout} title={legacy ? `stiffness ${LEGACY_STIFFNESS} (per pass)` : 'compliance 4.4e-5 m/N'} />
      <DragControls />
    </World>
  );
}

function SubstepsScene({ substeps }: SubstepsArgs) {
  const legacy = useRef<HTMLDivElement>(null);
  const compliant = useRef<HTMLDivElement>(null);
  const readout = { position: 'absolute', top: 40, whiteSpace: 'pre', font: '13px/1.3 ui-monospace, monospace', color: '#dfe6ee', textAlign: 'center' } as const;
  return (
    <div style={{ position: 'relative' }}>
      <Scene
        camera={[0, 1.5, 3.2]}
        target={[0, 1.5, 0]}
        overlay={<Hint>Change the substeps: the left curtain (per-pass stiffness) changes length, the right one (compliance) does not. The bars mark 1.00 m.</Hint>}
      >
        <CurtainWorld substeps={substeps} x={-0.65} legacy readout={legacy} />
        <CurtainWorld substeps={substeps} x={0.65} legacy={false} readout={compliant} />
        {[-0.65, 0.65].map((x) => (
          <mesh key={x} position={[x, CURTAIN.top - 1, -0.02]}>
            <boxGeometry args={[1.1, 0.01, 0.01]} />
            <meshStandardMaterial color="#f4f1e8" />
          </mesh>
        ))}
      </Scene>
      <div ref={legacy} data-testid="length-legacy" style={{ ...readout, left: '25%', transform: 'translateX(-50%)' }} />
      <div ref={compliant} data-testid="length-compliant" style={{ ...readout, left: '75%', transform: 'translateX(-50%)' }} />
    </div>
  );
}

/** Steps `probe`'s world `steps` times and returns the curtain's length averaged over the last `average` steps. */
function settledLength(probe: Probe, steps: number, average: number): number {
  const first = bodiesOf(probe, 'cloth')[0]!.first;
  let sum = 0;
  for (let i = 0; i < steps; i++) {
    probe.world.step();
    if (i >= steps - average) sum += hangingLength(probe, first, CURTAIN.size, CURTAIN.size);
  }
  return sum / average;
}

/**
 * Issue 16's curtain twice, each in its own `<World>` with the substeps of the
 * control: on the left its sticks have the legacy per-pass `stiffness` 0.1, on
 * the right a `compliance` (m/N) chosen to hang it 1.00 m long. Slide the
 * substeps from 2 to 30: the left curtain hangs longer the fewer the substeps
 * (1.16 m at 5, 0.97 m at 20), the right one stays at 1.00 m, since a
 * compliance is a spring constant, not a share of each pass.
 */
export const SubstepsChangeTheLookStays: StoryObj<SubstepsArgs> = {
  name: 'Substeps change, the look stays',
  render: (args) => <SubstepsScene {...args} />,
  args: { substeps: 10 },
  argTypes: { substeps: { control: { type: 'range', min: 2, max: 30, step: 1 }, description: 'Substeps per 1/60 s step of both worlds (1 pass each).' } },
  parameters: { controls: { include: ['substeps'] } },
  play: async () => {
    const legacy = await waitForProbe('legacy');
    const compliant = await waitForProbe('compliant');
    await waitForSteps(compliant, 30, 10_000);
    // Step both worlds here, at 5 and then 20 substeps, 6 s each (damping 2/s settles them), and read the lengths back.
    const lengths: Record<string, number> = {};
    for (const substeps of [5, 20]) {
      for (const probe of [legacy, compliant]) {
        probe.world.substeps = substeps;
        lengths[`${probe === legacy ? 'legacy' : 'compliant'}-${substeps}`] = settledLength(probe, 360, 60);
      }
    }
    await expect(Math.abs(lengths['compliant-5']! - 1)).toBeLessThan(0.02);
    await expect(Math.abs(lengths['compliant-20']! - 1)).toBeLessThan(0.02);
    await expect(lengths['legacy-5']! / lengths['legacy-20']! - 1).toBeGreaterThan(0.1);
    // Back to the control's setting, and a push, so the picture moves again.
    for (const probe of [legacy, compliant]) {
      probe.world.substeps = 10;
      const cloth = bodiesOf(probe, 'cloth')[0]!;
      for (let id = cloth.first; id < cloth.first + cloth.count; id++) if (probe.world.particles.inverseMass[particleSlot(id)] !== 0) probe.world.setVelocity(id, [0, 0, 1.5]);
    }
  },
};
