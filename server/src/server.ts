import { CLOSE_CODES } from '@campus/protocol';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { loadConfig, type Config } from './config';
import { createApp } from './app';
import { createFeatures } from './features';
import { openDatabase, migrateToLatest } from './lib/db/database';
import { createLogger } from './lib/logger';
import { DevMailbox } from './lib/mail/dev-mailbox';
import { decideMailPolicy, StartupRefused } from './lib/mail/mail-policy';
import { createSmtpMailer } from './lib/mail/smtp-mailer';
import type { Mailer } from './lib/mail/mailer';
import { DEFAULT_AUTH_RATE_RULES, type AuthRateRules } from './lib/rate-limit';
import { loadOrCreateSecret } from './lib/secret';
import { createLiveSockets } from './lib/auth/live-sockets';
import { deleteExpiredSessions } from './lib/auth/sessions';
import type { AppDeps } from './deps';
import { countUsers } from './modules/users/repo';
import { createRealtimeEngine, type RealtimeEngine } from './realtime/engine';
import type { RealtimeOptions } from './realtime/options';
import { createWebSocketServer } from './realtime/ws-route';
import { createStorage } from './lib/storage';
import { createPushService } from './lib/push/sender';
import { loadOrCreateVapidKeys, vapidSubject } from './lib/push/vapid';
import { createTextRecognizer } from './lib/ocr';

export interface StartOptions {
  config?: Partial<Config>;
  rateRules?: Partial<AuthRateRules>;
  now?: () => number;
  /** Realtime tunables (rate limits, heartbeat timings, page size), e.g. raised by the benchmark. */
  realtime?: Partial<RealtimeOptions>;
}

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  /** The realtime engine behind deps.transactor and deps.realtime (tests read its seq counter). */
  engine: RealtimeEngine;
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
  const { db, sqlite, close } = openDatabase(path.join(config.dataDir, 'campus-talk.sqlite'));
  const applied = await migrateToLatest(db);
  if (applied.length) log.info({ applied }, 'database migrated');

  const devMailbox = mailPolicy.kind === 'dev-mailbox' ? new DevMailbox(log) : undefined;
  const mailer: Mailer =
    mailPolicy.kind === 'smtp'
      ? createSmtpMailer(mailPolicy.smtpUrl, config.mailFrom)
      : (devMailbox ?? refusingMailer());

  const now = options.now ?? Date.now;
  const engine = createRealtimeEngine(sqlite, {
    now,
    realtime: options.realtime,
    onError: (err) => log.error({ err }, 'realtime delivery failed'),
  });
  const deps: AppDeps = {
    config,
    db,
    sqlite,
    transactor: engine.transactor,
    realtime: engine.hub,
    liveSockets: createLiveSockets((err) => log.error({ err }, 'closing a revoked socket failed')),
    storage: createStorage(config.dataDir, now),
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
    now,
  };
  const features = createFeatures(deps);
  const app = createApp(deps, engine, features);
  // One WebSocketServer for every upgrade route (/ws and /notes); Hono routes decide who is upgraded.
  const wss = createWebSocketServer();

  const server: ServerType = await new Promise((resolve) => {
    const s = serve(
      { fetch: app.fetch, port: config.port, hostname: config.host, websocket: { server: wss } },
      () => resolve(s),
    );
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host}:${port}`;

  const sweep = setInterval(() => void deleteExpiredSessions(db, deps.now()).catch(() => {}), 60 * 60 * 1000);
  sweep.unref();

  if ((await countUsers(db)) === 0 && config.nodeEnv !== 'test') {
    log.info('the database is empty: run `pnpm seed` for a demo admin and students');
  }

  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    deps,
    engine,
    stop() {
      stopping ??= (async () => {
        clearInterval(sweep);
        // Batched writes (receipts, coalesced counts) go out while the sockets are still there.
        await features.close();
        // Realtime first: its sockets get a 1001 close before the listener goes.
        engine.close();
        // Other sockets on the shared server (group notes) would hold the listener open.
        for (const socket of wss.clients) socket.close(CLOSE_CODES.shuttingDown);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive sockets would hold close() open; they carry no in-flight work we must wait for.
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
        mailer.close();
        await deps.ocr.close();
        await close();
      })();
      return stopping;
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

function refusingMailer(): Mailer {
  return {
    async send() {
      throw new Error('no mail transport configured (set SMTP_URL)');
    },
    close() {},
  };
}
