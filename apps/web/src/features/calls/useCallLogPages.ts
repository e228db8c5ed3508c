import { useEffect, useRef, useState } from 'react';
import { useSync } from '../sync/sync-context';

type Status = 'loading' | 'idle' | 'error';
type Page = { nextBefore: string | null };

/**
 * Call history through REST into the cache: the first page on mount (and on Retry), older pages with
 * `more()` while the server says there are some. The screen reads the cache, so it also works offline.
 */
export function useCallLogPages() {
  const client = useSync();
  const [status, setStatus] = useState<Status>('loading');
  const [nextBefore, setNextBefore] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const settle = (load: Promise<Page>) =>
    load.then(
      (page) => {
        if (!mounted.current) return;
        setNextBefore(page.nextBefore);
        setStatus('idle');
      },
      () => {
        if (mounted.current) setStatus('error');
      },
    );

  useEffect(() => {
    void settle(client.loadCallLogs());
  }, [client, attempt]);

  return {
    status,
    hasMore: nextBefore !== null,
    more: () => {
      if (nextBefore === null) return;
      setStatus('loading');
      void settle(client.loadCallLogs(nextBefore));
    },
    retry: () => {
      setStatus('loading');
      setAttempt((n) => n + 1);
    },
  };
}
