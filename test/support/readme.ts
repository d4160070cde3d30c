import { readFileSync } from 'node:fs';

/** The repository's README.md, as users read it. */
export const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/**
 * The body of the first fenced block of `lang` after the first line of the README that contains
 * `heading` (a heading or a sentence that introduces the block). Throws naming both when there is none,
 * so a renamed section fails the test that runs its example instead of running nothing.
 */
export function readmeBlock(heading: string, lang: 'ts' | 'js' | 'tsx'): string {
  const start = readme.indexOf(heading);
  if (start < 0) throw new Error(`README.md has no "${heading}"`);
  const block = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(readme.slice(start))?.[1];
  if (block === undefined) throw new Error(`README.md has no \`\`\`${lang} block after "${heading}"`);
  return block;
}

/**
 * Runs a README block as printed: its `import … from 'sinew…'` lines are dropped and the names they import
 * are passed in `names` instead; `console.log` is captured. Returns the lines it logged and what the block's
 * last statement `returnExpression` evaluates to (when given), e.g. `'{ curtain, rope }'`.
 */
export function runReadmeBlock(block: string, names: Record<string, unknown>, returnExpression?: string): { logged: string[]; returned: unknown } {
  const body = block.replace(/^import .* from 'sinew(-physics)?(\/\w+)?';$/gm, '');
  const logged: string[] = [];
  const console = { log: (...args: unknown[]) => logged.push(args.map(String).join(' ')) };
  const keys = Object.keys(names);
  const run = new Function(...keys, 'console', returnExpression ? `${body}\nreturn ${returnExpression};` : body) as (...args: unknown[]) => unknown;
  const returned = run(...keys.map((k) => names[k]), console);
  return { logged, returned };
}
