import { startServer } from './server';

const running = await startServer();
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
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    running
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        running.deps.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}
