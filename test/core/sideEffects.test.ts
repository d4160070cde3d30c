import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// package.json's "sideEffects" tells an app's bundler which of sinew's modules it may drop
// when the app uses none of their exports (each source module is its own file in dist/).
// A module that does something when it is loaded (registers, patches a global, calls out)
// would silently stop doing it in a shaken app unless it is listed there. This reads every
// source module's top level and finds what runs on load beyond declaring things.

const root = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { sideEffects: boolean | string[] };

/** Constructors and functions whose result is a fresh value and which touch nothing else. */
const PURE_CALLEES = new Set([
  // JavaScript built-ins
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Float32Array',
  'Float64Array',
  'Int32Array',
  'Uint8Array',
  'Uint16Array',
  'Uint32Array',
  'Uint8Array.from',
  'atob',
  'Symbol',
  // three.js values
  'Vector2',
  'Vector3',
  'Vector4',
  'Matrix4',
  'Quaternion',
  'BufferGeometry',
  'Plane',
  'Raycaster',
  // React's context object, and sinew's component wrapper (src/react/guarded.tsx: returns a new component)
  'createContext',
  'guarded',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** What in `node`, evaluated on load, could reach beyond the value it builds; empty when nothing. */
function effects(node: ts.Node, local: ReadonlySet<string>, source: ts.SourceFile): string[] {
  // Function bodies run when called, not on load.
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node) || ts.isAccessor(node)) return [];
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
    const callee = node.expression.getText(source);
    const own = PURE_CALLEES.has(callee) || local.has(callee);
    const inner = (node.arguments ?? []).flatMap((arg) => effects(arg, local, source));
    return own ? inner : [`calls ${callee}()`, ...inner];
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
    return [`assigns ${node.left.getText(source)}`];
  }
  if (ts.isDeleteExpression(node)) return [`deletes ${node.expression.getText(source)}`];
  const found: string[] = [];
  node.forEachChild((child) => void found.push(...effects(child, local, source)));
  return found;
}

/** Top-level statements of the module `code` (at `file`) that do something on load, with their line numbers. */
function loadTimeEffects(file: string, code: string): string[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true);
  // Functions declared in the module itself: what they do is read where they are used.
  const local = new Set(source.statements.filter(ts.isFunctionDeclaration).flatMap((f) => (f.name ? [f.name.text] : [])));
  const found: string[] = [];
  const at = (node: ts.Node) => `${relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isFunctionDeclaration(statement)) continue;
    if (ts.isExportDeclaration(statement) || ts.isModuleDeclaration(statement) || ts.isEnumDeclaration(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (declaration.initializer) for (const effect of effects(declaration.initializer, local, source)) found.push(`${at(declaration)} ${effect}`);
      continue;
    }
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        const isStatic = ts.canHaveModifiers(member) && ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
        if (ts.isClassStaticBlockDeclaration(member)) found.push(`${at(member)} runs a static block`);
        else if (isStatic && ts.isPropertyDeclaration(member) && member.initializer) for (const effect of effects(member.initializer, local, source)) found.push(`${at(member)} ${effect}`);
      }
      for (const clause of statement.heritageClauses ?? []) for (const type of clause.types) for (const effect of effects(type.expression, local, source)) found.push(`${at(type)} ${effect}`);
      continue;
    }
    if (ts.isExportAssignment(statement)) {
      for (const effect of effects(statement.expression, local, source)) found.push(`${at(statement)} ${effect}`);
      continue;
    }
    found.push(`${at(statement)} runs ${ts.SyntaxKind[statement.kind]}: ${statement.getText(source).split('\n')[0]!.slice(0, 80)}`);
  }
  return found;
}

/** The dist/ path of a source module, as package.json's "sideEffects" would list it. */
function distPath(file: string): string {
  return relative(join(root, 'src'), file).replace(/\.tsx?$/, '.js');
}

describe('package.json "sideEffects"', () => {
  const listed = new Set(Array.isArray(pkg.sideEffects) ? pkg.sideEffects.map((p) => p.replace(/^(\.\/)?dist\//, '')) : []);

  it('lists every module that does something when it is loaded', () => {
    expect(pkg.sideEffects === false || Array.isArray(pkg.sideEffects)).toBe(true);
    const unlisted = sourceFiles(join(root, 'src')).flatMap((file) => (listed.has(distPath(file)) ? [] : loadTimeEffects(file, readFileSync(file, 'utf8'))));
    expect(unlisted, 'make these declarative, or list their dist/ files in package.json "sideEffects"').toEqual([]);
  });

  it('tells a module that registers something on load from one that only declares', () => {
    // The check itself: each of these must be caught, or the test above proves nothing.
    const registering = {
      'a top-level call': "import { extend } from '@react-three/fiber';\nimport { Mesh } from 'three';\nextend({ Mesh });\n",
      'a global write': 'export const x = 1;\nglobalThis.sinew = x;\n',
      'a call in an initializer': "import { register } from './registry.js';\nexport const id = register('cloth');\n",
      'a loop': 'const table: number[] = [];\nfor (let i = 0; i < 3; i++) table.push(i);\n',
      'a static initializer': "import { register } from './registry.js';\nexport class A {\n  static id = register('a');\n}\n",
    };
    for (const [name, code] of Object.entries(registering)) expect(loadTimeEffects(join(root, 'src/probe.ts'), code), name).not.toEqual([]);
    const declaring =
      "import { createContext } from 'react';\nconst scratch = new Float64Array(3);\nexport const Context = createContext<number | null>(null);\nconst table = build();\nfunction build() {\n  return [1];\n}\nexport function f() {\n  scratch[0] = table[0]!;\n}\n";
    expect(loadTimeEffects(join(root, 'src/probe.ts'), declaring)).toEqual([]);
  });
});
