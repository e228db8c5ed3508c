import { useCallback, useEffect, useRef, useState } from 'react';
import type { DirectoryEntry } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { fetchUsers, usersErrorText } from './users-api';

/** Typing pauses this long before the directory is asked, so a name is one request, not one per letter. */
const SEARCH_DEBOUNCE_MS = 250;

export type DirectorySearch =
  | { kind: 'loading' }
  | { kind: 'done'; users: DirectoryEntry[]; hasMore: boolean; loadingMore: boolean }
  | { kind: 'error'; message: string };

/** The spec's two texts for a users list: the server refused, or could not be asked. */
export interface DirectoryErrorTexts {
  http: string;
  other: string;
}

/**
 * The student directory as the server pages it, searched on the server: it holds no e-mail addresses, and
 * finds one only when typed whole. `loadMore` appends the next page.
 */
export function useDirectorySearch(
  selfId: string,
  query: string,
  texts: DirectoryErrorTexts,
): { state: DirectorySearch; loadMore(): void } {
  const api = useApi();
  const [state, setState] = useState<DirectorySearch>({ kind: 'loading' });
  const next = useRef<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const { http, other } = texts;

  const fail = useCallback(
    (error: unknown, signal: AbortSignal) => {
      if (!signal.aborted) setState({ kind: 'error', message: usersErrorText(error, http, other) });
    },
    [http, other],
  );

  useEffect(() => {
    const current = new AbortController();
    controller.current = current;
    const timer = setTimeout(() => {
      setState({ kind: 'loading' });
      fetchUsers(api, selfId, query, current.signal).then(
        (page) => {
          next.current = page.next;
          setState({ kind: 'done', users: page.users, hasMore: page.next !== null, loadingMore: false });
        },
        (error: unknown) => fail(error, current.signal),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      current.abort();
    };
  }, [api, selfId, query, fail]);

  const loadMore = useCallback(() => {
    const after = next.current;
    const signal = controller.current?.signal;
    if (!after || !signal) return;
    next.current = null; // one request per page, however often the button is pressed
    setState((s) => (s.kind === 'done' ? { ...s, loadingMore: true } : s));
    fetchUsers(api, selfId, query, signal, after).then(
      (page) => {
        next.current = page.next;
        setState((s) =>
          s.kind === 'done'
            ? {
                kind: 'done',
                users: [...s.users, ...page.users],
                hasMore: page.next !== null,
                loadingMore: false,
              }
            : s,
        );
      },
      (error: unknown) => fail(error, signal),
    );
  }, [api, selfId, query, fail]);

  return { state, loadMore };
}
