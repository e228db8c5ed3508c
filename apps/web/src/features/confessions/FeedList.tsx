import { useEffect, useRef, useState } from 'react';
import { CONFESSION_MSG, type ReactionType } from '@campus/protocol';
import { writeConfessionDelete, writeConfessionReaction } from '@campus/sync';
import { usePlatform } from '../../platform';
import { useSync } from '../sync/sync-context';
import { ConfessionCard } from './ConfessionCard';
import { errorLine, requireAuthToken, type ErrorLine } from './confessions-api';
import { ConfirmDialog } from '../../components/Dialog';
import { ErrorText } from './ErrorText';
import { MissingNote, OfflineNote } from './FeedNotes';
import type { QueuedWrites } from './queued-writes';
import { shareCardAsImage } from './share-image';
import type { Feed, FeedTab } from './useFeed';
import { useHighlight } from './useHighlight';
import { useInfiniteScroll } from './useInfiniteScroll';
import { useWriteRefusals } from './useWriteRefusals';

interface FeedListProps {
  feed: Feed;
  tab: FeedTab;
  targetId: string | null;
  /** The clock of the relative times. */
  now: number;
  writes: QueuedWrites;
  /** True (and the chooser opens) when the user has no nickname yet; `retry` runs once one is chosen. */
  needsNickname(retry: () => void): boolean;
  onComments(id: string): void;
}

function Skeletons() {
  return (
    <div className="cf-skeletons" aria-hidden="true">
      {[0, 1, 2].map((index) => (
        <div key={index} className="cf-card cf-card--skeleton" />
      ))}
    </div>
  );
}

/** The cards of one tab with their reactions, delete, share, paging and the feed's states. */
export function FeedList(props: FeedListProps) {
  const { feed, tab, targetId, now, writes, needsNickname, onComments } = props;
  const platform = usePlatform();
  const client = useSync();
  const [actionError, setActionError] = useState<ErrorLine | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const { highlighted, missing } = useHighlight(targetId, feed);
  const canLoad = feed.hasMore && !feed.loading && !feed.error && !feed.offline;
  const sentinel = useInfiniteScroll(canLoad, feed.page, () => {
    void feed.loadMore();
  });
  useWriteRefusals(writes, setActionError, feed.reload);

  const feedRef = useRef<HTMLDivElement>(null);
  /** A deleted card, and where focus goes once it has left the list ('' for the feed itself). */
  const focusAfterDelete = useRef<{ deleted: string; target: string } | null>(null);
  useEffect(() => {
    const pending = focusAfterDelete.current;
    if (pending === null || feed.items.some((item) => item.id === pending.deleted)) return;
    focusAfterDelete.current = null;
    (document.getElementById(pending.target) ?? feedRef.current)?.focus();
  });

  /** `gated` false: the retry after a nickname was chosen for this very reaction. */
  function react(id: string, type: ReactionType, forceOn = false, gated = true) {
    if (gated && needsNickname(() => react(id, type, forceOn, false))) return;
    const card = feed.items.find((item) => item.id === id);
    if (!card) return;
    const on = forceOn || !card.myReactions.includes(type);
    if (card.myReactions.includes(type) === on) return;
    try {
      requireAuthToken();
    } catch (failure) {
      setActionError(errorLine(failure, CONFESSION_MSG.reactionFailed));
      return;
    }
    setActionError(null);
    // Through the outbox: the card changes at once and the reaction is delivered exactly once, also when it
    // was made offline. A refusal comes back as a message_error (useWriteRefusals).
    void client.run(writeConfessionReaction, id, type, on);
  }

  async function confirmDelete(id: string) {
    setDeleting(null);
    setActionError(null);
    try {
      requireAuthToken();
    } catch (failure) {
      setActionError(errorLine(failure, CONFESSION_MSG.deleteFailed));
      return;
    }
    const index = feed.items.findIndex((item) => item.id === id);
    const next = feed.items[index + 1] ?? feed.items[index - 1];
    focusAfterDelete.current = { deleted: id, target: next ? `confession-${next.id}` : '' };
    // The card leaves the cache at once (and every other feed once the server has it); a refusal puts it
    // back and says 'Failed to delete confession'.
    await client.run(writeConfessionDelete, id);
  }

  async function share(card: HTMLElement) {
    setActionError(null);
    try {
      await shareCardAsImage(card, platform);
    } catch {
      setActionError({ message: 'Failed to share confession' });
    }
  }

  const empty = !feed.loading && !feed.error && feed.items.length === 0;
  return (
    <>
      <ErrorText error={actionError} />
      {feed.fromCache ? <OfflineNote fromCache onRetry={() => void feed.resume()} /> : null}
      {missing ? <MissingNote /> : null}
      <div
        ref={feedRef}
        tabIndex={-1}
        className="cf-feed"
        id="confession-feed"
        role="feed"
        aria-busy={feed.loading}
        aria-label={tab === 'college' ? 'Your college confessions' : 'All confessions'}
      >
        {feed.items.map((confession, index) => (
          <ConfessionCard
            key={confession.id}
            position={index + 1}
            setSize={feed.hasMore || feed.offline ? -1 : feed.items.length}
            now={now}
            confession={confession}
            showCollege={tab === 'all'}
            highlighted={highlighted === confession.id}
            onReact={(type) => react(confession.id, type)}
            onLike={() => react(confession.id, 'relatable', true)}
            onComments={() => onComments(confession.id)}
            onShare={share}
            onDelete={() => setDeleting(confession.id)}
          />
        ))}
      </div>
      {feed.loading ? <Skeletons /> : null}
      <ErrorText error={feed.error} />
      {feed.offline && !feed.fromCache && !feed.loading ? (
        <OfflineNote fromCache={false} onRetry={() => void feed.resume()} />
      ) : null}
      {empty ? (
        <div className="empty-state cf-empty">
          <p className="empty-state__title">{CONFESSION_MSG.emptyTitle}</p>
          <p className="empty-state__text">{CONFESSION_MSG.emptyBody}</p>
        </div>
      ) : null}
      {!empty && !feed.loading && !feed.hasMore && !feed.error && !feed.offline ? (
        <p className="cf-end">{CONFESSION_MSG.end}</p>
      ) : null}
      <div ref={sentinel} className="cf-sentinel" aria-hidden="true" />
      {deleting ? (
        <ConfirmDialog
          title="Delete confession"
          message={CONFESSION_MSG.deleteConfirm}
          confirmLabel="Delete"
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => void confirmDelete(deleting)}
        />
      ) : null}
    </>
  );
}
