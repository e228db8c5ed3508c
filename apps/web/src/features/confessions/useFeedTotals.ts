import { useCallback, useState } from 'react';
import type { Confession, FeedResponse } from '@campus/protocol';

interface Totals {
  total: number | null;
  collegeTotal: number | null;
}

/**
 * The header's and tabs' counts: the server's, from the last feed page it answered, moved by what changed
 * in the cache since (a post or a deletion, live from anyone or queued here). Rows a feed page brought in or
 * proved gone are not news: the page's totals already count them.
 */
interface Seen {
  /** The cache answer last looked at, and its rows (id → college); null before the first. */
  rows: readonly Confession[] | undefined;
  known: Map<string, string | null> | null;
  /** How far the counts moved since the server's last answer. */
  moved: { total: number; college: number };
}

const STILL = { total: 0, college: 0 };

export function useFeedTotals(rows: readonly Confession[] | undefined, college: string | null) {
  const [server, setServer] = useState<Totals>({ total: null, collegeTotal: null });
  /** Ids some feed page held, and ids a feed page removed from the cache: not news. */
  const [answered] = useState(() => new Set<string>());
  const [reconciled] = useState(() => new Set<string>());
  const [seen, setSeen] = useState<Seen>({ rows: undefined, known: null, moved: STILL });

  // Counted while rendering (React's "state from the previous render" pattern), so the counts on screen
  // always belong to the cards on screen.
  if (rows !== seen.rows) {
    const before = seen.known;
    const now = rows ? new Map(rows.map((row) => [row.id, row.college])) : before;
    let { total, college: inCollege } = seen.moved;
    const count = (rowCollege: string | null | undefined, step: number) => {
      total += step;
      if (college !== null && rowCollege === college) inCollege += step;
    };
    if (before && now) {
      for (const [id, c] of now) if (!before.has(id) && !answered.has(id)) count(c, 1);
      for (const [id, c] of before) if (!now.has(id) && !reconciled.has(id)) count(c, -1);
    }
    setSeen({ rows, known: now, moved: { total, college: inCollege } });
  }

  /** A feed page came: its totals are the new base, its rows are not news. */
  const onAnswer = useCallback(
    (answer: FeedResponse) => {
      answer.confessions.forEach((c) => answered.add(c.id));
      setServer({ total: answer.total, collegeTotal: answer.collegeTotal });
      setSeen((s) => ({ ...s, moved: STILL }));
    },
    [answered],
  );

  const shift = (value: number | null, by: number) => (value === null ? null : Math.max(0, value + by));
  return {
    total: shift(server.total, seen.moved.total),
    collegeTotal: shift(server.collegeTotal, seen.moved.college),
    onAnswer,
    /** Filled by the feed page's cache write (inside its transaction, before any live answer sees it). */
    reconciled,
  };
}
