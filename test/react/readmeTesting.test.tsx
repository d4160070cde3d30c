import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readme } from '../support/readme.js';

// The README's "Testing your scene" section prints files that run: its test is
// ./readme/tyreSwing.test.tsx (run by this project, and by test/consumer/run.sh
// against the packed package), its config and setup file are the consumer
// fixture's, and its versions are the ones the fixture installs.
const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const section = /## Testing your scene\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';

/** The body of each fenced block in the section, by language. */
function blocks(lang: string): string[] {
  return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!.trim());
}

describe('the README section "Testing your scene"', () => {
  it('stands just before "Storybook and browser tests"', () => {
    expect(section).not.toBe('');
    expect(readme.indexOf('## Testing your scene')).toBeLessThan(readme.indexOf('## Storybook and browser tests'));
    expect(readme.slice(readme.indexOf('## Testing your scene')).split('\n## ')[1]).toMatch(/^Storybook and browser tests/);
  });

  it('prints the example test exactly as it runs', () => {
    expect(blocks('tsx')).toEqual([read('./readme/tyreSwing.test.tsx').trim()]);
  });

  it("prints the consumer fixture's vitest config and setup file", () => {
    expect(blocks('ts')).toEqual([read('../consumer/vitest.config.ts').trim(), read('../consumer/vitest.setup.ts').trim()]);
  });

  it('installs the versions the consumer fixture pins', () => {
    const fixture = JSON.parse(read('../consumer/package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const pinned = { ...fixture.dependencies, ...fixture.devDependencies };
    const install = blocks('sh').join('\n');
    const versions = [...install.matchAll(/(?:^|\s)(@?[a-z][\w.-]*(?:\/[\w.-]+)?)@(\d[\w.-]*)/g)].map((m) => [m[1], m[2]]);
    expect(versions.map(([name]) => name)).toEqual(['react', 'react-dom', 'three', '@react-three/fiber', 'vitest', '@react-three/test-renderer']);
    for (const [name, version] of versions) expect(`${name}@${pinned[name!]}`).toBe(`${name}@${version}`);
    expect(install).toMatch(/npm install sinew-physics /);
  });
});
