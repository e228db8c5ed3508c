// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Modules the UI must never reach: Node built-ins, Electron, native database drivers. */
const NODE_ONLY = [
  { group: ['node:*'], message: 'UI code runs in the browser: no Node built-ins.' },
  { group: ['electron', 'electron/*'], message: 'UI code talks to the desktop only through Platform.' },
  { group: ['better-sqlite3', 'kysely', 'hono', 'hono/*', '@hono/*'], message: 'Server-only module.' },
];
const NO_APPS_OR_SERVER = [
  {
    group: [
      '@campus/web',
      '@campus/web/*',
      '@campus/desktop',
      '@campus/desktop/*',
      '@campus/server',
      '@campus/server/*',
    ],
    message: 'Packages never import apps or the server.',
  },
  { group: ['**/apps/**', '**/server/**'], message: 'Packages never import apps or the server.' },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-types/**',
      '**/out/**',
      '**/release/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...NO_APPS_OR_SERVER, ...NODE_ONLY] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    ignores: ['apps/web/vite.config.ts'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...NODE_ONLY,
            {
              group: [
                '@campus/server',
                '@campus/server/*',
                '@campus/desktop',
                '@campus/desktop/*',
                '**/server/**',
                '**/desktop/**',
              ],
              message: 'The UI reaches the server over HTTP and the desktop through Platform.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/desktop/src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'better-sqlite3'],
              message: 'The preload is sandboxed: Electron renderer APIs only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    languageOptions: { globals: globals.node },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'react',
                'react-dom',
                'react-*',
                'dexie',
                '@campus/web',
                '@campus/desktop',
                '@campus/sync',
                '**/apps/**',
              ],
              message: 'The server never imports UI or client code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      '**/*.{js,mjs,cjs}',
      'apps/desktop/**/*.ts',
      'e2e/**/*.ts',
      // System tests drive the real server and @campus/sync together in Node.
      'tests/system/**/*.ts',
      '*.config.ts',
      'apps/*/vite.config.ts',
      'apps/desktop/electron.vite.config.ts',
    ],
    languageOptions: { globals: globals.node },
  },
);
