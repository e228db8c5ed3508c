import { StartupRefused } from './lib/mail/mail-policy';
import { startServer, type RunningServer } from './server';

/** A refused configuration is the operator's to fix: print what to set, not a stack trace. */
async function start(): Promise<RunningServer> {
  try {
    return await startServer();
  } catch (error) {
    if (!(error instanceof StartupRefused)) throw error;
    console.error(`Campus Talk did not start: ${error.message}`);
    process.exit(1);
  }
}

const running = await start();
running.deps.log.info(
  { url: running.url, publicUrl: running.deps.config.publicUrl },
  'Campus Talk is listening',
);
if (running.deps.devMailbox) running.deps.log.info(`dev mailbox: ${running.url}/dev/mailbox`);

let shuttingDown = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (shuttingDown) return;
    shuttingDown = true;
    running.deps.log.info({ signal }, 'shutting down');
    // The drain is bounded by DRAIN_TIMEOUT_MS; stop() then gets the 10 s it always had.
    const force = setTimeout(() => process.exit(1), running.deps.config.drainTimeoutMs + 10_000);
    force.unref();
    running
      .drain()
      .then(() => running.stop())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        running.deps.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}
