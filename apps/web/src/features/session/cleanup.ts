import { clearSession } from '../../lib/session-storage';

/*
 * Loaded only when a user signs out: importing them here statically would put the sync engine, Dexie and
 * Yjs into the entry chunk that the login screen downloads (they load with the signed-in shell instead).
 */
const deleteUserDatabase = (userId: string) =>
  import('@campus/sync').then((sync) => sync.deleteUserDatabase(userId));
const deleteNotesDatabases = (userId: string) =>
  import('../notes/notes-database').then((notes) => notes.deleteNotesDatabases(userId));

/** A database held open by another tab blocks its deletion; logging out must not wait on that forever. */
const CLEANUP_TIMEOUT_MS = 3000;

function withTimeout(work: Promise<unknown>): Promise<unknown> {
  return Promise.race([work, new Promise((resolve) => setTimeout(resolve, CLEANUP_TIMEOUT_MS))]);
}

/**
 * Ends this browser's push subscription first: unregistering takes effect only once no page is controlled
 * by the worker, and a signed-out tab left open would otherwise keep showing the user's notifications to
 * whoever sits down next (the push service drops the endpoint, so the server's next push finds it gone).
 */
async function unregisterServiceWorkers(): Promise<void> {
  const container = navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!container?.getRegistrations) return;
  const registrations = await container.getRegistrations();
  await Promise.all(
    registrations.map(async (registration) => {
      const subscription = await registration.pushManager?.getSubscription().catch(() => null);
      await subscription?.unsubscribe().catch(() => false);
      await registration.unregister();
    }),
  );
}

/**
 * Everything a signed-out browser must not keep: the stored session, background workers (they hold push
 * subscriptions for this user) and the user's local database.
 */
export async function clearLocalData(userId: string | undefined): Promise<void> {
  clearSession();
  await Promise.allSettled([
    withTimeout(unregisterServiceWorkers()),
    userId ? withTimeout(deleteUserDatabase(userId)) : Promise.resolve(),
    userId ? withTimeout(deleteNotesDatabases(userId)) : Promise.resolve(),
  ]);
}
