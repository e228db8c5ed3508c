import { useEffect, useState } from 'react';
import { liveQuery } from 'dexie';

/**
 * `useLiveQuery` for this app: the querier's result, re-read whenever the tables it read change, undefined
 * until the first read for these `deps`.
 *
 * Only the newest read counts. Dexie's liveQuery (4.4.7) runs its querier again on each change; a run that
 * finishes while other Dexie work is in flight hands its result over on a timer, and that timer does not ask
 * whether a later run has superseded it. The later run's rows can then arrive first and the stale ones
 * replace them (a notification just cached vanished from the panel that way). Each run is numbered as it
 * starts, and a result older than the one shown is dropped. A result read for other `deps` is never shown
 * (no previous chat's messages for a frame after switching chats).
 */
export function useLiveRows<T>(querier: () => Promise<T> | T, deps: readonly unknown[]): T | undefined {
  const [shown, setShown] = useState<{ deps: readonly unknown[]; value: T }>();

  useEffect(() => {
    let started = 0;
    let latest = 0;
    const subscription = liveQuery(async () => {
      const run = ++started;
      return { run, value: await querier() };
    }).subscribe({
      next: ({ run, value }) => {
        if (run < latest) return;
        latest = run;
        setShown({ deps, value });
      },
      error: (error: unknown) => console.warn('A live query failed', error),
    });
    return () => subscription.unsubscribe();
    // The caller's deps decide when the querier changes, as with useLiveQuery.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  return shown && sameDeps(shown.deps, deps) ? shown.value : undefined;
}

function sameDeps(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
}
