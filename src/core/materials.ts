import { checkNumber } from './math.js';

// Materials in physical units. A compliant constraint is solved the XPBD way
// (constraints/sticks.ts): a stick of compliance α (m/N) is a spring of
// k = 1/α, so how far it stretches under a load is a property of the material,
// not of the substeps and iterations. This file holds the unit conversions and
// the presets of real fabrics and ropes; docs/materials.md lists the sources.

/** Checks a compliance (m/N): finite and >= 0 (0 is rigid); `what` names the argument. */
export function checkCompliance(value: unknown, what: string): number {
  return checkNumber(value, what, 0);
}

/** Checks a constraint damping (N·s/m): finite and >= 0; `what` names the argument. */
export function checkDamping(value: unknown, what: string): number {
  return checkNumber(value, what, 0);
}

/**
 * The compliance (m/N) of a spring of stiffness `newtonsPerMetre` (N/m): α = 1/k.
 * Infinity gives 0, a rigid stick.
 *
 * @example
 * ```ts
 * world.addStick(anchor, bob, { compliance: complianceOf(2000) }); // stretches 1 mm per 2 N
 * ```
 */
export function complianceOf(newtonsPerMetre: number): number {
  if (newtonsPerMetre === Infinity) return 0;
  checkNumber(newtonsPerMetre, 'complianceOf: stiffness (N/m)', Number.MIN_VALUE);
  return 1 / newtonsPerMetre;
}

/**
 * The compliance (m/N) of a stick standing for `length` m of a rope or rod of
 * axial stiffness `axialStiffness` = E·A (N, the force that would double its
 * length): α = L / (E·A). Infinity gives 0 (rigid).
 */
export function axialCompliance(axialStiffness: number, length: number): number {
  checkNumber(length, 'axialCompliance: length', 0);
  if (axialStiffness === Infinity) return 0;
  checkNumber(axialStiffness, 'axialCompliance: axialStiffness (N)', Number.MIN_VALUE);
  return length / axialStiffness;
}

/**
 * The compliance closest to a legacy per-pass `stiffness` at the solver settings
 * it was tuned for: the one that repairs, in one XPBD pass, the share of the
 * error that `passes` passes of `stiffness` repaired in one substep of length
 * `h` (s), for a stick whose ends have inverse masses summing to `inverseMassSum`
 * (1/kg). With r = (1 − stiffness)^passes, α = h²·Σw·r / (1 − r). Stiffness 1
 * gives 0. Unlike the stiffness it replaces, the result does not change when the
 * substeps do: it is the old look frozen at one setting.
 *
 * @example
 * ```ts
 * // A cloth tuned at the defaults (10 substeps of 1/600 s, 1 pass), particles of 0.01 kg:
 * const compliance = complianceForStiffness(0.1, { inverseMassSum: 200, h: 1 / 600, passes: 1 });
 * ```
 */
export function complianceForStiffness(stiffness: number, settings: { inverseMassSum: number; h: number; passes: number }): number {
  checkNumber(stiffness, 'complianceForStiffness: stiffness', Number.MIN_VALUE, 1);
  const w = checkNumber(settings.inverseMassSum, 'complianceForStiffness: inverseMassSum', Number.MIN_VALUE);
  const h = checkNumber(settings.h, 'complianceForStiffness: h', Number.MIN_VALUE);
  const passes = checkNumber(settings.passes, 'complianceForStiffness: passes', 1);
  const left = Math.pow(1 - stiffness, passes);
  return (h * h * w * left) / (1 - left);
}

/**
 * A woven fabric or a thin sheet as a membrane: mass per area and in-plane
 * stiffnesses. Measured stiffnesses of fabrics are per unit width (N/m: force per
 * metre of width per unit strain), which is what a cloth grid's sticks need.
 */
export interface FabricMaterial {
  /** Areal density (kg/m²), the fabric's weight per area (textile "gsm" / 1000). */
  readonly arealDensity: number;
  /** Tensile (stretch) stiffness per unit width in N/m: E·thickness for a sheet, the low-load secant modulus for a weave. */
  readonly stretchStiffness: number;
  /** In-plane shear rigidity per unit width in N/m (per radian of shear). */
  readonly shearStiffness: number;
  /**
   * Compliance (m/N) of the bend sticks (two particles apart). Not derived: a
   * stick across a fold resists it in the fourth power of the angle, not as a
   * plate of bending rigidity B, so the presets use the empirical scale
   * 2·10⁻⁸ N·m² / B, which ranks them as their B does and looks right at 5 cm
   * spacing.
   */
  readonly bendCompliance: number;
  /** Measured bending rigidity per unit width (N·m), for reference: what {@link bendCompliance} is ranked by. */
  readonly bendingRigidity: number;
}

/** A rope or chain: mass per length and axial stiffness E·A. */
export interface RopeMaterial {
  /** Linear density (kg/m). */
  readonly linearDensity: number;
  /** Axial stiffness E·A in N (Infinity: inextensible, compliance 0). */
  readonly axialStiffness: number;
}

/**
 * Fabrics with representative numbers (sources in docs/materials.md): areal
 * densities are the trade's usual weights; stiffnesses are the order of the
 * Kawabata (KES-FB1/FB2) low-load measurements of each class of fabric; the
 * rubber sheet is 1 mm of natural rubber (E ≈ 2 MPa, 1100 kg/m³, Poisson 0.5).
 */
export const FABRICS = {
  /** Cotton shirting, about 150 g/m². */
  cotton: { arealDensity: 0.15, stretchStiffness: 12_000, shearStiffness: 56, bendCompliance: 2e-3, bendingRigidity: 1e-5 },
  /** Silk habotai, about 50 g/m²: light and limp. */
  silk: { arealDensity: 0.05, stretchStiffness: 8_000, shearStiffness: 28, bendCompliance: 1e-2, bendingRigidity: 2e-6 },
  /** Denim, 12 oz/yd² (about 400 g/m²): heavy and stiff. */
  denim: { arealDensity: 0.4, stretchStiffness: 16_000, shearStiffness: 170, bendCompliance: 2e-4, bendingRigidity: 1e-4 },
  /** A 1 mm natural-rubber sheet: E·t = 2 MPa · 1 mm, shear E·t/3, B = E·t³/(12·(1 − ν²)). */
  rubberSheet: { arealDensity: 1.1, stretchStiffness: 2_000, shearStiffness: 667, bendCompliance: 9e-5, bendingRigidity: 2.2e-4 },
} as const satisfies Record<string, FabricMaterial>;

/** Names of the {@link FABRICS} presets. */
export type FabricName = keyof typeof FABRICS;

/**
 * Ropes (sources in docs/materials.md): a 10 mm dynamic climbing rope of
 * 65 g/m that stretches 8% under a static 80 kg (EN 892 allows at most 10%),
 * so E·A = 80 · 9.81 / 0.08 ≈ 9.8 kN; a 6 mm steel link chain of about
 * 0.8 kg/m, inextensible at any load a scene gives it.
 */
export const ROPES = {
  /** A 10 mm single dynamic climbing rope. */
  climbingRope: { linearDensity: 0.065, axialStiffness: 9_800 },
  /** A 6 mm steel link chain. */
  chain: { linearDensity: 0.8, axialStiffness: Infinity },
} as const satisfies Record<string, RopeMaterial>;

/** Names of the {@link ROPES} presets. */
export type RopeName = keyof typeof ROPES;

/** The fabric named `name` (one of {@link FABRICS}), or `material` itself, checked; errors name `what`. */
export function fabric(material: FabricName | FabricMaterial, what = 'fabric'): FabricMaterial {
  if (typeof material === 'string') {
    if (!Object.hasOwn(FABRICS, material)) throw new RangeError(`${what}: unknown fabric '${material}'; the presets are ${Object.keys(FABRICS).join(', ')}`);
    return FABRICS[material];
  }
  if (!material || typeof material !== 'object') throw new TypeError(`${what}: a material must be a preset name or a FabricMaterial, got ${String(material)}`);
  checkNumber(material.arealDensity, `${what}: arealDensity`, Number.MIN_VALUE);
  checkPositiveOrInfinite(material.stretchStiffness, `${what}: stretchStiffness`);
  checkPositiveOrInfinite(material.shearStiffness, `${what}: shearStiffness`);
  checkCompliance(material.bendCompliance, `${what}: bendCompliance`);
  return material;
}

/** The rope named `name` (one of {@link ROPES}), or `material` itself, checked; errors name `what`. */
export function ropeMaterial(material: RopeName | RopeMaterial, what = 'rope'): RopeMaterial {
  if (typeof material === 'string') {
    if (!Object.hasOwn(ROPES, material)) throw new RangeError(`${what}: unknown rope '${material}'; the presets are ${Object.keys(ROPES).join(', ')}`);
    return ROPES[material];
  }
  if (!material || typeof material !== 'object') throw new TypeError(`${what}: a material must be a preset name or a RopeMaterial, got ${String(material)}`);
  checkNumber(material.linearDensity, `${what}: linearDensity`, Number.MIN_VALUE);
  checkPositiveOrInfinite(material.axialStiffness, `${what}: axialStiffness`);
  return material;
}

function checkPositiveOrInfinite(value: unknown, what: string): void {
  if (value === Infinity) return;
  checkNumber(value, what, Number.MIN_VALUE);
}

/**
 * What a cloth grid of `spacing` m needs from a fabric: the mass of each
 * particle (each stands for spacing² of fabric) and the compliance of each stick
 * family. A structural stick stands for a strip one spacing wide and one long,
 * so its stiffness is the fabric's per-width stretch stiffness itself; the two
 * diagonals of a square, sheared by γ, change length by ±spacing·γ/√2 each, which
 * stores the square's shear energy ½·G·γ²·spacing² when each has stiffness G.
 */
export function fabricSticks(material: FabricMaterial, spacing: number): { mass: number; structural: number; shear: number; bend: number } {
  return {
    mass: material.arealDensity * spacing * spacing,
    structural: complianceOf(material.stretchStiffness),
    shear: complianceOf(material.shearStiffness),
    bend: material.bendCompliance,
  };
}
