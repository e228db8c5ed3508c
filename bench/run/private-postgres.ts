import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { benchTempDir } from '../shared/tmpfs';
import { stopProcesses } from './processes';

/** PostgreSQL 15's programs (Debian's layout); BENCH_PG_BIN for another. */
const PG_BIN = process.env.BENCH_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const DATABASE = 'campus_bench';

export interface PrivatePostgres {
  /** The bench database over TCP on 127.0.0.1, as a node in a deployment reaches its PostgreSQL. */
  url: string;
  /** The postmaster: PostgreSQL's CPU is its own and its backends' (shared/proc.ts processTreeCpuMicros). */
  pid: number;
  /** Fast shutdown (SIGINT), then the cluster's folder is removed. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the run's own, on tmpfs (/dev/shm): made by initdb, listening on its own port
 * and unix socket folder, never the machine's shared one on 5432 that other sessions' tests use. fsync
 * stays on as in a deployment, but on tmpfs it costs nothing: the run measures CPU and the engine's round
 * trips, not this VM's disk. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user
 * (BENCH_PG_USER). Dynamic shared memory goes in the data folder (mmap), so nothing of it outlives the
 * folder even after a crash.
 */
export async function startPrivatePostgres(port: number): Promise<PrivatePostgres> {
  const dir = benchTempDir('campus-bench-pg-');
  const owner = clusterOwner();
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  let postmaster: ChildProcess | undefined;
  const statementsFile = process.env.BENCH_PG_STATEMENTS;
  const stop = async () => {
    if (postmaster && statementsFile) await dumpStatements(port, statementsFile);
    if (statementsFile && process.env.BENCH_PG_EXPLAIN) copyFileSync(logFile, `${statementsFile}.log`);
    if (postmaster) await stopProcesses([postmaster], 10_000, 'SIGINT');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (owner) chownSync(dir, owner.uid, owner.gid);
    mkdirSync(data, { mode: 0o700 });
    if (owner) chownSync(data, owner.uid, owner.gid);
    const init = spawnSync(
      path.join(PG_BIN, 'initdb'),
      [
        '-D',
        data,
        '-U',
        'postgres',
        '-A',
        'trust',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
        '--no-instructions',
      ],
      { ...asOwner, cwd: dir, encoding: 'utf8' },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.error?.message ?? init.stderr}`);

    const log = openSync(logFile, 'a');
    if (owner) chownSync(logFile, owner.uid, owner.gid);
    // Detached: a session of its own, which run.ts then raises like the nodes (raisePriority).
    postmaster = spawn(
      path.join(PG_BIN, 'postgres'),
      [
        ...['-D', data, '-p', String(port), '-k', dir],
        ...['-c', 'listen_addresses=127.0.0.1', '-c', 'dynamic_shared_memory_type=mmap'],
        ...(statementsFile ? ['-c', 'shared_preload_libraries=pg_stat_statements,auto_explain'] : []),
        ...(process.env.BENCH_PG_EXPLAIN
          ? [
              '-c',
              'auto_explain.log_min_duration=0',
              '-c',
              'auto_explain.log_analyze=on',
              '-c',
              `auto_explain.sample_rate=${process.env.BENCH_PG_EXPLAIN}`,
            ]
          : []),
      ],
      { ...asOwner, cwd: dir, detached: true, stdio: ['ignore', log, log] },
    );
    closeSync(log);
    await waitForPostgres(port, postmaster, logFile);
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    if (statementsFile) {
      const db = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: DATABASE });
      await db.connect();
      await db.query('CREATE EXTENSION pg_stat_statements');
      await db.end();
    }
    return { url: `postgres://postgres@127.0.0.1:${port}/${DATABASE}`, pid: postmaster.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * BENCH_PG_STATEMENTS=<file> (a diagnostic run, never a measured one: the extension costs CPU itself): the
 * run's statements by total execution time, with calls and rows, from pg_stat_statements, as the cluster
 * stops.
 */
async function dumpStatements(port: number, file: string): Promise<void> {
  const db = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: DATABASE });
  try {
    await db.connect();
    const { rows } = await db.query<{
      calls: string;
      total_ms: number;
      mean_us: number;
      rows: string;
      query: string;
    }>(
      `SELECT calls, round(total_exec_time::numeric, 1)::float AS total_ms,
              round((1000 * mean_exec_time)::numeric, 1)::float AS mean_us, rows, query
         FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 40`,
    );
    const lines = rows.map((r) =>
      [r.calls, r.total_ms, r.mean_us, r.rows, r.query.replace(/\s+/g, ' ')].join('\t'),
    );
    writeFileSync(file, ['calls\ttotal_ms\tmean_us\trows\tquery', ...lines].join('\n') + '\n');
  } catch (error) {
    process.stderr.write(`pg_stat_statements: ${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** Who the cluster runs as: the `postgres` user when we are root, ourselves (undefined) otherwise. */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const user = process.env.BENCH_PG_USER ?? 'postgres';
  const id = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function waitForPostgres(port: number, postmaster: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (postmaster.exitCode !== null)
      throw new Error(`PostgreSQL exited with ${postmaster.exitCode}:\n${tail(logFile)}`);
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      lastError = error;
    } finally {
      await client.end().catch(() => undefined);
    }
    await sleep(100);
  }
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  throw new Error(`PostgreSQL did not accept connections within 30 s (${reason}):\n${tail(logFile)}`);
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}
