import type SQLite from 'better-sqlite3';
import type { Config } from '../config';
import type { LiveSockets } from './auth/live-sockets';
import type { DB } from './db/database';
import type { Logger } from './logger';
import type { DevMailbox } from './mail/dev-mailbox';
import type { Mailer } from './mail/mailer';
import type { AuthRateRules } from './rate-limit';
import type { RealtimeHub } from '../realtime/hub';
import type { Storage } from './storage';
import type { PushService } from './push/sender';

/** Everything a feature needs from the outside world, passed in so tests can start a real server on temp data. */
export interface AppDeps {
  config: Config;
  db: DB;
  /** The raw better-sqlite3 handle: synchronous prepared statements for the realtime hot path. */
  sqlite: SQLite.Database;
  /** The change log and live fan-out; every synced write goes through `realtime.commit`. */
  realtime: RealtimeHub;
  /** Live sockets by session and user, so revoking a session closes them (realtime and notes alike). */
  liveSockets: LiveSockets;
  /** Uploaded files (local disk under DATA_DIR/uploads, signed download URLs). */
  storage: Storage;
  /** Web push (VAPID) to users without a live connection. */
  push: PushService;
  log: Logger;
  mailer: Mailer;
  /** Set when mail goes to the development mailbox instead of SMTP. */
  devMailbox: DevMailbox | undefined;
  /** Keys one-time-code hashes. */
  secret: Buffer;
  rateRules: AuthRateRules;
  /** The clock; tests move it to expire codes and sessions. */
  now: () => number;
}
