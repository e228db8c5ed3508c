import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { CONFESSIONS, type Confession } from '@campus/protocol';

/**
 * The search for a linked confession pages through the feed until it ends or this many pages (1000
 * confessions) are loaded: 100 requests leave most of the server's 240 feed pages a minute for scrolling.
 */
const MAX_PAGES_TO_FIND = 100;

interface FeedView {
  items: Confession[];
  page: number;
  hasMore: boolean;
  loading: boolean;
  offline: boolean;
  error: string | null;
  loadMore(): Promise<void>;
}

/**
 * ?confessionId=…: loads pages until that card is there, scrolls to it and highlights it for 3 s. Each
 * navigation counts on its own (the location key), so opening the same link again highlights it again.
 * `missing`: the whole feed is loaded and the confession is not in it.
 */
export function useHighlight(targetId: string | null, feed: FeedView) {
  const navigation = useLocation().key;
  // The navigation whose highlight has run its 3 s.
  const [expired, setExpired] = useState<string | null>(null);
  const { items, page, hasMore, loading, offline, error, loadMore } = feed;
  const found = targetId !== null && items.some((item) => item.id === targetId);
  const highlighted = found && expired !== navigation ? targetId : null;
  const settled = targetId !== null && !found && !loading && !offline && !error && page > 0;
  const searching = settled && hasMore && page < MAX_PAGES_TO_FIND;
  const missing = settled && !searching;

  useEffect(() => {
    if (searching) void loadMore();
  }, [searching, page, loadMore]);

  useEffect(() => {
    if (!highlighted) return;
    const card = document.getElementById(`confession-${highlighted}`);
    if (typeof card?.scrollIntoView === 'function')
      card.scrollIntoView({ block: 'center', behavior: 'smooth' });
    card?.focus({ preventScroll: true });
    const timer = setTimeout(() => setExpired(navigation), CONFESSIONS.highlightMs);
    return () => clearTimeout(timer);
  }, [highlighted, navigation]);

  return { highlighted, missing };
}
