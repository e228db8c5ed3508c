// Bundles the server into dist/main.js. Workspace packages (TypeScript source) are bundled in;
// registry dependencies stay external and load from node_modules (native addons must). Split: what only
// one deployment uses (the S3 driver, SMTP, PostgreSQL) is imported with `await import()` where it is
// chosen and lands in a chunk of its own (dist/chunk-*.js), so a node on the defaults never loads it.
import { build } from 'esbuild';
import { copyFileSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@campus/'));

await build({
  entryPoints: {
    main: 'src/main.ts',
    'cli/seed': 'src/cli/seed.ts',
    'cli/admin-grant': 'src/cli/admin-grant.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  splitting: true,
  target: 'node22',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});

// Loaded by path, not bundled: a worker thread's script (lib/db/checkpointer.ts resolves it beside the
// bundle's own files, as it does beside its source).
copyFileSync('src/lib/db/checkpoint-worker.cjs', 'dist/checkpoint-worker.cjs');
