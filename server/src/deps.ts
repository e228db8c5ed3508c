import type SQLite from 'better-sqlite3';
import type { Config } from './config';
import type { LiveSockets } from './lib/auth/live-sockets';
import type { DB } from './lib/db/database';
import type { Logger } from './lib/logger';
import type { DevMailbox } from './lib/mail/dev-mailbox';
import type { Mailer } from './lib/mail/mailer';
import type { AuthRateRules } from './lib/rate-limit';
import type { Rates } from './lib/rates';
import type { RealtimeHub } from './realtime/hub';
import type { RedisLink } from './realtime/redis-bus';
import type { Transactor } from './realtime/transaction';
import type { Storage } from './lib/storage';
import type { PushService } from './lib/push/sender';
import type { TextRecognizer } from './lib/ocr/types';

export interface DatabaseState {
  readonly kind: 'sqlite' | 'postgres';
  readonly open: boolean;
}

/** AppDeps on SQLite, with its raw handle (test helpers that poke SQLite directly take this). */
export type SqliteAppDeps = AppDeps & { sqlite: SQLite.Database };

/** Everything a feature needs from the outside world, passed in so tests can start a real server on temp data. */
export interface AppDeps {
  config: Config;
  db: DB;
  /**
   * The raw better-sqlite3 handle on SQLite (group notes' statements, notes/sqlite-store.ts); undefined with
   * DATABASE_URL (PostgreSQL). Features write through `transactor` and read through `db`, on either.
   */
  sqlite?: SQLite.Database;
  /** Which database holds the data, and whether it is still open (work left after a stop reads nothing). */
  database: DatabaseState;
  /**
   * Every synced write: `await deps.transactor.commit(async (tx) => { …; tx.emit(change, audiences) })`. Changes
   * are appended to the change log in the transaction and pushed to live connections after it commits.
   */
  transactor: Transactor;
  /** The live side: who is online, ephemeral frames (typing, presence). */
  realtime: RealtimeHub;
  /**
   * REDIS_URL's connections, shared by the nodes of one deployment (state that must be one for all of them:
   * random talk's queues, the calls); undefined on a single node.
   */
  redis?: RedisLink;
  /** Live sockets by session and user, so revoking a session closes them (realtime and notes alike). */
  liveSockets: LiveSockets;
  /** Uploaded files (local disk under DATA_DIR/uploads, signed download URLs). */
  storage: Storage;
  /** Web push (VAPID) to users without a live connection. */
  push: PushService;
  /** Text recognition of student-ID cards (tesseract.js pool, started on the first image). */
  ocr: TextRecognizer;
  log: Logger;
  mailer: Mailer;
  /** Set when mail goes to the development mailbox instead of SMTP. */
  devMailbox: DevMailbox | undefined;
  /** Keys one-time-code hashes. */
  secret: Buffer;
  rateRules: AuthRateRules;
  /** Every rate limit by name: this process's counts, or every node's through REDIS_URL (lib/rates.ts). */
  rates: Rates;
  /** The clock; tests move it to expire codes and sessions. */
  now: () => number;
}
