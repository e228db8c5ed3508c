// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

/**
 * Every Node built-in, as `node:fs` and as the bare `fs` (and `fs/promises`): the bare names resolve to
 * the same modules, and in the browser or the sandboxed preload either one fails at load time. A regular
 * expression on the whole specifier, not gitignore-style groups: those match a segment anywhere, so the
 * built-in `constants` would also refuse `./constants`.
 */
const BARE_BUILTINS = builtinModules
  .filter((name) => !name.startsWith('_') && !name.startsWith('node:'))
  .map((name) => name.replace(/[/]/g, '\\/'));
const NODE_BUILTINS = {
  regex: `^(?:node:.*|(?:${BARE_BUILTINS.join('|')})(?:/.*)?)$`,
};

/** Modules the UI must never reach: Node built-ins, Electron, native database drivers. */
const NODE_ONLY = [
  { ...NODE_BUILTINS, message: 'UI code runs in the browser: no Node built-ins.' },
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

/**
 * Server boundaries (the engine knows no feature; features meet only through public surfaces). They apply to
 * type imports too. dependency-cruiser (.dependency-cruiser.cjs, run by `pnpm lint`) checks the same rules
 * plus import cycles with type-only imports included, which import-x/no-cycle skips.
 */
const ENGINE_NO_FEATURES = {
  group: ['**/modules/**'],
  message: 'The realtime engine knows no feature: modules register into it through server/src/features.ts.',
};
const LIB_NO_FEATURES = {
  group: ['**/modules/**', '**/realtime/**'],
  message: 'lib/ is infrastructure: it imports neither modules nor the realtime engine.',
};

/** Files type-aware rules run on (each belongs to a tsconfig project). */
const TYPED_FILES = [
  'server/src/**/*.ts',
  'server/test/**/*.ts',
  'packages/*/src/**/*.ts',
  'packages/*/test/**/*.ts',
  'apps/web/src/**/*.{ts,tsx}',
  'apps/web/test/**/*.{ts,tsx}',
  'apps/desktop/src/**/*.ts',
  'tests/system/**/*.ts',
  'bench/**/*.ts',
  'e2e/**/*.ts',
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
    files: TYPED_FILES,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
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
            {
              group: ['dexie-react-hooks'],
              message:
                'Use useLiveRows (apps/web/src/lib/useLiveRows.ts): useLiveQuery can show a superseded result.',
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
            { ...NODE_BUILTINS, message: 'The preload is sandboxed: Electron renderer APIs only.' },
            { group: ['better-sqlite3'], message: 'The preload is sandboxed: Electron renderer APIs only.' },
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
    files: ['server/src/realtime/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['react', 'dexie', '@campus/sync', '**/apps/**'] }, ENGINE_NO_FEATURES] },
      ],
    },
  },
  {
    files: ['server/src/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['react', 'dexie', '@campus/sync', '**/apps/**'] }, LIB_NO_FEATURES] },
      ],
    },
  },
  {
    // Features read and write through the transactor (`deps.transactor.read` / `commit`): a raw statement on
    // the shared handle run after an `await` can land inside another commit's open transaction and see
    // (or join) rows that then roll back. Checking `deps.sqlite.open` (is the database still open) is fine.
    // notes/open-store.ts hands the raw handle to notes/sqlite-store.ts, whose statements run in the caller's
    // turn and, should a transaction be open on the handle, wait for a later turn: never inside a commit.
    files: ['server/src/modules/**/*.ts'],
    ignores: ['server/src/modules/notes/open-store.ts', 'server/src/modules/notes/sqlite-store.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[property.name='sqlite']:not(MemberExpression[property.name='open'] > MemberExpression.object)",
          message: 'Use deps.transactor.read / commit, not the raw better-sqlite3 handle.',
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
  {
    // CommonJS by its extension: loaded as is by Node (the WAL checkpointer's worker thread).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
