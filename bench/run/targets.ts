import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Target } from '../load/clients';

export const benchDir = path.resolve(import.meta.dirname, '..');
export const repoRoot = path.resolve(benchDir, '..');

export interface ServerCommand {
  command: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface TargetSpec {
  name: Target;
  label: string;
  /** Fills the data directory before the server starts; returns the generator's tokens file, if any. */
  prepare?(dataDir: string): string;
  server(dataDir: string, port: number): ServerCommand;
}

const tsxNode = ['node', '--import', 'tsx'];

export const TARGETS: Record<Target, TargetSpec> = {
  'plain-ws': {
    name: 'plain-ws',
    label: 'plain ws + SQLite',
    server: (dataDir, port) => ({
      command: [...tsxNode, 'baselines/plain-ws.ts'],
      cwd: benchDir,
      env: { DATA_DIR: dataDir, PORT: String(port) },
    }),
  },
  socketio: {
    name: 'socketio',
    label: 'Express + Socket.IO',
    server: (dataDir, port) => ({
      command: [...tsxNode, 'baselines/express-socketio.ts'],
      cwd: benchDir,
      env: { DATA_DIR: dataDir, PORT: String(port) },
    }),
  },
  ours: {
    name: 'ours',
    label: 'Campus Talk',
    prepare(dataDir) {
      const seeded = spawnSync(tsxNode[0]!, [...tsxNode.slice(1), 'ours/seed.ts'], {
        cwd: benchDir,
        env: { ...process.env, DATA_DIR: dataDir },
        stdio: 'inherit',
      });
      if (seeded.status !== 0) throw new Error('seeding our database failed');
      return path.join(dataDir, 'bench-tokens.json');
    },
    // The built bundle, as `pnpm start` runs it. Production: no dev mailbox; warn-level logs, since the
    // baselines log nothing either.
    server: (dataDir, port) => ({
      command: ['node', 'server/dist/main.js'],
      cwd: repoRoot,
      env: {
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
      },
    }),
  },
};

/** Bundles our server (esbuild, a few seconds) so the run measures what `pnpm start` serves. */
export function buildOurServer(): void {
  const built = spawnSync('pnpm', ['--filter', '@campus/server', 'build'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('building the server failed');
}
