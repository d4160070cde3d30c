import { describe, expect, it } from 'vitest';
import { World, type Vec3 } from '../../src/core/index.js';
import { projectilePosition, targetPractice } from '../../src/teaching/index.js';

const degrees = (radians: number) => (radians * 180) / Math.PI;
const decimals = (printed: string) => printed.split('.')[1]?.length ?? 0;
// The slides work with z up and g = 9.81 m/s².
const zUp: Vec3 = [0, 0, -9.81];

/**
 * The slides' examples. The 30 m/s one is spelled out on its explicit-Euler slide
 * (from (10, 0, 2) m to the target at (50, 0, 20) m). The pictures of the others are
 * lost; a target 40 m away, level with the launcher or 29 m below it (18 m/s),
 * reproduces every radicand and angle they print.
 */
const examples = [
  { speed: 30, start: [10, 0, 2], target: [50, 0, 20], radicand: 668, angles: ['39.1', '75.2'] },
  { speed: 25, start: [0, 0, 0], target: [40, 0, 0], radicand: 969.31, angles: ['19.4', '70.6'] },
  { speed: 20, start: [0, 0, 0], target: [40, 0, 0], radicand: 60.2, angles: ['39.4', '50.6'] },
  { speed: 19.85, start: [0, 0, 0], target: [40, 0, 0], radicand: 13.2, angles: ['42.4', '47.6'] },
  { speed: 19, start: [0, 0, 0], target: [40, 0, 0], radicand: -290.4, angles: [] },
  { speed: 18, start: [0, 0, 29], target: [40, 0, 0], radicand: 2063, angles: ['-6.38', '60.4'] },
] as const;

describe('targetPractice (slides)', () => {
  it.each(examples)('at $speed m/s prints the slides’ radicand $radicand and angles $angles', ({ speed, start, target, radicand, angles }) => {
    const solution = targetPractice({ speed, start, target, gravity: zUp });
    // Within one unit of the last digit printed (the slides print 13.15 as 13.2).
    const unit = 10 ** -decimals(String(radicand));
    expect(Math.abs(solution.radicand - radicand)).toBeLessThan(unit);
    expect(solution.launches.map((l, i) => degrees(l.elevation).toFixed(decimals(angles[i]!)))).toEqual(angles);
  });

  it('fires both of the 30 m/s example’s launches into the target in a World', () => {
    const start: Vec3 = [10, 0, 2];
    const target: Vec3 = [50, 0, 20];
    const { launches } = targetPractice({ speed: 30, start, target, gravity: zUp });
    expect(launches).toHaveLength(2);
    for (const launch of launches) {
      expect(Math.hypot(...launch.velocity)).toBeCloseTo(30, 12);
      // Whole steps of about 1/60 s that end exactly at the flight time.
      const steps = Math.round(launch.flightTime * 60);
      const world = new World({ gravity: zUp, timeStep: launch.flightTime / steps });
      const id = world.addParticle({ position: start, velocity: launch.velocity });
      for (let i = 0; i < steps; i++) world.step();
      const p = world.getPosition(id);
      expect(Math.hypot(p[0] - target[0], p[1] - target[1], p[2] - target[2])).toBeLessThan(0.01);
    }
    // The lower launch arrives first (slides): 1.72 s against 5.21 s.
    expect(launches[0]!.flightTime).toBeCloseTo(40 / (30 * Math.cos(launches[0]!.elevation)), 12);
    expect(launches[0]!.flightTime).toBeLessThan(launches[1]!.flightTime);
  });

  it('works in any frame: with y up and the target off the x axis, the closed form lands on it', () => {
    const start: Vec3 = [1, 2, 3];
    const target: Vec3 = [-7, 0.5, 9];
    const { launches } = targetPractice({ speed: 15, start, target });
    expect(launches).toHaveLength(2);
    for (const launch of launches) {
      const p = projectilePosition(start, launch.velocity, [0, -9.81, 0], launch.flightTime);
      for (let k = 0; k < 3; k++) expect(p[k]).toBeCloseTo(target[k]!, 9);
    }
  });

  it('gives the single 45° launch at exactly the least speed, √(g·A) on level ground', () => {
    // g = 1, A = 4: V⁴ − g·(g·A² + 0) = 16 − 16 = 0 at V = 2.
    const { radicand, launches } = targetPractice({ speed: 2, start: [0, 0, 0], target: [4, 0, 0], gravity: [0, -1, 0] });
    expect(radicand).toBe(0);
    expect(launches).toHaveLength(1);
    expect(degrees(launches[0]!.elevation)).toBeCloseTo(45, 12);
  });

  it('shoots straight up or down at a target above or below the launcher', () => {
    const above = targetPractice({ speed: 10, start: [0, 0, 0], target: [0, 5, 0] });
    expect(above.launches.map((l) => degrees(l.elevation))).toEqual([90]);
    // 5 = 10·t − 4.905·t², first root.
    expect(above.launches[0]!.flightTime).toBeCloseTo((10 - Math.sqrt(100 - 2 * 9.81 * 5)) / 9.81, 12);
    expect(targetPractice({ speed: 5, start: [0, 0, 0], target: [0, 5, 0] }).launches).toEqual([]);
    const below = targetPractice({ speed: 3, start: [0, 0, 0], target: [0, -2, 0] });
    expect(below.launches.map((l) => degrees(l.elevation))).toEqual([-90, 90]);
    for (const launch of below.launches) expect(projectilePosition([0, 0, 0], launch.velocity, [0, -9.81, 0], launch.flightTime)[1]).toBeCloseTo(-2, 12);
  });

  it('rejects bad input, naming the argument and the value', () => {
    expect(() => targetPractice({ speed: 0, start: [0, 0, 0], target: [1, 0, 0] })).toThrow('targetPractice: speed must be > 0, got 0');
    expect(() => targetPractice({ speed: NaN, start: [0, 0, 0], target: [1, 0, 0] })).toThrow('targetPractice: speed must be a finite number in [0, Infinity], got NaN');
    expect(() => targetPractice({ speed: 1, start: [1, 2, 3], target: [1, 2, 3] })).toThrow('targetPractice: target must differ from start, both are [1, 2, 3]');
    expect(() => targetPractice({ speed: 1, start: [0, 0, 0], target: [1, 0, 0], gravity: [0, 0, 0] })).toThrow('targetPractice: gravity must be non-zero, got [0, 0, 0]');
  });
});
