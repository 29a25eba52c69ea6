// ESLint flat config (run by `npm run lint`, part of `npm test`). The lint packages live in tools/lint
// with their own lock: typescript-eslint parses with the TypeScript 6.0 JavaScript API, while the
// service type-checks with TypeScript 7 (`npm run typecheck`).
import { builtinModules } from 'node:module';
import { globals, js, tseslint } from './tools/lint/index.js';

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

export default tseslint.config(
  { ignores: ['node_modules/', 'tools/lint/node_modules/', '.cache/', '.data/', 'dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `any` needs a reason on the line (docs/development.md, "Code style"); the disable comment is that
      // reason's marker.
      '@typescript-eslint/no-explicit-any': 'error',
      // A `let` read by a closure (e.g. a signal handler) before its one assignment stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Lines of the service's code stay within Prettier's 120 columns. Prettier does not break string literals
    // or comments, so long messages and descriptions are split into concatenated parts (same bytes).
    // Tests, benchmarks and scripts are not held to it (long behaviour names in test titles).
    files: ['src/**/*.ts', 'workflows/**/*.ts', 'bin/**/*.js', 'tools/lint/*.js', 'eslint.config.js'],
    rules: { 'max-len': ['error', { code: 120, ignoreUrls: true }] },
  },
  {
    // Temporal: workflow code runs in a deterministic sandbox. It imports no Node built-ins and no
    // activity implementations (activities are reached through proxyActivities with their types only).
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflows must not import Node built-ins (Temporal workflow sandbox).',
          })),
          patterns: [
            { group: ['node:*'], message: 'Workflows must not import Node built-ins (Temporal workflow sandbox).' },
            {
              group: ['../src/**', '**/activities', '**/activities/**', '**/activities.js'],
              allowTypeImports: true,
              message:
                'Workflows import only types from src/ (activity implementations and I/O run outside the sandbox).',
            },
          ],
        },
      ],
    },
  },
);
