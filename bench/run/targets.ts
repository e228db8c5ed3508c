import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Target } from '../load/clients';
import { freePort, startPinned, waitForPort } from './processes';

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

export const tsxNode = ['node', '--import', 'tsx'];

/** Targets that run as one server process; ours-pg2 is two nodes (run/two-nodes-postgres.ts). */
export type SingleNodeTarget = Exclude<Target, 'ours-pg2'>;

/** How the table and the progress lines name each target. */
export const LABELS: Record<Target, string> = {
  'plain-ws': 'plain ws + SQLite',
  socketio: 'Express + Socket.IO',
  ours: 'Campus Talk',
  'ours-alt': 'Campus Talk (alt)',
  'ours-pg2': 'Campus Talk, 2 nodes (PostgreSQL + Redis)',
};

export const TARGETS: Record<SingleNodeTarget, TargetSpec> = {
  'plain-ws': {
    name: 'plain-ws',
    label: LABELS['plain-ws'],
    server: (dataDir, port) => ({
      command: [...baselineNode(), 'baselines/plain-ws.ts'],
      cwd: benchDir,
      env: { DATA_DIR: dataDir, PORT: String(port) },
    }),
  },
  socketio: {
    name: 'socketio',
    label: LABELS.socketio,
    server: (dataDir, port) => ({
      command: [...baselineNode(), 'baselines/express-socketio.ts'],
      cwd: benchDir,
      env: { DATA_DIR: dataDir, PORT: String(port) },
    }),
  },
  ours: oursTarget('ours', LABELS.ours, 'server/dist/main.js', 'BENCH_SERVER_NODE_ARGS', benchDir),
  // A before/after in one run: BENCH_ALT_SERVER names another build's dist/main.js (e.g. the previous commit's).
  'ours-alt': oursTarget(
    'ours-alt',
    LABELS['ours-alt'],
    process.env.BENCH_ALT_SERVER ?? 'server/dist/main.js',
    'BENCH_ALT_NODE_ARGS',
    altBenchDir(process.env.BENCH_ALT_SERVER),
  ),
};

/**
 * The load generator's node. Its GC stays on its own thread (`--single-threaded-gc`): pinned to one core,
 * V8's helper threads only took turns with it, and its 5–12 ms pauses (receives timestamped late, sends
 * going out late) made about half of the clusters of slow messages at 1,000 msg/s. BENCH_GENERATOR_NODE_ARGS replaces the flag.
 */
export function generatorNode(): string[] {
  const flags = (process.env.BENCH_GENERATOR_NODE_ARGS ?? '--single-threaded-gc').split(' ').filter(Boolean);
  return [tsxNode[0]!, ...flags, ...tsxNode.slice(1)];
}

/** The baselines' node, with BENCH_BASELINE_NODE_ARGS (e.g. the start script's V8 flags, for a like-for-like floor). */
function baselineNode(): string[] {
  const extra = process.env.BENCH_BASELINE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return [tsxNode[0]!, ...extra, ...tsxNode.slice(1)];
}

/**
 * The bench folder of the checkout an alt build (`<checkout>/server/dist/main.js`) came from: its own seed
 * migrates the database with its own migrations, so a build from before or after a schema change runs on
 * the schema it knows (a database migrated by this checkout would name a migration the other lacks).
 */
function altBenchDir(altServer: string | undefined): string {
  if (!altServer) return benchDir;
  const checkout = path.resolve(repoRoot, altServer, '../../..');
  const own = path.join(checkout, 'bench');
  return existsSync(path.join(own, 'ours/seed.ts')) ? own : benchDir;
}

function oursTarget(
  name: Target,
  label: string,
  main: string,
  extraArgsVar: string,
  seedFrom: string,
): TargetSpec {
  return {
    name,
    label,
    prepare(dataDir) {
      const seeded = spawnSync(tsxNode[0]!, [...tsxNode.slice(1), 'ours/seed.ts'], {
        cwd: seedFrom,
        env: { ...process.env, DATA_DIR: dataDir },
        stdio: 'inherit',
      });
      if (seeded.status !== 0) throw new Error('seeding our database failed');
      return path.join(dataDir, 'bench-tokens.json');
    },
    // The built bundle, as `pnpm start` runs it (with its node flags). Production: no dev mailbox;
    // warn-level logs, since the baselines log nothing either.
    server: (dataDir, port) => ({
      // BENCH_SERVER_NODE_ARGS (BENCH_ALT_NODE_ARGS for ours-alt): extra node flags for a run by hand
      // (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`); a later flag overrides the start script's.
      command: [
        'node',
        ...startFlags(),
        ...(process.env[extraArgsVar]?.split(' ').filter(Boolean) ?? []),
        main,
      ],
      cwd: repoRoot,
      env: {
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
      },
    }),
  };
}

/** The node flags of server/package.json's `start` script (`node <flags> dist/main.js`). */
function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'server/package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('dist/main.js'));
}

/**
 * Starts `spec`'s server on `dataDir` and a free port, pinned to core 0 (its stderr passed through), and
 * waits until it listens. The process goes into `started` at once, so the caller stops it even when it
 * never listens.
 */
export async function startTargetServer(
  spec: TargetSpec,
  dataDir: string,
  started: ChildProcess[],
): Promise<{ server: ChildProcess; port: number }> {
  const port = await freePort();
  const { command, cwd, env } = spec.server(dataDir, port);
  const server = startPinned(0, command, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', serverStdout(spec.name), 'inherit'],
  });
  started.push(server);
  await waitForPort(port, server);
  return { server, port };
}

/**
 * Where a server's stdout goes: nowhere, unless BENCH_SERVER_STDOUT names a folder, where each target's
 * goes to `<target>.log` (V8's own tracing, such as `--trace-gc-nvp` in BENCH_SERVER_NODE_ARGS, writes there).
 */
function serverStdout(target: Target): 'ignore' | number {
  const dir = process.env.BENCH_SERVER_STDOUT;
  return dir ? openSync(path.join(dir, `${target}.log`), 'a') : 'ignore';
}

/** Bundles our server (esbuild, a few seconds) so the run measures what `pnpm start` serves. */
export function buildOurServer(): void {
  const built = spawnSync('pnpm', ['--filter', '@campus/server', 'build'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('building the server failed');
}
