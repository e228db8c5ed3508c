import { useCallback, useEffect, useState } from 'react';
import { useSync } from '../sync/sync-context';

export type LoadStatus = 'loading' | 'ready' | 'error';

/**
 * Friends, requests and blocks refreshed from the server into the cache once per mount, and again on Retry.
 * The screens render the cache; this only says whether the refresh is running or failed.
 */
export function useFriendsLoad(): { status: LoadStatus; retry(): void } {
  const client = useSync();
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState<LoadStatus>('loading');

  useEffect(() => {
    let live = true;
    client.loadFriends().then(
      () => live && setStatus('ready'),
      () => live && setStatus('error'),
    );
    return () => {
      live = false;
    };
  }, [client, attempt]);

  // 'loading' is set here rather than in the effect: the first run starts from it already.
  const retry = useCallback(() => {
    setStatus('loading');
    setAttempt((n) => n + 1);
  }, []);
  return { status, retry };
}
