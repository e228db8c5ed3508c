import { useEffect, useState } from 'react';
import { hasAnyFilter, randomCountsSchema, type FocusedFilters, type RandomCounts } from '@campus/protocol';
import { useApi } from '../../../lib/ApiContext';

/** The counts endpoint for these filters (none: everyone who could be matched). */
export function countsPath(filters: FocusedFilters | null): string {
  if (!filters || !hasAnyFilter(filters)) return '/api/random/counts';
  return `/api/random/counts?filters=${encodeURIComponent(JSON.stringify(filters))}`;
}

interface Finished {
  path: string;
  counts: RandomCounts | null;
  failed: boolean;
}

/**
 * Real counts of students online now who could be matched (GET /api/random/counts): asked `debounceMs`
 * after the filters last changed (the dialog's chips), and again every `refreshMs` when given. `loading`
 * while the answer for the current filters has not come.
 */
export function useRandomCounts(
  filters: FocusedFilters | null,
  {
    enabled = true,
    debounceMs = 300,
    refreshMs,
  }: { enabled?: boolean; debounceMs?: number; refreshMs?: number } = {},
) {
  const api = useApi();
  const path = countsPath(filters);
  const [finished, setFinished] = useState<Finished | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api.get(path, randomCountsSchema, { signal: abort.signal }).then(
        (counts) => {
          if (!abort.signal.aborted) setFinished({ path, counts, failed: false });
        },
        () => {
          if (!abort.signal.aborted) setFinished({ path, counts: null, failed: true });
        },
      );
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [api, path, enabled, debounceMs, round]);

  useEffect(() => {
    if (!enabled || !refreshMs) return;
    const timer = setInterval(() => setRound((n) => n + 1), refreshMs);
    return () => clearInterval(timer);
  }, [enabled, refreshMs]);

  const current = finished?.path === path ? finished : null;
  return {
    counts: current?.counts ?? null,
    loading: enabled && current === null,
    failed: current?.failed ?? false,
  };
}
