import { readFileSync } from 'node:fs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The repository's README.md, as users read it. */
export const readme = read('README.md');

/** A page of the repository's docs/ (`doc('ragdolls.md')`), as users read it. */
export function doc(name: string): string {
  return read(`docs/${name}`);
}

/**
 * The body of the first fenced block of `lang` after the first line of the README (or of `text`, the page
 * `file`) that contains `heading` (a heading or a sentence that introduces the block). Throws naming both
 * when there is none, so a renamed section fails the test that runs its example instead of running nothing.
 */
export function readmeBlock(heading: string, lang: 'ts' | 'js' | 'tsx', text = readme, file = 'README.md'): string {
  const start = text.indexOf(heading);
  if (start < 0) throw new Error(`${file} has no "${heading}"`);
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(text.slice(start))?.[1];
  if (block === undefined) throw new Error(`${file} has no \`\`\`${lang} block after "${heading}"`);
  return block;
}

/** {@link readmeBlock} of the page `docs/${name}`. */
export function docBlock(name: string, heading: string, lang: 'ts' | 'js' | 'tsx'): string {
  return readmeBlock(heading, lang, doc(name), `docs/${name}`);
}

/**
 * Runs a README block as printed: its `import … from 'sinew-physics…'` lines are dropped and the names they import
 * are passed in `names` instead; `console.log` is captured. Returns the lines it logged and what the block's
 * last statement `returnExpression` evaluates to (when given), e.g. `'{ curtain, rope }'`.
 */
export function runReadmeBlock(block: string, names: Record<string, unknown>, returnExpression?: string): { logged: string[]; returned: unknown } {
  const body = block.replace(/^import .* from 'sinew-physics(\/\w+)?';$/gm, '');
  const logged: string[] = [];
  const console = { log: (...args: unknown[]) => logged.push(args.map(String).join(' ')) };
  const keys = Object.keys(names);
  const run = new Function(...keys, 'console', returnExpression ? `${body}\nreturn ${returnExpression};` : body) as (...args: unknown[]) => unknown;
  const returned = run(...keys.map((k) => names[k]), console);
  return { logged, returned };
}
