// Bundles the server into dist/main.js. Workspace packages (TypeScript source) are bundled in;
// registry dependencies stay external and load from node_modules (native addons must).
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

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
  target: 'node22',
  sourcemap: true,
  external: [...external, ...external.map((name) => `${name}/*`)],
  logLevel: 'warning',
});
