import type { BlockList } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CALL, RANDOM, type VerificationPolicy } from '@campus/protocol';
import { resolveDataDir } from './data-dir';
import { parseTrustedProxies } from './lib/trusted-proxies';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmails: ReadonlySet<string>;
  nodeEnv: 'development' | 'production' | 'test';
  /** Where the built web app lives; served with an SPA fallback when it exists. */
  webDist: string;
  logLevel: string;
  /**
   * DRAIN_TIMEOUT_MS: on SIGTERM or SIGINT the node drains (readiness 503, no new connections, in-flight
   * requests and mutations finish, sockets told to reconnect elsewhere) for at most this long, then stops.
   */
  drainTimeoutMs: number;
  /**
   * Multiplies the auth rate limits. Only for test runs (NODE_ENV=test), where one browser suite signs up
   * many students from one address; production always uses the real limits.
   */
  authRateMultiplier: number;
  /**
   * REALTIME_RATE_MULTIPLIER: multiplies the realtime mutation and typing rate limit (per user). Only for test
   * runs (NODE_ENV=test), where a system test sends thousands of messages in bursts through server processes
   * it spawned (tests/system/support/nodes.ts); production always uses the real limit.
   */
  realtimeRateMultiplier: number;
  /**
   * DEV_MAILBOX=1: serve the dev mailbox even on a non-loopback HOST without SMTP_URL (a trusted LAN demo).
   * Never in production. See lib/mail/mail-policy.ts.
   */
  devMailbox: boolean;
  /**
   * TRUSTED_PROXIES: the load balancers' addresses or CIDR ranges; only their X-Forwarded-For is read, so the
   * per-IP rate limits see students rather than the proxy (lib/trusted-proxies.ts). Unset: the TCP peer.
   */
  trustedProxies: BlockList | undefined;
  /**
   * VERIFICATION_POLICY: 'on' (default) lets only verified students (and not_required accounts) post,
   * comment, react and start chats or groups; 'off' lets every signed-in account do everything (a private
   * deployment). See lib/auth/access.ts.
   */
  verificationPolicy: VerificationPolicy;
  /**
   * TURN_URLS: comma-separated `stun:`, `turn:` or `turns:` URLs handed to the clients for calls
   * (`GET /api/rtc/config`); empty without it (host candidates only, never a third-party STUN server).
   */
  turnUrls: readonly string[];
  /**
   * TURN_SECRET: the shared secret of the TURN server (coturn's `static-auth-secret`): clients get
   * credentials valid for CALL.turnCredentialTtlSeconds. Required when TURN_URLS lists a TURN server.
   */
  turnSecret: string | undefined;
  /** CALL_RING_TIMEOUT_MS: an unanswered call ends as no_answer after this long (CALL.ringTimeoutMs). */
  callRingTimeoutMs: number;
  /**
   * CALL_RECONNECT_GRACE_MS: a party's connection may be down this long before the server ends its call
   * (CALL.reconnectGraceMs).
   */
  callReconnectGraceMs: number;
  /**
   * RANDOM_ROOM_LIMIT_MS: random audio and video rooms end for both after this long (RANDOM.roomLimitSeconds;
   * shorter only for tests).
   */
  randomRoomLimitMs: number;
  /**
   * RANDOM_RECONNECT_GRACE_MS: a random room's student whose connection closed has this long to be back on
   * any connection before the room ends as disconnected for the partner (RANDOM.reconnectGraceMs).
   */
  randomReconnectGraceMs: number;
  /**
   * Random talk's counts under this read 0, so a filter narrowed to one student does not tell whether they
   * are online (3; no variable: tests lower it to check exact counting).
   */
  randomCountFloor: number;
  /**
   * STORAGE: where uploads live (DESIGN.md, Files). 'local' (default) keeps them under DATA_DIR/uploads;
   * 's3' puts them in an S3 bucket (S3_* variables), so several nodes share them.
   */
  storage: StorageConfig;
  /**
   * REDIS_URL: several nodes share live delivery through this Redis (committed changes, typing and other
   * ephemeral frames, session revocation); unset, everything stays in this process (realtime/bus.ts).
   */
  redis: RedisConfig | undefined;
  /**
   * DATABASE_URL: a postgres:// (or postgresql://) URL keeps the data in that PostgreSQL, through pg and
   * Kysely's PostgreSQL dialect (lib/db/postgres.ts), so several nodes share it; unset, SQLite in DATA_DIR.
   * The same numbered migrations run on both, and the realtime engine on either (PgTransactor), for the
   * server and the command-line tools (cli/open-db.ts) alike; group notes store their updates in either.
   */
  database: DatabaseConfig;
}

export type DatabaseConfig =
  | { kind: 'sqlite' }
  | {
      kind: 'postgres';
      url: string;
      /** The schema the tables live in (no variable: tests give each server a throwaway one); `public`. */
      schema?: string;
      /** The pool's size per node (no variable: tests keep it small); pg's default, 10. */
      poolSize?: number;
    };

export interface RedisConfig {
  url: string;
  /** REDIS_PREFIX: the channels' prefix, so deployments (or test runs) sharing one Redis stay apart. */
  prefix: string;
  /**
   * How often a node checks the change log for changes whose Redis message it missed (pub/sub is at most
   * once); also done on every reconnect to Redis. No variable: tests lengthen it.
   */
  gapCheckMs: number;
  /**
   * How often a node checks that the sessions of its sockets still exist, closing those revoked while it
   * missed the revocation's message (Redis down or reconnecting); also done on every reconnect to Redis.
   * No variable: tests shorten it.
   */
  revocationCheckMs: number;
  /**
   * How often the node coordinating calls or random talk asks the others which of their connections it
   * holds are still open (a dead node's students must not stay waiting or in a call). No variable: tests
   * shorten it.
   */
  rollCallMs: number;
}

/** STORAGE=s3: an S3 bucket, or an S3-compatible store's at S3_ENDPOINT (path-style addressing there). */
export interface S3StorageConfig {
  driver: 's3';
  bucket: string;
  region: string;
  /** S3_ENDPOINT: an S3-compatible store's URL; unset for AWS itself. */
  endpoint: string | undefined;
  /** S3_FORCE_PATH_STYLE: `<endpoint>/<bucket>/<key>` URLs; on by default with S3_ENDPOINT. */
  forcePathStyle: boolean;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, both or neither; neither: the AWS SDK's default chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

export type StorageConfig = { driver: 'local' } | S3StorageConfig;

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every setting has a working default so `pnpm start` needs none (DESIGN.md, Server). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const host = env.HOST ?? '127.0.0.1';
  const nodeEnv = env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'development';
  return {
    port,
    host,
    dataDir: resolveDataDir(env.DATA_DIR),
    publicUrl: (env.PUBLIC_URL ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`).replace(
      /\/+$/,
      '',
    ),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Campus Talk <no-reply@campustalk.local>',
    adminEmails: parseEmailList(env.ADMIN_EMAILS),
    nodeEnv,
    // server/src and server/dist both sit two levels below the repository root.
    webDist: path.resolve(env.WEB_DIST ?? path.join(here, '..', '..', 'apps', 'web', 'dist')),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    drainTimeoutMs: parseMs('DRAIN_TIMEOUT_MS', env.DRAIN_TIMEOUT_MS, 10_000),
    authRateMultiplier: nodeEnv === 'test' ? Math.max(1, Number(env.AUTH_RATE_MULTIPLIER) || 1) : 1,
    realtimeRateMultiplier: nodeEnv === 'test' ? Math.max(1, Number(env.REALTIME_RATE_MULTIPLIER) || 1) : 1,
    devMailbox: env.DEV_MAILBOX === '1',
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    verificationPolicy: parsePolicy(env.VERIFICATION_POLICY),
    ...parseTurn(env.TURN_URLS, env.TURN_SECRET),
    callRingTimeoutMs: parseMs('CALL_RING_TIMEOUT_MS', env.CALL_RING_TIMEOUT_MS, CALL.ringTimeoutMs),
    callReconnectGraceMs: parseMs(
      'CALL_RECONNECT_GRACE_MS',
      env.CALL_RECONNECT_GRACE_MS,
      CALL.reconnectGraceMs,
    ),
    randomRoomLimitMs: parseMs(
      'RANDOM_ROOM_LIMIT_MS',
      env.RANDOM_ROOM_LIMIT_MS,
      RANDOM.roomLimitSeconds * 1000,
    ),
    randomReconnectGraceMs: parseMs(
      'RANDOM_RECONNECT_GRACE_MS',
      env.RANDOM_RECONNECT_GRACE_MS,
      RANDOM.reconnectGraceMs,
    ),
    randomCountFloor: 3,
    storage: parseStorage(env),
    redis: parseRedis(env.REDIS_URL, env.REDIS_PREFIX),
    database: parseDatabase(env.DATABASE_URL),
  };
}

function parseDatabase(url: string | undefined): DatabaseConfig {
  if (!url) return { kind: 'sqlite' };
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  // The URL itself may hold a password: the messages never repeat it.
  if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:'))
    throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL (unset for SQLite in DATA_DIR)');
  if (!parsed.hostname && !parsed.searchParams.has('host'))
    throw new Error('DATABASE_URL must name the PostgreSQL host (postgres://user@host:5432/database)');
  return { kind: 'postgres', url };
}

function parseRedis(url: string | undefined, prefix: string | undefined): RedisConfig | undefined {
  if (!url) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:'))
    throw new Error('REDIS_URL must be a redis:// or rediss:// URL');
  const channelPrefix = prefix || 'campus-talk';
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(channelPrefix))
    throw new Error(`REDIS_PREFIX must be 1 to 64 letters, digits, dots, colons, dashes or underscores`);
  return { url, prefix: channelPrefix, gapCheckMs: 1000, revocationCheckMs: 30_000, rollCallMs: 10_000 };
}

function parseStorage(env: NodeJS.ProcessEnv): StorageConfig {
  const driver = env.STORAGE || 'local';
  if (driver === 'local') return { driver: 'local' };
  if (driver !== 's3') throw new Error(`STORAGE must be local or s3, got ${driver}`);
  const bucket = env.S3_BUCKET ?? '';
  if (!bucket) throw new Error('STORAGE=s3 needs S3_BUCKET (the bucket uploads go to)');
  // An S3 bucket name: 3 to 63 lower-case letters, digits, dots and hyphens.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new Error(`S3_BUCKET must be an S3 bucket name, got ${bucket}`);
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(endpoint);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new Error(`S3_ENDPOINT must be an http(s) URL, got ${endpoint}`);
  }
  const region = env.S3_REGION || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region)) throw new Error(`S3_REGION must be a region name, got ${region}`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey)
    throw new Error('set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS default chain)');
  return {
    driver: 's3',
    bucket,
    region,
    endpoint,
    forcePathStyle: parseFlag('S3_FORCE_PATH_STYLE', env.S3_FORCE_PATH_STYLE, endpoint !== undefined),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}

function parseFlag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new Error(`${name} must be true or false (1 or 0), got ${value}`);
}

/** A STUN or TURN server as RTCPeerConnection takes it: scheme, host (or [IPv6]), optional port and transport. */
const ICE_URL =
  /^(stun|turns?):(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(:\d{1,5})?(\?transport=(udp|tcp))?$/;

function parseTurn(
  urls: string | undefined,
  secret: string | undefined,
): Pick<Config, 'turnUrls' | 'turnSecret'> {
  const turnUrls = (urls ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  for (const url of turnUrls) {
    const port = /:(\d+)(\?|$)/.exec(url.replace(/^\w+:/, ''))?.[1];
    if (!ICE_URL.test(url) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535)))
      throw new Error(`TURN_URLS must be comma-separated stun:, turn: or turns: URLs, got ${url}`);
  }
  const turnSecret = secret || undefined;
  // A browser refuses a turn: server without credentials (RTCPeerConnection throws), and TURN servers
  // without authentication are open relays.
  if (!turnSecret && turnUrls.some((url) => !url.startsWith('stun:')))
    throw new Error('TURN_URLS lists a TURN server: set TURN_SECRET (its static-auth-secret)');
  return { turnUrls, turnSecret };
}

function parseMs(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1 || ms > 10 * 60_000)
    throw new Error(`${name} must be a number of milliseconds (1 to 600000), got ${value}`);
  return ms;
}

function parsePolicy(value: string | undefined): VerificationPolicy {
  if (value === undefined || value === '' || value === 'on') return 'on';
  if (value === 'off') return 'off';
  throw new Error(`VERIFICATION_POLICY must be on or off, got ${value}`);
}

export function parseEmailList(value: string | undefined): ReadonlySet<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );
}
