import { useEffect, useRef } from 'react';
import { CONFESSIONS } from '@campus/protocol';

/**
 * Calls `onMore` when the sentinel comes within 800 px of the viewport. `version` (the page count) observes
 * again after each page, since a sentinel that never left the margin would not report a change.
 */
export function useInfiniteScroll(enabled: boolean, version: number, onMore: () => void) {
  const sentinel = useRef<HTMLDivElement>(null);
  const more = useRef(onMore);
  useEffect(() => {
    more.current = onMore;
  }, [onMore]);

  useEffect(() => {
    const node = sentinel.current;
    if (!enabled || !node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) more.current();
      },
      { rootMargin: `${CONFESSIONS.prefetchMarginPx}px 0px` },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled, version]);

  return sentinel;
}
