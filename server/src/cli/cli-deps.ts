import type { AppDeps } from '../deps';
import { createLiveSockets } from '../lib/auth/live-sockets';
import { createLogger } from '../lib/logger';
import { DEFAULT_AUTH_RATE_RULES } from '../lib/rate-limit';
import { Rates } from '../lib/rates';
import { loadOrCreateSecret } from '../lib/secret';
import { createStorage } from '../lib/storage';
import { disabledPushService } from '../lib/push/sender';
import { disabledTextRecognizer } from '../lib/ocr';
import { createPostgresEngine, createRealtimeEngine } from '../realtime/engine';
import type { OpenedCliDatabase } from './open-db';

/**
 * The server's dependencies for a one-off command, so it writes through the same code paths and the same
 * engine as the server, on SQLite or PostgreSQL (chat writes append to the change log, which clients sync
 * from; a server running beside it adopts the entries with its next commit). Nothing is listening: no one
 * to push to, and no mail goes out. `deps.realtime.close()` stops the engine's timers when done.
 */
export async function cliDeps(opened: OpenedCliDatabase, now: () => number): Promise<AppDeps> {
  const { store, config } = opened;
  const engine =
    store.kind === 'sqlite'
      ? createRealtimeEngine(store.sqlite, { now })
      : await createPostgresEngine(store.pool, { now });
  opened.guard(engine.transactor);
  return {
    config,
    db: opened.db,
    sqlite: store.kind === 'sqlite' ? store.sqlite : undefined,
    database: opened.state,
    transactor: engine.transactor,
    realtime: engine.hub,
    // Nothing is listening here, so a revocation has no socket to close.
    liveSockets: createLiveSockets(() => undefined),
    storage: await createStorage(config, now),
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
    secret: loadOrCreateSecret(config.dataDir, 'otp'),
    rateRules: DEFAULT_AUTH_RATE_RULES,
    rates: new Rates(now),
    now,
  };
}
