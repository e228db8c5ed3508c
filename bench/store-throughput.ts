/**
 * The shared engines' figures for docs/deploying.md's capacity plan (run by hand, never in CI):
 *
 * - commits per second through the engine's Transactor on SQLite (DATA on tmpfs) and on PostgreSQL, one
 *   node and two nodes (two pools, each with its own transactor, as two server processes would have),
 *   with 1 and with 20 mutations per commit (the group commit batches what arrives while one is in flight);
 * - Redis pub/sub: change messages per second from one node to another, and their latency.
 *
 * Each mutation writes what a group message writes: the message row, the group's last message, the
 * device's last mid, and one change to the group's audience. PostgreSQL runs where it is (TEST_DATABASE_URL,
 * default the local one; not on tmpfs unless it is configured so), Redis on REDIS_URL (default local).
 *
 *   cd bench && node --import tsx store-throughput.ts            # BENCH_SECONDS=5 per case
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Redis } from 'ioredis';
import { migrateToLatest, openDatabase } from '../server/src/lib/db/database';
import { openPostgres } from '../server/src/lib/db/postgres';
import { inProcessChangeBus } from '../server/src/realtime/bus';
import { PgTransactor } from '../server/src/realtime/pg-transactor';
import { SqliteTransactor } from '../server/src/realtime/sqlite-transactor';
import { sql, type Transactor } from '../server/src/realtime/transaction';
import { machineBusyMicros, readCpuTimes, stealPercent } from './shared/proc';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Commits in flight at once per node: the connections' mutations waiting on the group commit. */
const IN_FLIGHT = 8;

const CREATE_TABLES = [
  `CREATE TABLE bench_messages (id TEXT PRIMARY KEY, group_id TEXT NOT NULL, sender_id TEXT NOT NULL,
     content TEXT NOT NULL, created_ms BIGINT NOT NULL, seq BIGINT NOT NULL)`,
  `CREATE INDEX bench_messages_group_seq ON bench_messages (group_id, seq)`,
  `CREATE TABLE bench_groups (id TEXT PRIMARY KEY, last_message_id TEXT, last_seq BIGINT NOT NULL DEFAULT 0)`,
  `CREATE TABLE bench_devices (id TEXT PRIMARY KEY, last_mid BIGINT NOT NULL)`,
];
const GROUPS = 50;

const insertMessage = sql(
  'INSERT INTO bench_messages (id, group_id, sender_id, content, created_ms, seq) VALUES (?, ?, ?, ?, ?, ?)',
);
const updateGroup = sql('UPDATE bench_groups SET last_message_id = ?, last_seq = ? WHERE id = ?');
const saveDevice = sql(
  `INSERT INTO bench_devices (id, last_mid) VALUES (?, ?)
   ON CONFLICT (id) DO UPDATE SET last_mid = excluded.last_mid`,
);

interface CaseResult {
  case: string;
  mutationsPerCommit: number;
  commitsPerSecond: number;
  mutationsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  benchCpuPercent: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** One commit of `batch` group messages, each in its savepoint as the server's MutationBatch does. */
async function commitBatch(transactor: Transactor, node: string, batch: number, counter: { mid: number }) {
  await transactor.commit(async (tx) => {
    for (let i = 0; i < batch; i++) {
      await tx.savepoint(async (sp) => {
        const id = randomUUID();
        const group = `g${counter.mid % GROUPS}`;
        const seq = sp.nextSeq();
        await sp.run(
          insertMessage,
          id,
          group,
          node,
          'a message of ordinary length, forty chars',
          sp.now,
          seq,
        );
        await sp.run(updateGroup, id, seq, group);
        await sp.run(saveDevice, `${node}-device`, ++counter.mid);
        sp.emit(
          {
            type: 'receive_group_message',
            message: { id, groupId: group, senderId: node, content: 'a message', createdAt: '' },
          } as never,
          [`g:${group}`],
        );
      });
    }
  });
}

/** Runs IN_FLIGHT commit loops per transactor for SECONDS; every transactor counts as one node. */
async function runCase(name: string, transactors: Transactor[], batch: number): Promise<CaseResult> {
  const latencies: number[] = [];
  let commits = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    transactors.flatMap((transactor, n) =>
      Array.from({ length: IN_FLIGHT }, async () => {
        const counter = { mid: 0 };
        while (performance.now() < deadline) {
          const t0 = performance.now();
          await commitBatch(transactor, `node${n}`, batch, counter);
          latencies.push(performance.now() - t0);
          commits++;
        }
      }),
    ),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  latencies.sort((a, b) => a - b);
  return {
    case: name,
    mutationsPerCommit: batch,
    commitsPerSecond: Math.round(commits / elapsed),
    mutationsPerSecond: Math.round((commits * batch) / elapsed),
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
    benchCpuPercent: Math.round(((cpu.user + cpu.system) / 1000 / (elapsed * 1000)) * 100),
  };
}

async function seedGroups(run: (text: string) => Promise<unknown>) {
  for (const text of CREATE_TABLES) await run(text);
  for (let g = 0; g < GROUPS; g++) await run(`INSERT INTO bench_groups (id) VALUES ('g${g}')`);
}

async function sqliteCases(): Promise<CaseResult[]> {
  // tmpfs, as the toolchain notes ask of benchmark databases: the disk's fsync is not what is measured.
  const dir = fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'ct-store-'));
  const opened = openDatabase(path.join(dir, 'bench.sqlite'));
  try {
    await migrateToLatest(opened.db);
    await seedGroups(async (text) => opened.sqlite.exec(text));
    const transactor = new SqliteTransactor(opened.sqlite, {
      now: Date.now,
      bus: inProcessChangeBus(() => undefined),
    });
    return [
      await runCase('SQLite, one node', [transactor], 1),
      await runCase('SQLite, one node', [transactor], 20),
    ];
  } finally {
    await opened.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresCases(): Promise<CaseResult[]> {
  const schema = `ct_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const nodes = [openPostgres(PG_URL, { schema, max: 10 }), openPostgres(PG_URL, { schema, max: 10 })];
  try {
    await migrateToLatest(nodes[0]!.db);
    await seedGroups((text) => nodes[0]!.pool.query(text));
    const transactors = await Promise.all(
      nodes.map((node) =>
        PgTransactor.open(node.pool, { now: Date.now, bus: inProcessChangeBus(() => undefined) }),
      ),
    );
    return [
      await runCase('PostgreSQL, one node', [transactors[0]!], 1),
      await runCase('PostgreSQL, one node', [transactors[0]!], 20),
      await runCase('PostgreSQL, two nodes', transactors, 1),
      await runCase('PostgreSQL, two nodes', transactors, 20),
    ];
  } finally {
    await Promise.all(nodes.map((node) => node.close()));
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

interface RedisResult {
  messagesPerSecond: number;
  bytesPerMessage: number;
  p50Ms: number;
  p99Ms: number;
}

/** One node publishes change messages (a commit of 20 group messages ≈ 4 KB) as fast as Redis takes them. */
async function redisCase(): Promise<RedisResult> {
  const channel = `ct-bench-${randomUUID()}`;
  const pub = new Redis(REDIS_URL);
  const sub = new Redis(REDIS_URL);
  const body = JSON.stringify({ pad: 'x'.repeat(4000) });
  const latencies: number[] = [];
  let received = 0;
  await sub.subscribe(channel);
  sub.on('message', (_channel: string, message: string) => {
    const sentAt = Number(message.slice(0, message.indexOf('\n')));
    latencies.push(performance.now() - sentAt);
    received++;
  });
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  // Paced in bursts so the publisher never has more than 64 messages queued (as a node's commits would).
  while (performance.now() < deadline) {
    await Promise.all(
      Array.from({ length: 64 }, () => pub.publish(channel, `${performance.now()}\n${body}`)),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  pub.disconnect();
  sub.disconnect();
  return {
    messagesPerSecond: Math.round(received / elapsed),
    bytesPerMessage: body.length,
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
  };
}

async function main() {
  const before = readCpuTimes();
  const cpuBefore = process.cpuUsage();
  const wallStart = performance.now();
  const results = [...(await sqliteCases()), ...(await postgresCases())];
  const redis = await redisCase();
  const after = readCpuTimes();
  const wallMicros = (performance.now() - wallStart) * 1000;
  const own = process.cpuUsage(cpuBefore);
  // Machine CPU beside this process: PostgreSQL's and Redis's own work (part of what is measured) and
  // anything else running (noise). Both cores: 200 % is the whole machine.
  const steal = Number(stealPercent(before, after).toFixed(1));
  const besideBenchPercent = Math.round(
    ((machineBusyMicros(before, after) - own.user - own.system) / wallMicros) * 100,
  );
  console.table(results);
  console.log('Redis pub/sub, one publisher → one subscriber:', redis);
  console.log(
    `steal ${steal} %, CPU beside the bench (PostgreSQL, Redis, anything else) ${besideBenchPercent} %`,
  );
  const out = path.join(
    import.meta.dirname,
    'results',
    `store-${new Date().toISOString().slice(0, 16)}.json`,
  );
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), results, redis, steal, besideBenchPercent }, null, 2),
  );
  console.log(`raw: ${path.relative(process.cwd(), out)}`);
}

await main();
