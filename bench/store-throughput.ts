/**
 * The shared engines' figures for docs/deploying.md's capacity plan (run by hand, never in CI):
 *
 * - group messages per second through the engine itself: the real MutationBatch (group commit, a savepoint
 *   per mutation), the access policy's check, exactly-once and chat's `send_group_message` handler, on the
 *   real schema, from 40 senders with 4 messages each in flight (closed loop: the next goes when one is
 *   acknowledged), so the group commit batches what arrives while a commit is in flight; and one sender
 *   with one message at a time (an idle server: a commit per message, no savepoint). Each sender writes in
 *   a group of 20 of its own, made afresh for each case (each case reports the oldest other PostgreSQL
 *   transaction it met, in seconds, since this VM is shared with other work: one that holds back the
 *   cleanup horizon makes every update of a hot row walk its dead versions; before migration 0022 every
 *   message updated its group's row). On
 *   SQLite (DATA on tmpfs) and on PostgreSQL, one node and two nodes (two pools, each with its own
 *   transactor and batch, as two server processes would have);
 * - on PostgreSQL, each case twice in alternating rounds: with the commit's statements pipelined (the
 *   default) and without (`pipeline: false`: one round trip per statement, as before pipelining), so both
 *   meet the same load on this shared machine;
 * - Redis pub/sub: change messages per second from one node to another, and their latency.
 *
 * Each case reports CPU in % of one core (200 % is both of this VM's cores): this process (the engine),
 * the PostgreSQL backends serving it, and the machine's other load: everything else /proc/stat counts
 * (other work on this shared VM, PostgreSQL's WAL writer and other backends).
 * PostgreSQL runs where it is (TEST_DATABASE_URL, default the local one; not on tmpfs unless it is
 * configured so), Redis on REDIS_URL (default local).
 *
 * The VM is shared: run it in a session of its own at the highest priority, as `pnpm bench` runs its
 * server. The PostgreSQL backends serving it get the same priority from here (as root): each backend is a
 * session of its own, so its autogroup's nice is what weighs it against the machine's other sessions.
 *
 *   cd bench && setsid sh -c 'echo -20 > /proc/$$/autogroup; exec nice -n -20 node --import tsx store-throughput.ts'
 *   BENCH_SECONDS=5 (per case)  BENCH_ROUNDS=3 (PostgreSQL rounds)  BENCH_ONLY=postgres (or sqlite, redis)
 *   BENCH_WITHOUT_AUDIENCE_SEQ_INDEX=1: drops change_audience's index on seq (migration 0021) first, to
 *   measure two nodes as they ran before it
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { AckFrame, MessageErrorFrame, MutationFrame } from '@campus/protocol';
import { migrateToLatest, openDatabase } from '../server/src/lib/db/database';
import type { AppDeps } from '../server/src/lib/deps';
import { openPostgres } from '../server/src/lib/db/postgres';
import { createLogger } from '../server/src/lib/logger';
import { chatMutationHandlers } from '../server/src/modules/chat/sync';
import { insertUser } from '../server/src/modules/users/repo';
import { participationCheck } from '../server/src/modules/users/access';
import { inProcessChangeBus } from '../server/src/realtime/bus';
import type { MutationSender } from '../server/src/realtime/live-connection';
import { MutationBatch } from '../server/src/realtime/mutation-batch';
import { PgTransactor } from '../server/src/realtime/pg-transactor';
import type { MutationHandlers } from '../server/src/realtime/registry';
import { SqliteTransactor } from '../server/src/realtime/sqlite-transactor';
import { sql, type Transactor, type Tx } from '../server/src/realtime/transaction';
import { cpuMicrosBetween, cpuMicrosOf, machineBusyMicros, readCpuTimes, stealPercent } from './shared/proc';
import { benchTempDir } from './shared/tmpfs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = process.env.BENCH_ONLY;
const WITHOUT_AUDIENCE_SEQ_INDEX = process.env.BENCH_WITHOUT_AUDIENCE_SEQ_INDEX === '1';
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const GROUP_SIZE = 20;
const STUDENTS = 40;

interface Load {
  label: string;
  senders: number;
  /** Messages each sender keeps in flight. */
  window: number;
}
const BUSY: Load = { label: '40 senders × 4 in flight', senders: STUDENTS, window: 4 };
const LONE: Load = { label: '1 sender, 1 at a time', senders: 1, window: 1 };

interface CaseResult {
  case: string;
  load: string;
  messagesPerSecond: number;
  commitsPerSecond: number;
  messagesPerCommit: number;
  ackP50Ms: number;
  ackP99Ms: number;
  refused: number;
  /** Answered in all, those still in flight at the end included. */
  answered: number;
  /** % of one core: this process (the engine), its PostgreSQL backends, everything else on the machine. */
  benchCpu: number;
  backendsCpu: number;
  otherLoad: number;
  steal: number;
  /** PostgreSQL: the longest another session's transaction had run (sampled every 0.5 s), in seconds. */
  oldestOtherTxS?: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Counts commits on the way through (the batch's transactions, each message's or a batch's). */
class CountingTransactor implements Transactor {
  commits = 0;
  constructor(private readonly inner: Transactor) {}
  commit<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.commits++;
    return this.inner.commit(fn);
  }
  read: Transactor['read'] = (fn) => this.inner.read(fn);
}

/** A node of the deployment as the engine sees it: a transactor and the group commit in front of it. */
interface BenchNode {
  counter: CountingTransactor;
  batch: MutationBatch;
}

const insertGroup = sql(
  `INSERT INTO groups (id, name, created_by, created_at, avatar_url, created_seq)
   VALUES (?, ?, ?, ?, NULL, 0)`,
);
const insertMember = sql(
  'INSERT INTO group_members (group_id, user_id, joined_at, read_seq) VALUES (?, ?, ?, 0)',
);

/** Verified students, as the server's own writes make them. */
async function seedStudents(db: Parameters<typeof insertUser>[0]): Promise<string[]> {
  const users: string[] = [];
  for (let i = 0; i < STUDENTS; i++) {
    const row = await insertUser(
      db,
      {
        email: `bench-${i}-${randomUUID().slice(0, 8)}@uni.test`,
        passwordHash: 'unused',
        firstName: `Student${i}`,
        lastName: 'Bench',
        phoneNumber: '0000000000',
        role: 'user',
        documentStatus: 'verified',
      },
      Date.now(),
    );
    users.push(row.id);
  }
  return users;
}

/** A new group of GROUP_SIZE for each student (it and the next 19), by index: sender s writes in group s. */
async function freshGroups(transactor: Transactor, users: readonly string[]): Promise<string[]> {
  const groups = users.map(() => randomUUID());
  await transactor.commit(async (tx) => {
    const at = new Date(tx.now).toISOString();
    for (const [g, id] of groups.entries()) {
      tx.queue(insertGroup, id, `bench ${g}`, users[g]!, at);
      for (let m = 0; m < GROUP_SIZE; m++) tx.queue(insertMember, id, users[(g + m) % users.length]!, at);
    }
  });
  return groups;
}

function benchNode(transactor: Transactor): BenchNode {
  const counter = new CountingTransactor(transactor);
  // chatMutationHandlers takes the server's deps only as the key of its user-ref cache.
  const participation = participationCheck('on');
  const handlers = chatMutationHandlers({} as AppDeps, participation);
  const batch = new MutationBatch(
    counter,
    handlers as MutationHandlers,
    participation,
    createLogger('silent'),
    0,
    () => false,
  );
  return { counter, batch };
}

/**
 * `load.senders` students (spread over the nodes, round robin) each keep `load.window` group messages in
 * flight for SECONDS: every ack or refusal sends the next one. Each sender is a device of its own.
 */
async function runCase(
  name: string,
  nodes: BenchNode[],
  users: readonly string[],
  groups: readonly string[],
  load: Load,
  postgres?: { backends: readonly number[]; oldestOtherTx: () => Promise<number> },
): Promise<CaseResult> {
  const latencies: number[] = [];
  let answered = 0;
  let refused = 0;
  let running = true;
  let open = 0;
  let allAnswered: () => void = () => undefined;
  const drained = new Promise<void>((resolve) => (allAnswered = resolve));
  const commitsBefore = nodes.reduce((sum, n) => sum + n.counter.commits, 0);
  const cpuStart = process.cpuUsage();
  const machineStart = readCpuTimes();
  const backends = postgres?.backends ?? [];
  // Sampled through the case: the longest another session's transaction had run when looked at.
  let oldest = 0;
  const sampler = setInterval(() => {
    void postgres?.oldestOtherTx().then((s) => (oldest = Math.max(oldest, s)));
  }, 500);
  const pgStart = cpuMicrosOf(backends);
  const started = performance.now();
  for (let s = 0; s < load.senders; s++) {
    const userId = users[s]!;
    const groupId = groups[s]!;
    const node = nodes[s % nodes.length]!;
    const deviceId = `bench-${randomUUID()}`;
    const sentAt = new Map<number, number>();
    let mid = 0;
    const send = () => {
      const frame: MutationFrame = {
        type: 'send_group_message',
        id: randomUUID(),
        groupId,
        content: 'a message of ordinary length, forty chars',
        deviceId,
        mid: ++mid,
      };
      sentAt.set(frame.mid, performance.now());
      open++;
      node.batch.add(sender, frame);
    };
    const sender: MutationSender = {
      userId,
      cork: () => undefined,
      uncork: () => undefined,
      sendAfterChanges: (frame: AckFrame | MessageErrorFrame) => {
        open--;
        const at = frame.mid === undefined ? undefined : sentAt.get(frame.mid);
        if (at !== undefined) latencies.push(performance.now() - at);
        if (frame.mid !== undefined) sentAt.delete(frame.mid);
        if (frame.type === 'ack') answered++;
        else refused++;
        // The next one arrives as a socket's frame would, on a later turn of the event loop: sent from
        // here, SQLite's commits (settled at once) would chain batches in microtasks and starve the timers.
        if (running) setImmediate(() => (running ? send() : open === 0 && allAnswered()));
        else if (open === 0) allAnswered();
      },
    };
    for (let i = 0; i < load.window; i++) send();
  }
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  running = false;
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const machine = machineBusyMicros(machineStart, readCpuTimes());
  const backendMicros = cpuMicrosBetween(pgStart, cpuMicrosOf(backends));
  const steal = stealPercent(machineStart, readCpuTimes());
  const answeredThen = answered;
  const commits = nodes.reduce((sum, n) => sum + n.counter.commits, 0) - commitsBefore;
  clearInterval(sampler);
  const oldestOtherTx = postgres && Math.max(oldest, await postgres.oldestOtherTx());
  // What is still in flight is answered before the next case starts (it would slow that one down).
  await drained;
  latencies.sort((a, b) => a - b);
  const own = cpu.user + cpu.system;
  const pct = (micros: number) => Math.round((micros / (elapsed * 1_000_000)) * 100);
  return {
    case: name,
    load: load.label,
    messagesPerSecond: Math.round(answeredThen / elapsed),
    commitsPerSecond: Math.round(commits / elapsed),
    messagesPerCommit: Number((answeredThen / Math.max(1, commits)).toFixed(1)),
    ackP50Ms: Number(percentile(latencies, 50).toFixed(2)),
    ackP99Ms: Number(percentile(latencies, 99).toFixed(2)),
    refused,
    answered: answered + refused,
    benchCpu: pct(own),
    backendsCpu: pct(backendMicros),
    otherLoad: pct(Math.max(0, machine - own - backendMicros)),
    steal: Number(steal.toFixed(1)),
    ...(oldestOtherTx === undefined ? {} : { oldestOtherTxS: Number(oldestOtherTx.toFixed(1)) }),
  };
}

async function sqliteCases(): Promise<CaseResult[]> {
  // tmpfs, as the toolchain notes ask of benchmark databases: the disk's fsync is not what is measured.
  const dir = benchTempDir('ct-store-');
  const opened = openDatabase(path.join(dir, 'bench.sqlite'));
  try {
    await migrateToLatest(opened.db);
    const transactor = new SqliteTransactor(opened.sqlite, {
      now: Date.now,
      bus: inProcessChangeBus(() => undefined),
    });
    const users = await seedStudents(opened.db);
    const node = benchNode(transactor);
    return [
      await runCase('SQLite (tmpfs), one node', [node], users, await freshGroups(transactor, users), LONE),
      await runCase('SQLite (tmpfs), one node', [node], users, await freshGroups(transactor, users), BUSY),
    ];
  } finally {
    await opened.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Both ways of committing on PostgreSQL, in alternating rounds so both meet the same machine. */
interface RoundTrips {
  how: string;
  load: string;
  messages: number;
  roundTripsPerMessage: number;
}

/**
 * Round trips per message, counted rather than timed: through a proxy that hands PostgreSQL's answers to
 * the engine 5 ms late, so that what the engine sends at once is always one flight. What a commit holds
 * the deployment's lock for follows this count on any network, whatever else runs on this VM.
 */
async function countRoundTrips(
  url: URL,
  schema: string,
  users: readonly string[],
  open: (pool: pg.Pool, pipeline: boolean) => Promise<Transactor>,
): Promise<RoundTrips[]> {
  let flights = 0;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((engine) => {
    let answered = true;
    const upstream = net.connect(Number(url.port || 5432), url.hostname);
    sockets.add(engine).add(upstream);
    // No Nagle in between: the count is of flights, and the engine's own socket has none either.
    engine.setNoDelay(true);
    upstream.setNoDelay(true);
    engine.on('data', (chunk) => {
      if (answered) flights++;
      answered = false;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) =>
      setTimeout(() => {
        answered = true;
        engine.write(chunk);
      }, 5),
    );
    const close = () => {
      engine.destroy();
      upstream.destroy();
    };
    engine.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((proxy.address() as net.AddressInfo).port);
  const opened = openPostgres(proxied.toString(), { schema, max: 2 });
  try {
    const counted: RoundTrips[] = [];
    for (const [how, pipeline] of [
      ['one statement per round trip', false],
      ['pipelined', true],
    ] as const) {
      const transactor = await open(opened.pool, pipeline);
      const node = benchNode(transactor);
      for (const load of [LONE, BUSY]) {
        const groups = await freshGroups(transactor, users);
        flights = 0;
        const result = await runCase('round trips', [node], users, groups, load);
        counted.push({
          how,
          load: load.label,
          messages: result.answered,
          roundTripsPerMessage: Number((flights / result.answered).toFixed(2)),
        });
      }
    }
    return counted;
  } finally {
    await opened.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  }
}

async function postgresCases(): Promise<{ results: CaseResult[]; roundTrips: RoundTrips[] }> {
  const schema = `ct_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Pool({ connectionString: PG_URL, max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  // Named after the schema, so its backends can be told from other users' of this PostgreSQL.
  const url = new URL(PG_URL);
  url.searchParams.set('application_name', schema);
  const pools = [
    openPostgres(url.toString(), { schema, max: 10 }),
    openPostgres(url.toString(), { schema, max: 10 }),
  ];
  const backends = async () => {
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
      [schema],
    );
    for (const { pid } of rows) {
      try {
        fs.writeFileSync(`/proc/${pid}/autogroup`, String(ownAutogroupNice()));
        os.setPriority(pid, os.getPriority());
      } catch {
        // Not root: the "other load" column tells how much the run was disturbed.
      }
    }
    return rows.map((row) => row.pid);
  };
  try {
    await migrateToLatest(pools[0]!.db);
    // Not in the schema: what an index on change_audience(seq) would give. A commit adopting other nodes'
    // entries reads each one's audiences by seq, and change_audience's key is (audience, seq).
    if (WITHOUT_AUDIENCE_SEQ_INDEX) await pools[0]!.pool.query('DROP INDEX change_audience_seq_idx');
    // One bus for every transactor, standing for Redis between the nodes: what one committed counts as
    // delivered to all, so a transactor resuming after the other way's round does not first read the
    // whole round's log to catch up (the two nodes of one way still adopt each other's latest commits).
    const bus = inProcessChangeBus(() => undefined);
    let delivered = 0;
    bus.subscribe((changes) => (delivered = Math.max(delivered, changes.at(-1)?.change.seq ?? 0)));
    const open = (pipeline: boolean) =>
      Promise.all(
        pools.map(async (opened) =>
          benchNode(
            await PgTransactor.open(opened.pool, {
              now: Date.now,
              bus,
              deliveredSeq: () => delivered,
              pipeline,
            }),
          ),
        ),
      );
    const pipelined = await open(true);
    const oneByOne = await open(false);
    const users = await seedStudents(pools[0]!.db);
    const oldestOtherTx = async () => {
      const { rows } = await admin.query<{ s: number | null }>(
        `SELECT extract(epoch FROM max(now() - xact_start))::float8 AS s FROM pg_stat_activity
          WHERE pid <> pg_backend_pid() AND application_name <> $1
            AND (backend_xid IS NOT NULL OR backend_xmin IS NOT NULL)`,
        [schema],
      );
      return rows[0]?.s ?? 0;
    };
    const roundTrips = await countRoundTrips(url, schema, users, (pool, pipeline) =>
      PgTransactor.open(pool, { now: Date.now, bus, deliveredSeq: () => delivered, pipeline }),
    );
    const results: CaseResult[] = [];
    const cases: [string, (nodes: BenchNode[]) => BenchNode[], Load][] = [
      ['one node', (nodes) => nodes.slice(0, 1), LONE],
      ['one node', (nodes) => nodes.slice(0, 1), BUSY],
      ['two nodes', (nodes) => nodes, BUSY],
    ];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, pick, load] of cases) {
        // Alternating which goes first, so neither always follows the other's leftovers (autovacuum).
        const order: [string, BenchNode[]][] = [
          ['one statement per round trip', oneByOne],
          ['pipelined', pipelined],
        ];
        if (round % 2 === 0) order.reverse();
        for (const [how, nodes] of order) {
          const groups = await freshGroups(nodes[0]!.counter, users);
          const result = await runCase(`PostgreSQL, ${name}, ${how}`, pick(nodes), users, groups, load, {
            backends: await backends(),
            oldestOtherTx,
          });
          process.stderr.write(`round ${round}: ${JSON.stringify(result)}\n`);
          results.push(result);
        }
      }
    }
    return { results, roundTrips };
  } finally {
    await Promise.all(pools.map((opened) => opened.close()));
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

/** This process's session's nice (what `echo -20 > /proc/$$/autogroup` set), 0 if unknown. */
function ownAutogroupNice(): number {
  try {
    return Number(/ nice (-?\d+)/.exec(fs.readFileSync('/proc/self/autogroup', 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The median round of each case and load (by messages per second). */
function medians(results: CaseResult[]): CaseResult[] {
  const groups = new Map<string, CaseResult[]>();
  for (const result of results) {
    const key = `${result.case}\n${result.load}`;
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  return [...groups.values()].map((rounds) => {
    const sorted = [...rounds].sort((a, b) => a.messagesPerSecond - b.messagesPerSecond);
    return sorted[Math.floor((sorted.length - 1) / 2)]!;
  });
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
  const sqlite = !ONLY || ONLY === 'sqlite' ? await sqliteCases() : [];
  const { results: postgres, roundTrips } =
    !ONLY || ONLY === 'postgres' ? await postgresCases() : { results: [], roundTrips: [] };
  const redis = !ONLY || ONLY === 'redis' ? await redisCase() : undefined;
  const steal = Number(stealPercent(before, readCpuTimes()).toFixed(1));
  const table = [...sqlite, ...medians(postgres)];
  if (postgres.length) console.log(`PostgreSQL: the median of ${ROUNDS} rounds (every round on stderr)`);
  console.table(table);
  if (roundTrips.length) {
    console.log('PostgreSQL round trips per message (counted through a proxy, not timed):');
    console.table(roundTrips);
  }
  if (redis) console.log('Redis pub/sub, one publisher → one subscriber:', redis);
  console.log(
    `steal ${steal} % over the run; CPU per case in % of one core: bench = this process (the engine), ` +
      'backends = the PostgreSQL backends serving it, other = the rest of the machine',
  );
  const out = path.join(
    import.meta.dirname,
    'results',
    `store-${new Date().toISOString().slice(0, 16)}.json`,
  );
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), sqlite, postgres, roundTrips, redis, steal }, null, 2),
  );
  console.log(`raw: ${path.relative(process.cwd(), out)}`);
}

await main();
