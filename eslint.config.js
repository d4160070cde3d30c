// ESLint with typescript-eslint (TypeScript is pinned to 6.0 because typescript-eslint
// needs the compiler API that TypeScript 7 no longer ships).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'storybook-static', 'node_modules', 'test/browser/__screenshots__'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Node scripts (the consumer app's Chromium driver, the wasm build).
  { files: ['**/*.mjs'], languageOptions: { globals: globals.node } },
  // The layers import in one direction only: core <- three <- react (DESIGN.md); the
  // teaching code (sinew-physics/teaching) sits on the core beside them, used by neither.
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/rapier/**',
                '@dimforge/*',
                '**/three/**',
                '**/react/**',
                '**/teaching/**',
                '**/testing/**',
                'three',
                'three/*',
                'react',
                'react/*',
                'react-dom',
                '@react-three/*',
                'zustand',
                'zustand/*',
              ],
              message: 'src/core is the engine alone: no three.js, React or the layers above it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/three/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/rapier/**', '@dimforge/*', '**/react/**', '**/teaching/**', '**/testing/**', 'react', 'react/*', 'react-dom', '@react-three/*', 'zustand', 'zustand/*'],
              message: 'src/three reads the engine back into three.js: no React or the layers above it.',
            },
          ],
        },
      ],
    },
  },
  // sinew-physics/worker runs the engine in a Web Worker: it sits on the engine alone, so the
  // worker's bundle holds no three.js or React.
  {
    files: ['src/worker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/rapier/**',
                '@dimforge/*',
                '**/three/**',
                '**/react/**',
                '**/teaching/**',
                '**/testing/**',
                'three',
                'three/*',
                'react',
                'react/*',
                'react-dom',
                '@react-three/*',
                'zustand',
                'zustand/*',
              ],
              message: 'src/worker is the engine in a worker: no three.js, React or the layers above it.',
            },
          ],
        },
      ],
    },
  },
  // sinew-physics/teaching is headless like the engine, and the `sinew` entry (src/index.ts,
  // src/react) never reaches it: the textbook steppers stay out of an app's bundle.
  {
    files: ['src/teaching/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/rapier/**', '@dimforge/*', '**/three/**', '**/react/**', '**/testing/**', 'three', 'three/*', 'react', 'react/*', 'react-dom', '@react-three/*', 'zustand', 'zustand/*'],
              message: 'src/teaching is plain TypeScript on the engine: no three.js, React or the layers above it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/index.ts', 'src/react/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/teaching/**', 'sinew-physics/teaching'], message: 'The sinew entry leaves the teaching code to sinew-physics/teaching.' },
            // Rapier is an optional peer: only sinew-physics/rapier (src/rapier) may import it.
            { group: ['**/rapier/**', 'sinew-physics/rapier', '@react-three/rapier', '@dimforge/*'], message: 'The sinew entry leaves Rapier to sinew-physics/rapier (an optional peer).' },
          ],
        },
      ],
    },
  },
);
