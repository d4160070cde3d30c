import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANGLES } from '../../src/core/constraints/angle.js';
import type { FeatureKind, WorldFeature } from '../../src/core/features.js';
import * as core from '../../src/core/index.js';
import { World } from '../../src/core/index.js';

// The World owns every feature's state (issue 27, item 1): one registry, the same few calls.

/** A feature that writes down every call it gets. */
class Recorder implements WorldFeature {
  readonly calls: string[] = [];
  value = 0;
  saveState(): unknown {
    this.calls.push('save');
    return { value: this.value };
  }
  loadState(_world: World, data: unknown): void {
    this.calls.push(`load ${JSON.stringify(data)}`);
    this.value = (data as { value: number } | undefined)?.value ?? 0;
  }
  particlesRemoved(_world: World, first: number, end: number): void {
    this.calls.push(`particles ${first}-${end}`);
  }
  bodyRemoved(_world: World, body: core.BodyRecord): void {
    this.calls.push(`body ${body.kind}`);
  }
  colliderRemoved(_world: World, collider: core.Collider): void {
    this.calls.push(`collider ${collider.type}`);
  }
  dispose(): void {
    this.calls.push('dispose');
  }
}

const RECORDER: FeatureKind<Recorder> = { name: 'recorder', create: () => new Recorder() };

describe('the world registry of features', () => {
  it('makes one instance per world on first use and calls it on every removal, snapshot and restore', () => {
    const world = new World();
    const other = new World();
    expect(world.features.get(RECORDER)).toBeUndefined();
    const rec = world.features.of(RECORDER);
    expect(world.features.of(RECORDER)).toBe(rec);
    expect(other.features.of(RECORDER)).not.toBe(rec);
    const loose = world.addParticle({ position: [0, 0, 0] });
    const cloth = core.createCloth(world, { width: 2, height: 2, corner: [0, 1, 0] });
    const floor = world.addCollider({ type: 'plane', normal: [0, 1, 0], offset: 0 });
    rec.value = 7;
    const snap = structuredClone(world.snapshot());
    rec.value = 9;
    world.restore(snap);
    expect(rec.value).toBe(7);
    world.remove(loose);
    world.remove(cloth);
    world.remove(floor);
    expect(rec.calls).toEqual(['save', 'load {"value":7}', `particles ${loose}-${loose + 1}`, 'body cloth', `particles ${cloth.body.first}-${cloth.body.first + 4}`, 'collider plane']);
    expect(world.features.delete('recorder')).toBe(true);
    expect(rec.calls.at(-1)).toBe('dispose');
    expect(world.features.delete('recorder')).toBe(false);
  });

  it('a feature made after a snapshot starts from rest when it is restored; names are unique', () => {
    const world = new World();
    const snap = world.snapshot();
    const rec = world.features.of(RECORDER);
    rec.value = 3;
    world.restore(snap);
    expect(rec.value).toBe(0);
    expect(() => world.features.add('recorder', new Recorder())).toThrow("features.add: this world already has a feature named 'recorder'");
    expect(world.features.addInstance('springs', {})).not.toBe(world.features.addInstance('springs', {}));
    expect(() => world.features.of({ name: '', create: () => ({}) })).toThrow("features.add: name must be a non-empty string, got ''");
  });

  it('the built-in tables are the world’s features: a table made in one world is not seen from another', () => {
    const a = new World();
    const b = new World();
    const ids = [0, 1, 2].map((k) => a.addParticle({ position: [k, k * k, 0] }));
    core.addAngleConstraint(a, ids[0]!, ids[1]!, ids[2]!, { min: 1 });
    expect(a.features.get(ANGLES)?.count).toBe(1);
    expect(b.features.get(ANGLES)).toBeUndefined();
  });

  it('no module of the engine keeps per-world state in a table keyed by the world', () => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts') && /new WeakMap<(World|BodyRecord)\b/.test(readFileSync(path, 'utf8'))) found.push(path);
      }
    };
    walk(join(__dirname, '../../src/core'));
    expect(found).toEqual([]);
  });
});
