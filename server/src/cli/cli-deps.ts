import type { Config } from '../config';
import type { DB } from '../lib/db/database';
import type SQLite from 'better-sqlite3';
import type { SqliteAppDeps } from '../deps';
import { createLiveSockets } from '../lib/auth/live-sockets';
import { createLogger } from '../lib/logger';
import { DEFAULT_AUTH_RATE_RULES } from '../lib/rate-limit';
import { Rates } from '../lib/rates';
import { loadOrCreateSecret } from '../lib/secret';
import { createStorage } from '../lib/storage';
import { disabledPushService } from '../lib/push/sender';
import { disabledTextRecognizer } from '../lib/ocr';
import { createRealtimeEngine } from '../realtime/engine';

/**
 * The server's dependencies for a one-off command, so it writes through the same code paths as the server
 * (chat writes append to the change log, which clients sync from). Nothing is listening: no one to push to,
 * and no mail goes out.
 */
export function cliDeps(
  opened: { db: DB; sqlite: SQLite.Database; config: Config },
  now: () => number,
): SqliteAppDeps {
  const engine = createRealtimeEngine(opened.sqlite, { now });
  return {
    config: opened.config,
    db: opened.db,
    sqlite: opened.sqlite,
    database: {
      kind: 'sqlite',
      get open() {
        return opened.sqlite.open;
      },
    },
    transactor: engine.transactor,
    realtime: engine.hub,
    // Nothing is listening here, so a revocation has no socket to close.
    liveSockets: createLiveSockets(() => undefined),
    storage: createStorage(opened.config, now),
    push: disabledPushService(),
    ocr: disabledTextRecognizer(),
    log: createLogger('silent'),
    mailer: {
      async send() {
        throw new Error('command-line tools do not send mail');
      },
      close() {},
    },
    devMailbox: undefined,
    secret: loadOrCreateSecret(opened.config.dataDir, 'otp'),
    rateRules: DEFAULT_AUTH_RATE_RULES,
    rates: new Rates(now),
    now,
  };
}
