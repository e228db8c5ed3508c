import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';
import type { Logger } from '../logger';

/** SQLite's own default: the threshold the handle falls back to if the checkpointer thread is lost. */
export const INLINE_CHECKPOINT_PAGES = 1000;
/**
 * With the checkpointer running, the handle still checkpoints by itself past this many WAL pages (40 MB of
 * 4 KB pages): a safety valve for a checkpointer that cannot keep up, never reached while it does.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/** How long stop() waits for the thread's checkpoint to end before it ends the thread. */
const STOP_TIMEOUT_MS = 5000;

export interface CheckpointerOptions {
  log: Pick<Logger, 'warn'>;
  /** How soon the next checkpoint runs after one that found pages to copy (ms). */
  busyMs?: number;
  /** The longest wait between checkpoints when nothing was committed (ms). */
  idleMs?: number;
}

export interface Checkpointer {
  /** Stops the thread after the checkpoint it may be running; the handle checkpoints by itself again. */
  stop(): Promise<void>;
  /** The thread, for tests. */
  readonly worker: Worker;
}

/**
 * Moves the WAL checkpoints of the database file behind `sqlite` off the event loop, into a worker thread
 * with its own connection (checkpoint-worker.cjs says why). The handle's automatic checkpoint is raised to a
 * backstop meanwhile, and put back to SQLite's default when the thread stops or is lost, so the WAL never
 * grows without bound.
 */
export function startCheckpointer(
  sqlite: SQLite.Database,
  file: string,
  { log, busyMs = 250, idleMs = 1000 }: CheckpointerOptions,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(new URL('./checkpoint-worker.cjs', import.meta.url), {
    workerData: { file, driver, busyMs, idleMs },
    // Plain CommonJS: none of the process's --import hooks (tsx in development, the bench's probes, which
    // would time this thread's statements into the server's own report).
    execArgv: [],
    // Its own connection and a few statements: a small heap is plenty.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  // A stop asked for, or a failure already reported: the exit itself says nothing more.
  let quiet = false;
  const inline = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
  };
  worker.on('message', (message: { type?: unknown; message?: unknown }) => {
    if (message.type === 'failed')
      log.warn({ error: String(message.message) }, 'WAL checkpoint failed; it is tried again');
  });
  worker.on('error', (err) => {
    quiet = true;
    log.warn({ err }, 'the WAL checkpointer failed; checkpoints run inline');
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      inline();
      if (!quiet) log.warn('the WAL checkpointer exited; checkpoints run inline');
      resolve();
    }),
  );
  // Never what keeps the process alive. After the listeners: a 'message' listener refs the thread again.
  worker.unref();
  return {
    worker,
    async stop() {
      quiet = true;
      worker.postMessage('stop');
      // A checkpoint stuck on a disk that stopped answering must not hold a shutdown forever.
      const stuck = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(stuck);
    },
  };
}
