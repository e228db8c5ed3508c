import type SQLite from 'better-sqlite3';
import type { Config } from './config';
import type { LiveSockets } from './lib/auth/live-sockets';
import type { DB } from './lib/db/database';
import type { Logger } from './lib/logger';
import type { DevMailbox } from './lib/mail/dev-mailbox';
import type { Mailer } from './lib/mail/mailer';
import type { AuthRateRules } from './lib/rate-limit';
import type { RealtimeHub } from './realtime/hub';
import type { Transactor } from './realtime/transaction';
import type { Storage } from './lib/storage';
import type { PushService } from './lib/push/sender';
import type { TextRecognizer } from './lib/ocr/types';

/** Everything a feature needs from the outside world, passed in so tests can start a real server on temp data. */
export interface AppDeps {
  config: Config;
  db: DB;
  /** The raw better-sqlite3 handle: synchronous prepared statements for the realtime hot path. */
  sqlite: SQLite.Database;
  /**
   * Every synced write: `await deps.transactor.commit(async (tx) => { …; tx.emit(change, audiences) })`. Changes
   * are appended to the change log in the transaction and pushed to live connections after it commits.
   */
  transactor: Transactor;
  /** The live side: who is online, ephemeral frames (typing, presence). */
  realtime: RealtimeHub;
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
  /** The clock; tests move it to expire codes and sessions. */
  now: () => number;
}
