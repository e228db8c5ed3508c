/**
 * Import rules the TypeScript/ESLint tooling cannot check alone. Run by `pnpm lint` (`pnpm lint:deps`).
 * tsPreCompilationDeps keeps type-only imports in the graph, so a cycle made of `import type` counts too.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles (type-only ones included) tangle modules and their initialisation order.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'engine-knows-no-feature',
      severity: 'error',
      comment: 'server/src/realtime is the engine: features register into it from server/src/features.ts.',
      from: { path: '^server/src/realtime/' },
      to: { path: '^server/src/modules/' },
    },
    {
      name: 'lib-is-infrastructure',
      severity: 'error',
      comment: 'server/src/lib imports neither features nor the realtime engine.',
      from: { path: '^server/src/lib/' },
      to: { path: '^server/src/(modules|realtime)/' },
    },
    {
      name: 'modules-meet-through-public-surfaces',
      severity: 'error',
      comment:
        'A module imports another module only through its index.ts (the composition root alone uses sync.ts).',
      from: { path: '^server/src/modules/([^/]+)/' },
      to: {
        path: '^server/src/modules/[^/]+/',
        pathNot: ['^server/src/modules/$1/', '^server/src/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'packages-never-import-apps-or-server',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { path: '^(apps|server)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|dist-types|out|release)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
