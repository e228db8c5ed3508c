import { CLOSE_CODES } from '@campus/protocol';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import { loadConfig, type Config } from './config';
import { createApp } from './app';
import { createFeatures } from './features';
import { openDatabase, migrateToLatest, type DB } from './lib/db/database';
import { NodeLifecycle } from './lib/lifecycle';
import { createLogger, type Logger } from './lib/logger';
import { DevMailbox } from './lib/mail/dev-mailbox';
import { decideMailPolicy, StartupRefused } from './lib/mail/mail-policy';
import type { Mailer } from './lib/mail/mailer';
import { DEFAULT_AUTH_RATE_RULES, type AuthRateRules } from './lib/rate-limit';
import { Rates } from './lib/rates';
import { RedisRates } from './lib/redis-rates';
import { loadOrCreateSecret } from './lib/secret';
import { createLiveSockets } from './lib/auth/live-sockets';
import { deleteExpiredSessions } from './lib/auth/sessions';
import type { AppDeps, DatabaseState } from './deps';
import { readinessChecks } from './modules/health/routes';
import { notesWritesSettled } from './modules/notes/doc-loader';
import { countUsers } from './modules/users/repo';
import {
  createPostgresEngine,
  createRealtimeEngine,
  type EngineOptions,
  type RealtimeEngine,
} from './realtime/engine';
import type { EngineTransactor } from './realtime/engine-transactor';
import { connectRedis, redisLiveSockets, type RedisLink } from './realtime/redis-bus';
import { DEFAULT_REALTIME_OPTIONS, type RealtimeOptions } from './realtime/options';
import { createWebSocketServer, realtimeSockets, routeUpgrades } from './realtime/ws-route';
import { openStorage } from './lib/storage';
import { deploymentClock, type DeploymentClock } from './lib/deployment-clock';
import { createPushService } from './lib/push/sender';
import { loadOrCreateVapidKeys, vapidSubject } from './lib/push/vapid';
import { createTextRecognizer } from './lib/ocr';

export interface StartOptions {
  config?: Partial<Config>;
  rateRules?: Partial<AuthRateRules>;
  now?: () => number;
  /**
   * This node's own clock (Date.now by default), which the deployment clock corrects with REDIS_URL
   * (lib/deployment-clock.ts); tests skew it. `now` replaces both.
   */
  localNow?: () => number;
  /** Realtime tunables (rate limits, heartbeat timings, page size), e.g. raised by the benchmark. */
  realtime?: Partial<RealtimeOptions>;
}

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** The realtime engine behind deps.transactor and deps.realtime (tests read its seq counter). */
  engine: RealtimeEngine;
  /** REDIS_URL's connections (tests drop messages through its subscriber); undefined without it. */
  redis: RedisLink | undefined;
  /**
   * The first half of a graceful shutdown (SIGTERM): /readyz answers 503 at once, the listener closes (no
   * new connections; upgrades still arriving on open ones get 503), in-flight requests and mutations finish
   * and are answered, then every socket closes with 1012 so its client reconnects to another node. Resolves
   * when every connection is gone or after `timeoutMs` (DRAIN_TIMEOUT_MS by default), whichever is first;
   * stop() comes next.
   */
  drain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Opens the database, migrates, and listens. Used by main.ts and by the integration tests alike. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config: Config = { ...loadConfig(), ...options.config };
  const log = createLogger(config.logLevel);
  // Decided before anything opens: an unsafe mail setup must not leave a half-started server behind.
  const mailPolicy = decideMailPolicy(config);
  if (mailPolicy.kind === 'refuse') throw new StartupRefused(mailPolicy.message);
  if (mailPolicy.kind !== 'smtp' && mailPolicy.warning) log.warn(mailPolicy.warning);
  // The engine's transactor is made after the database: Kysely asks it late whether a commit is running.
  const late: { transactor?: EngineTransactor } = {};
  const store = await openStore(config, log, () => late.transactor?.insideTransaction === true);
  const { db, close } = store;
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) log.info({ applied }, 'database migrated');
  } catch (err) {
    await close();
    throw err;
  }

  const devMailbox = mailPolicy.kind === 'dev-mailbox' ? new DevMailbox(log) : undefined;
  // nodemailer is imported only where SMTP_URL is set (server/build.mjs splits it out).
  const mailer: Mailer =
    mailPolicy.kind === 'smtp'
      ? (await import('./lib/mail/smtp-mailer')).createSmtpMailer(mailPolicy.smtpUrl, config.mailFrom)
      : (devMailbox ?? refusingMailer());

  let redis: RedisLink | undefined;
  let clock: DeploymentClock | undefined;
  if (config.redis) {
    try {
      redis = await connectRedis(config.redis, log);
      // Deadlines the coordinators keep in Redis are read by whichever node takes over: one clock for all.
      if (!options.now) clock = await deploymentClock(redis.client, log, options.localNow);
    } catch (err) {
      await redis?.close();
      await close();
      throw err;
    }
  }
  const now = options.now ?? clock?.now ?? options.localNow ?? Date.now;
  const engineOptions: EngineOptions = {
    now,
    realtime: { ...scaleRealtimeRates(config.realtimeRateMultiplier), ...options.realtime },
    onError: (err) => log.error({ err }, 'realtime delivery failed'),
    redis: redis &&
      config.redis && { link: redis, gapCheckMs: config.redis.gapCheckMs, prefix: config.redis.prefix, log },
  };
  let engine: RealtimeEngine;
  try {
    engine =
      store.kind === 'sqlite'
        ? createRealtimeEngine(store.sqlite, engineOptions)
        : await createPostgresEngine(store.pool, engineOptions);
  } catch (err) {
    clock?.close();
    await redis?.close();
    await close();
    throw err;
  }
  late.transactor = engine.transactor;
  const onRevokeError = (err: unknown) => log.error({ err }, 'closing a revoked socket failed');
  const liveSockets =
    redis && config.redis
      ? redisLiveSockets(redis, {
          existing: async (ids) =>
            new Set(
              (await db.selectFrom('sessions').select('id').where('id', 'in', ids).execute()).map(
                (r) => r.id,
              ),
            ),
          checkEveryMs: config.redis.revocationCheckMs,
          onError: onRevokeError,
          onCheckError: (err) => log.error({ err }, 'checking live sockets for revoked sessions failed'),
        })
      : createLiveSockets(onRevokeError);
  const deps: AppDeps = {
    config,
    db,
    sqlite: store.kind === 'sqlite' ? store.sqlite : undefined,
    database: store.state,
    transactor: engine.transactor,
    realtime: engine.hub,
    redis,
    liveSockets,
    storage: await openStorage(config, now),
    push: createPushService({
      vapid: loadOrCreateVapidKeys(config.dataDir),
      subject: vapidSubject(config.mailFrom),
      log,
      // Only tests run their own push service; anywhere else an endpoint must be a browser's push service.
      allowLocalEndpoints: config.nodeEnv === 'test',
    }),
    ocr: createTextRecognizer({ langDir: path.join(config.dataDir, 'tessdata'), log }),
    log,
    mailer,
    devMailbox,
    secret: loadOrCreateSecret(config.dataDir, 'otp'),
    rateRules: scaleRateRules(
      { ...DEFAULT_AUTH_RATE_RULES, ...options.rateRules },
      config.authRateMultiplier,
    ),
    // With REDIS_URL every limit counts across the nodes (on the command connection, offline queue off).
    rates: new Rates(now, redis && config.redis && new RedisRates(redis.client, config.redis.prefix, log)),
    now,
  };
  const features = createFeatures(deps);
  const lifecycle = new NodeLifecycle(readinessChecks(deps, redis));
  const app = createApp(deps, lifecycle);
  const acceptRealtime = realtimeSockets(deps, engine, features);
  // One WebSocketServer for every upgrade (/ws and /notes): /ws goes to it directly, the others through
  // their Hono routes, which decide who is upgraded.
  const wss = createWebSocketServer();

  const server: ServerType = createAdaptorServer({
    fetch: app.fetch,
    hostname: config.host,
    websocket: { server: wss },
  });
  routeUpgrades(server, wss, lifecycle, acceptRealtime);
  // A deeper accept queue than Node's 511 (the kernel caps it at net.core.somaxconn): thousands of clients
  // reconnecting at once (a restart, a network blip) would otherwise overflow it, and each dropped SYN waits
  // out a retransmit of 1, 3, 7… s (bench/reconnect-storm.ts).
  await new Promise<void>((resolve) =>
    server.listen({ port: config.port, host: config.host, backlog: 8192 }, resolve),
  );
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host}:${port}`;

  const sweep = setInterval(() => void deleteExpiredSessions(db, deps.now()).catch(() => {}), 60 * 60 * 1000);
  sweep.unref();

  if ((await countUsers(db)) === 0 && config.nodeEnv !== 'test') {
    log.info('the database is empty: run `pnpm seed` for a demo admin and students');
  }

  /** The listener closes once; resolves when every connection (HTTP and WebSocket alike) has ended. */
  let listenerClosed: Promise<void> | undefined;
  const closeListener = () =>
    (listenerClosed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
    }));

  let draining: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    deps,
    engine,
    redis,
    drain(timeoutMs = config.drainTimeoutMs) {
      draining ??= (async () => {
        lifecycle.startDraining();
        log.info({ timeoutMs }, 'draining');
        const started = Date.now();
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), timeoutMs);
          timer.unref();
        });
        const within = <T>(work: Promise<T>) => Promise.race([work, deadline]);
        // No new connections; Node closes the idle keep-alive ones, the busy ones end with their answer.
        const closed = closeListener();
        // Requests being handled finish (their changes reach the sockets, which are still open)…
        await within(lifecycle.requestsDone());
        // …then mutations received so far commit and are acknowledged, and /ws sockets get 1012,
        await within(engine.drain());
        // …and so do the other sockets (group notes: y-websocket reconnects on any code).
        for (const socket of wss.clients) socket.close(CLOSE_CODES.serviceRestart, 'server restarting');
        const outcome = await within(closed);
        clearTimeout(timer);
        // Past the deadline nothing more is waited for: stop() cuts what is left.
        if (outcome === 'timeout') {
          log.warn({ timeoutMs, sockets: wss.clients.size }, 'drain timed out');
          for (const socket of wss.clients) socket.terminate();
        } else log.info({ ms: Date.now() - started }, 'drained');
      })();
      return draining;
    },
    stop() {
      stopping ??= (async () => {
        clearInterval(sweep);
        // Batched writes (receipts, coalesced counts) go out while the sockets are still there.
        await features.close();
        // Realtime first: its sockets get a 1001 close before the listener goes.
        engine.close();
        // Other sockets on the shared server (group notes) would hold the listener open.
        for (const socket of wss.clients) socket.close(CLOSE_CODES.shuttingDown);
        const closed = closeListener();
        // Keep-alive sockets would hold close() open; they carry no in-flight work we must wait for.
        if ('closeAllConnections' in server) server.closeAllConnections();
        await closed;
        // Group notes whose last socket just closed finish storing and compacting before the database closes.
        await notesWritesSettled();
        clock?.close();
        if ('close' in liveSockets) liveSockets.close();
        await redis?.close();
        mailer.close();
        await deps.ocr.close();
        await close();
      })();
      return stopping;
    },
  };
}

type OpenedStore = { db: DB; state: DatabaseState; close(): Promise<void> } & (
  { kind: 'sqlite'; sqlite: SQLite.Database } | { kind: 'postgres'; pool: pg.Pool }
);

/**
 * SQLite in DATA_DIR (its WAL checkpoints in a worker thread, lib/db/checkpointer.ts), or DATABASE_URL's
 * PostgreSQL (`insideCommit`: Kysely refuses to run inside a realtime commit there, as the SQLite handle's
 * write lock makes it on SQLite).
 */
async function openStore(config: Config, log: Logger, insideCommit: () => boolean): Promise<OpenedStore> {
  const { database } = config;
  if (database.kind === 'sqlite') {
    const opened = openDatabase(path.join(config.dataDir, 'campus-talk.sqlite'), { checkpointer: { log } });
    const { sqlite } = opened;
    return {
      kind: 'sqlite',
      ...opened,
      state: {
        kind: 'sqlite',
        get open() {
          return sqlite.open;
        },
      },
    };
  }
  // pg is imported only on PostgreSQL (server/build.mjs splits it out of a SQLite node's startup).
  const { openPostgres } = await import('./lib/db/postgres');
  const opened = openPostgres(database.url, {
    schema: database.schema,
    max: database.poolSize,
    insideCommit,
  });
  let open = true;
  return {
    kind: 'postgres',
    db: opened.db,
    pool: opened.pool,
    state: {
      kind: 'postgres',
      get open() {
        return open;
      },
    },
    close() {
      open = false;
      return opened.close();
    },
  };
}

function scaleRateRules(rules: AuthRateRules, multiplier: number): AuthRateRules {
  if (multiplier === 1) return rules;
  const scaled = { ...rules };
  for (const key of Object.keys(scaled) as (keyof AuthRateRules)[]) {
    const rule = scaled[key];
    // The login delay is a wait, not a count: the same for every run.
    if (key !== 'loginDelayPerEmail' && 'limit' in rule)
      scaled[key] = { ...rule, limit: rule.limit * multiplier };
  }
  return scaled;
}

/** REALTIME_RATE_MULTIPLIER (test runs only): the per-user mutation rate limit, raised. */
function scaleRealtimeRates(multiplier: number): Partial<RealtimeOptions> {
  if (multiplier === 1) return {};
  const { ratePerSecond, rateBurst } = DEFAULT_REALTIME_OPTIONS;
  return { ratePerSecond: ratePerSecond * multiplier, rateBurst: rateBurst * multiplier };
}

function refusingMailer(): Mailer {
  return {
    async send() {
      throw new Error('no mail transport configured (set SMTP_URL)');
    },
    close() {},
  };
}
