import type { SyncClient } from '@campus/sync';

/** A client that does not stop in time must not hold the logout (and the database deletion) forever. */
const STOP_TIMEOUT_MS = 3000;

const running = new Set<SyncClient>();

/**
 * SyncProvider registers the client it started, so the session can stop it before deleting its database.
 * The returned function untracks it and says whether it was still running (not already stopped by logout).
 */
export function trackClient(client: SyncClient): () => boolean {
  running.add(client);
  return () => running.delete(client);
}

/**
 * Stops every running sync client. Logging out deletes the user's database; a client still running would
 * keep writing to it, or open it again, and leave the data behind.
 */
export async function stopRunningClients(): Promise<void> {
  const clients = [...running];
  running.clear();
  await Promise.allSettled(
    clients.map((client) =>
      Promise.race([client.stop(), new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS))]),
    ),
  );
}
