import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import {
  createSyncClient,
  type CampusDatabase,
  type RealtimeTiming,
  type SyncClient,
} from '../../../packages/sync/src';
import { createTestSchema } from '../../../server/test/support/postgres';
import { FAST, type Student, type WireCounts, countingWebSocket } from './harness';
import type { Wire } from './wire';

/**
 * Several Campus Talk nodes, each a real server process (`server/src/main.ts`, bundled as for `pnpm start`),
 * on one database (a PostgreSQL schema of their own) and one Redis of their own: what runs behind a load
 * balancer in production (DESIGN.md, "Beyond one machine"). Unlike server/test/redis-nodes.test.ts (two
 * nodes in one process) a node here can be killed with SIGKILL mid-commit and started again, and nothing is
 * shared but the database, Redis and the network.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const serverDir = path.join(repoRoot, 'server');

/**
 * Which database the nodes share. PostgreSQL by default (the issue's deployment: several nodes on one
 * PostgreSQL and one Redis): 127.0.0.1:5432/test, or TEST_DATABASE_URL, as server/test/support/postgres.ts
 * has it, each cluster in a throwaway database of its own. SYSTEM_DATABASE=sqlite runs the same tests on one
 * SQLite file in the shared DATA_DIR (in WAL; a node adopts what another process appended to the change
 * log), for a run by hand. The tests read the server's data through REST and WebSocket only, so they run
 * unchanged on either.
 */
export const SYSTEM_DATABASE: 'postgres' | 'sqlite' =
  process.env.SYSTEM_DATABASE === 'sqlite' ? 'sqlite' : 'postgres';

/** The shared database of one cluster: the nodes' environment for it, and its removal. */
interface SharedDatabase {
  /** Told in the logs of a failed test. */
  name: string;
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * The database every node of a cluster uses. On PostgreSQL a fresh schema (ct_<random>, migrated already:
 * a database copied from the run's template, server/test/support/postgres.ts), named in the
 * URL's `options` (`-c search_path=<schema>`, which pg passes to the server at connect): the server has
 * no variable of its own for the schema (config.ts), and every connection of every node, the restarted
 * ones included, lands in it. Dropped by drop(), once the nodes are gone.
 */
async function sharedDatabase(): Promise<SharedDatabase> {
  if (SYSTEM_DATABASE === 'sqlite')
    return { name: 'SQLite (one file in DATA_DIR)', env: {}, drop: () => Promise.resolve() };
  const schema = await createTestSchema({ migrated: true });
  const url = new URL(schema.url);
  url.searchParams.set('options', `-c search_path=${schema.schema}`);
  return {
    name: `PostgreSQL schema ${schema.schema}`,
    env: { DATABASE_URL: url.toString() },
    drop: () => schema.drop(),
  };
}

/**
 * How a node process starts, by the very node running the tests (the one on PATH may be another). By
 * default the server bundled once per test process, as `pnpm --filter @campus/server build` bundles it for
 * `pnpm start` (bundleServer below): a node then starts in about two thirds of the time main.ts through
 * tsx takes (4.2–4.7 s against 6.3–7.9 s measured on this loaded 2-core machine), and the files start
 * five nodes between them. SYSTEM_SERVER_MAIN=tsx runs main.ts through tsx instead (no build, as `pnpm dev`
 * runs it); SYSTEM_SERVER_MAIN=server/dist/main.js runs a bundle built beforehand.
 */
async function nodeCommand(): Promise<{ args: string[]; cwd: string }> {
  const main = process.env.SYSTEM_SERVER_MAIN;
  if (main === 'tsx') return { args: ['--import', 'tsx', 'src/main.ts'], cwd: serverDir };
  const file = main ? path.resolve(repoRoot, main) : await (bundled ??= bundleServer());
  return { args: ['--enable-source-maps', file], cwd: repoRoot };
}

let bundled: Promise<string> | undefined;

const BUNDLE_PREFIX = 'ct-system-server-';

/**
 * Bundles server/src/main.ts with esbuild, as server/build.mjs does (workspace packages in, registry
 * packages external), into a temporary folder of this process's own (two test files may build at once),
 * removed when the process exits. The folder's node_modules links to server/node_modules, where the
 * external packages resolve from. esbuild is the server's dependency, so the build runs in a child process
 * started in server/.
 */
async function bundleServer(): Promise<string> {
  removeStaleBundles();
  const outdir = mkdtempSync(path.join(tmpdir(), `${BUNDLE_PREFIX}${process.pid}-`));
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  symlinkSync(path.join(serverDir, 'node_modules'), path.join(outdir, 'node_modules'), 'dir');
  const script = `
    import { build } from 'esbuild';
    import { readFileSync } from 'node:fs';
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@campus/'));
    await build({
      entryPoints: { main: 'src/main.ts' },
      outdir: process.argv[1],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      sourcemap: true,
      external: [...external, ...external.map((name) => name + '/*')],
      logLevel: 'warning',
    });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, outdir], {
    cwd: serverDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`bundling the server failed (exit ${code}):\n${output}`);
  return path.join(outdir, 'main.js');
}

/**
 * The bundles of test processes that are gone: vitest may end a worker with a signal, and then its exit
 * handler never ran. Each folder is named after its process's id.
 */
function removeStaleBundles(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(BUNDLE_PREFIX)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(BUNDLE_PREFIX.length))?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every process the harness started: killed when the test process exits, a crash or a missed close() included. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** A loopback port nothing listens on now (the OS picks it; the process we start takes it right after). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const LOG_LIMIT = 400_000;

/** A child process we can kill and start again on the same port, keeping what it printed across lives. */
abstract class Managed {
  protected child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private output = '';
  /** Signals we sent (an exit after one is expected; any other exit is a crash, told in the log). */
  private expectingExit = false;
  private lives = 0;

  constructor(
    readonly name: string,
    readonly port: number,
  ) {}

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything it printed, every life of it, newest last. */
  log(): string {
    return this.output;
  }

  protected append(text: string): void {
    this.output += text;
    if (this.output.length > LOG_LIMIT) this.output = `…${this.output.slice(-LOG_LIMIT)}`;
  }

  protected spawnChild(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.lives += 1;
    this.append(`\n----- ${this.name}: start #${this.lives} at ${new Date().toISOString()} -----\n`);
    this.expectingExit = false;
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    live.add(child);
    child.stdout?.on('data', (chunk: Buffer) => this.append(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.append(chunk.toString()));
    this.exited = new Promise<void>((resolve) => {
      child.once('error', (err) => {
        this.append(`\n----- ${this.name}: could not start: ${err.message} -----\n`);
        live.delete(child);
        resolve();
      });
      child.once('exit', (code, signal) => {
        live.delete(child);
        const how = signal ?? `code ${code}`;
        this.append(
          `\n----- ${this.name}: exited (${how})${this.expectingExit ? '' : ' UNEXPECTEDLY'} -----\n`,
        );
        resolve();
      });
    });
  }

  /** Sends `signal` and waits for the exit; SIGKILL if it is still there after `graceMs`. */
  async kill(signal: NodeJS.Signals = 'SIGKILL', graceMs = 15_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return this.exited;
    this.expectingExit = true;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Polls `ready` until it passes; fails at once (with the log) if the process exits first. */
  protected async waitReady(ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const started = Date.now();
    while (!(await ready().catch(() => false))) {
      if (!this.running)
        throw new Error(`${this.name} exited before it was ready; its log:\n${this.output.slice(-20_000)}`);
      if (Date.now() - started > timeoutMs) {
        const tail = this.output.slice(-20_000);
        await this.kill('SIGKILL');
        throw new Error(`${this.name} was not ready within ${timeoutMs} ms; its log:\n${tail}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A Redis server of the suite's own on a free loopback port: no persistence, so a restart starts empty. */
export class RedisProcess extends Managed {
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisProcess> {
    const redis = new RedisProcess('redis', await freePort());
    await redis.start();
    return redis;
  }

  async start(): Promise<void> {
    const binary = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
    if (!existsSync(binary))
      throw new Error(
        `redis-server is not at ${binary}: the multi-node tests need it (apt-get install redis-server, ` +
          'or REDIS_SERVER=/path/to/redis-server)',
      );
    // Never the shared 6379 one: other tests use it at the same time, and this one gets killed.
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.spawnChild(binary, args, tmpdir(), { PATH: process.env.PATH ?? '' });
    await this.waitReady(async () => (await redisCommand(this.port, 'PING')) === '+PONG\r\n', 20_000);
  }

  /** Kills it (SIGKILL by default: everything it held, subscriptions included, is gone) and starts it again. */
  async restart(signal: NodeJS.Signals = 'SIGKILL', downMs = 0): Promise<void> {
    await this.kill(signal);
    if (downMs) await new Promise((r) => setTimeout(r, downMs));
    await this.start();
  }

  /** How many connections are subscribed to `channel` (PUBSUB NUMSUB). */
  async subscribers(channel: string): Promise<number> {
    const reply = await redisCommand(this.port, 'PUBSUB', 'NUMSUB', channel);
    const match = /:(\d+)\r\n$/.exec(reply);
    if (!match) throw new Error(`unexpected PUBSUB NUMSUB reply ${JSON.stringify(reply)}`);
    return Number(match[1]);
  }
}

/** One command over a fresh connection, its raw RESP reply (enough for PING and PUBSUB NUMSUB). */
export function redisCommand(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('redis did not answer'));
    }, 2000);
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on('connect', () => {
      socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
    });
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      // Simple replies end with their first CRLF; the NUMSUB array ends with the count's.
      const complete = reply.startsWith('*') ? /:\d+\r\n$/.test(reply) : reply.endsWith('\r\n');
      if (!complete) return;
      clearTimeout(timer);
      socket.end();
      resolve(reply);
    });
  });
}

/** A Campus Talk node: main.ts in a process of its own, on a fixed port so it comes back where it was. */
export class NodeProcess extends Managed {
  constructor(
    name: string,
    port: number,
    private readonly env: Record<string, string>,
    private readonly readyTimeoutMs: number,
  ) {
    super(name, port);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const { args, cwd } = await nodeCommand();
    this.spawnChild(process.execPath, args, cwd, { ...process.env, ...this.env, PORT: String(this.port) });
    await this.waitReady(async () => {
      const res = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2000) });
      return res.status === 200;
    }, this.readyTimeoutMs);
  }

  /** Stops it (SIGTERM drains first; SIGKILL is a crash, mid-commit if it was writing) and starts it again. */
  async restart(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.kill(signal);
    await this.start();
  }

  /** A REST call as the web app makes it; the body parsed (or {} when empty). */
  async request(
    method: string,
    route: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(this.url + route, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }
}

export interface ClusterOptions {
  nodes?: number;
  /** Extra environment for every node (after the harness's own, so it may override them). */
  env?: Record<string, string>;
  /** How long a node may take to answer /readyz 200 (tsx compiles the server as it loads). */
  readyTimeoutMs?: number;
}

export interface Cluster {
  nodes: NodeProcess[];
  redis: RedisProcess;
  /** The Redis channels' prefix of this cluster (`<prefix>:changes` and so on). */
  prefix: string;
  dataDir: string;
  /** The database the nodes share (SYSTEM_DATABASE), e.g. `PostgreSQL schema ct_…`. */
  database: string;
  /** A student with full access, made through REST on `node` (sign-up, mailed code, exempted by an admin). */
  signUp(node: NodeProcess, firstName: string, lastName?: string): Promise<Student & { password: string }>;
  /** Every process's log, for a failure's report. */
  logs(): string;
  /** Kills every process (nodes first, then Redis), removes the data directory and drops the schema. */
  close(): Promise<void>;
}

const ADMIN_PASSWORD = 'system-admin-123';

/**
 * Makes the shared database (a PostgreSQL schema, unless SYSTEM_DATABASE=sqlite), starts Redis, then the
 * nodes one after the other (the first runs the migrations and creates the secrets and the VAPID keys in
 * DATA_DIR; the others find them), each on a free port, and waits for each /readyz. If any fails to
 * start, everything started so far is killed (and the schema dropped) before the error is thrown.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const count = options.nodes ?? 2;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ct-nodes-'));
  const prefix = `ct-system-${randomUUID().slice(0, 8)}`;
  const adminEmail = `admin-${prefix}@campustalk.test`;
  const nodes: NodeProcess[] = [];
  let redis: RedisProcess | undefined;
  let database: SharedDatabase | undefined;

  const logs = () =>
    [
      `===== database: ${database?.name ?? 'not made'} =====`,
      ...[redis, ...nodes]
        .filter((p): p is RedisProcess | NodeProcess => p !== undefined)
        .map((p) => `===== ${p.name} (port ${p.port}) =====\n${p.log()}`),
    ].join('\n');
  const close = async () => {
    await Promise.all(nodes.map((node) => node.kill('SIGKILL')));
    await redis?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    // Last: a killed node's connections are gone, so nothing holds a lock on the schema's tables.
    await database?.drop();
  };

  try {
    database = await sharedDatabase();
    redis = await RedisProcess.start();
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      REDIS_URL: redis.url,
      REDIS_PREFIX: prefix,
      // Info: a failing test prints what each node did (startup, Redis reconnects, errors).
      LOG_LEVEL: 'info',
      // The dev mailbox hands out the sign-up codes (loopback host, no SMTP).
      SMTP_URL: '',
      ADMIN_EMAILS: adminEmail,
      // One address signs up every student; the realtime limit raised as startSystemServer raises it.
      AUTH_RATE_MULTIPLIER: '1000',
      REALTIME_RATE_MULTIPLIER: '5000',
      DRAIN_TIMEOUT_MS: '2000',
      // Not inherited from the shell running the tests: the database is sharedDatabase()'s choice.
      DATABASE_URL: '',
      ...database.env,
      ...options.env,
    };
    for (let i = 0; i < count; i += 1) {
      const node = new NodeProcess(`node${i + 1}`, await freePort(), env, options.readyTimeoutMs ?? 120_000);
      nodes.push(node);
      await node.start();
    }
  } catch (error) {
    await close();
    throw error;
  }

  let adminToken: Promise<string> | undefined;
  let sqliteSignUps: Promise<unknown> = Promise.resolve();
  const admin = () =>
    (adminToken ??= signUpAccount(nodes[0]!, adminEmail, ADMIN_PASSWORD, 'Ada', 'Admin').then(
      ({ token }) => token,
    ));

  return {
    nodes,
    redis,
    prefix,
    dataDir,
    database: database.name,
    signUp(node, firstName, lastName = 'Nodes') {
      const run = async () => {
        const email = `${firstName}.${randomUUID().slice(0, 8)}@uni.edu`.toLowerCase();
        const password = 'nodes-pass-123';
        const { id, token } = await signUpAccount(node, email, password, firstName, lastName);
        // Exempted from the student-ID upload, so the access policy lets them chat, post and react.
        const exempt = await node.request(
          'PATCH',
          `/api/upload/admin/documents/${id}`,
          { action: 'exempt' },
          await admin(),
        );
        if (exempt.status !== 200)
          throw new Error(`exempt ${email}: ${exempt.status} ${JSON.stringify(exempt.body)}`);
        return { id, token, email, password, ref: { id, firstName, lastName, profilePictureUrl: null } };
      };
      if (SYSTEM_DATABASE === 'postgres') return run();
      // On one SQLite file, two processes writing at once failed a sign-up now and then with "database is
      // locked" (a transaction that read, then wrote after the other process had committed: SQLite answers
      // that at once, whatever the busy timeout). Sign-ups the tests start side by side go one at a time.
      const next = sqliteSignUps.then(run, run);
      sqliteSignUps = next.catch(() => undefined);
      return next;
    },
    logs,
    close,
  };
}

/** Sign-up, the code from this node's dev mailbox (each node has its own), then verify-otp. */
async function signUpAccount(
  node: NodeProcess,
  email: string,
  password: string,
  firstName: string,
  lastName: string,
): Promise<{ id: string; token: string }> {
  const signup = await node.request('POST', '/api/auth/signup', {
    firstName,
    lastName,
    email,
    password,
    phoneNumber: '',
  });
  if (signup.status >= 300)
    throw new Error(`signup ${email}: ${signup.status} ${JSON.stringify(signup.body)}`);
  let code: string | undefined;
  const deadline = Date.now() + 10_000;
  while (!code) {
    if (Date.now() > deadline) throw new Error(`no sign-up code for ${email} in ${node.name}'s mailbox`);
    const mailbox = await node.request('GET', '/dev/mailbox.json');
    const mails = (mailbox.body.mails ?? []) as { to: string; text: string }[];
    code = /Your code: (\d{6})/.exec(mails.find((m) => m.to === email)?.text ?? '')?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 50));
  }
  const verify = await node.request('POST', '/api/auth/verify-otp', { email, otpCode: code });
  if (verify.status !== 201)
    throw new Error(`verify ${email}: ${verify.status} ${JSON.stringify(verify.body)}`);
  const { token, user } = verify.body as { token: string; user: { id: string } };
  return { id: user.id, token };
}

/**
 * Prints every process's log after a failed test (registers an afterEach); `cluster` is read then, so it
 * may be assigned in a beforeAll that runs later.
 */
export function printLogsOnFailure(cluster: () => Cluster | undefined): void {
  afterEach((context) => {
    const state = context.task.result?.state;
    const running = cluster();
    if (state === 'fail' && running) console.log(`[nodes] the processes' logs:\n${running.logs()}`);
  });
}

/**
 * A cluster for one test file, started in beforeAll. If it cannot start (no redis-server, a node that does
 * not come up) every test fails with that error (beforeEach), rather than being reported skipped. Each
 * failed test prints the processes' logs. The file's afterAll calls close() after stopping its clients.
 */
export function clusterForFile(options: ClusterOptions = {}): { get(): Cluster; close(): Promise<void> } {
  let cluster: Cluster | undefined;
  let failure: unknown;
  beforeAll(async () => {
    try {
      cluster = await startCluster(options);
    } catch (error) {
      failure = error;
    }
  }, 300_000);
  beforeEach(() => {
    if (failure) throw failure;
  });
  printLogsOnFailure(() => cluster);
  return {
    get() {
      if (!cluster) throw failure ?? new Error('the cluster has not started');
      return cluster;
    },
    close: async () => {
      await cluster?.close();
    },
  };
}

export interface NodeDeviceOptions {
  student: Student;
  db: CampusDatabase;
  /** The node the device talks REST to. */
  node: NodeProcess;
  /** Port the socket connects to: a proxy or a balancer in front of the nodes (default: `node`'s). */
  port?: number;
  counts?: WireCounts;
  wire?: Wire;
  timing?: Partial<RealtimeTiming>;
  token?: string;
  random?: () => number;
}

/** A started sync client of `student` on one node (or behind a proxy), reconnecting fast (FAST). */
export function startNodeDevice(options: NodeDeviceOptions): SyncClient {
  const client = createSyncClient({
    self: options.student.ref,
    token: options.token ?? options.student.token,
    baseUrl: options.node.url,
    wsUrl: `ws://127.0.0.1:${options.port ?? options.node.port}/ws`,
    db: options.db,
    WebSocketImpl:
      options.wire?.WebSocketImpl ?? (options.counts ? countingWebSocket(options.counts) : WebSocket),
    timing: { ...FAST, ...options.timing },
    network: null,
    random: options.random,
  });
  client.start();
  return client;
}
