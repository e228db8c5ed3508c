import { useEffect, useState } from 'react';
import { CONFESSIONS, type Confession } from '@campus/protocol';

/** Pages loaded while looking for a linked confession before giving up. */
const MAX_PAGES_TO_FIND = 5;

/**
 * ?confessionId=…: loads pages until that card is there (up to a few), scrolls to it and highlights it for
 * 3 s. Returns the id to highlight, or null.
 */
export function useHighlight(
  targetId: string | null,
  feed: { items: Confession[]; page: number; hasMore: boolean; loading: boolean; loadMore(): Promise<void> },
) {
  const [expired, setExpired] = useState<string | null>(null);
  const { items, page, hasMore, loading, loadMore } = feed;
  const found = targetId !== null && items.some((item) => item.id === targetId);
  const highlighted = found && expired !== targetId ? targetId : null;

  useEffect(() => {
    if (!targetId || found || loading || !hasMore || page === 0 || page >= MAX_PAGES_TO_FIND) return;
    void loadMore();
  }, [targetId, found, page, hasMore, loading, loadMore]);

  useEffect(() => {
    if (!highlighted) return;
    const card = document.getElementById(`confession-${highlighted}`);
    if (typeof card?.scrollIntoView === 'function')
      card.scrollIntoView({ block: 'center', behavior: 'smooth' });
    card?.focus({ preventScroll: true });
    const timer = setTimeout(() => setExpired(highlighted), CONFESSIONS.highlightMs);
    return () => clearTimeout(timer);
  }, [highlighted]);

  return highlighted;
}
