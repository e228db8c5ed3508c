import { useEffect, useState } from 'react';
import { CONFESSION_MSG, type ReactionType } from '@campus/protocol';
import { useApi } from '../../lib/ApiContext';
import { usePlatform } from '../../platform';
import { useCampusSync, useSync } from '../sync/sync-context';
import { ConfessionCard } from './ConfessionCard';
import { deleteConfession, errorLine, reactToConfession, type ErrorLine } from './confessions-api';
import { ConfirmDialog } from './Dialog';
import { ErrorText } from './ErrorText';
import { forgetCachedConfession } from './feed-cache';
import { withReaction } from './reaction-toggle';
import { shareCardAsImage } from './share-image';
import type { FeedTab, useFeed } from './useFeed';
import { useNow } from '../chat/useNow';
import { useHighlight } from './useHighlight';
import { useInfiniteScroll } from './useInfiniteScroll';

interface FeedListProps {
  feed: ReturnType<typeof useFeed>;
  tab: FeedTab;
  targetId: string | null;
  /** True (and the chooser opens) when the user has no nickname yet. */
  needsNickname(): boolean;
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
export function FeedList({ feed, tab, targetId, needsNickname, onComments }: FeedListProps) {
  const api = useApi();
  const platform = usePlatform();
  const { db } = useSync();
  const writer = useCampusSync();
  const [actionError, setActionError] = useState<ErrorLine | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const highlighted = useHighlight(targetId, feed);
  // Relative times ('5m ago') move on while the screen stays open.
  const now = useNow(30_000).getTime();
  const sentinel = useInfiniteScroll(feed.hasMore && !feed.loading && !feed.error, feed.page, () => {
    void feed.loadMore();
  });

  useEffect(
    () =>
      writer?.onMessageError((refusal) => {
        if (refusal.context !== 'confession_react') return;
        setActionError({ message: CONFESSION_MSG.reactionFailed });
        void feed.reload();
      }),
    [writer, feed],
  );

  function react(id: string, type: ReactionType, forceOn = false) {
    if (needsNickname()) return;
    const card = feed.items.find((item) => item.id === id);
    if (!card) return;
    const on = forceOn || !card.myReactions.includes(type);
    if (card.myReactions.includes(type) === on) return;
    setActionError(null);
    feed.patch(id, (item) => withReaction(item, type, on));
    // Through the outbox: a reaction made offline is delivered once when the network is back. A refusal
    // comes back as a message_error (handled above).
    if (writer) {
      void writer.reactConfession(id, type, on);
      return;
    }
    reactToConfession(api, id, type).then(
      (answer) => feed.patch(id, (item) => ({ ...item, ...answer })),
      (failure: unknown) => {
        setActionError(errorLine(failure, CONFESSION_MSG.reactionFailed));
        void feed.reload();
      },
    );
  }

  async function confirmDelete(id: string) {
    setDeleting(null);
    setActionError(null);
    try {
      await deleteConfession(platform.serverUrl, id);
      feed.remove(id);
      await forgetCachedConfession(db, id).catch(() => undefined);
    } catch (failure) {
      setActionError(errorLine(failure, CONFESSION_MSG.deleteFailed));
    }
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
      {feed.offline ? (
        <p className="cf-note" role="status">
          You are offline: showing saved confessions.
        </p>
      ) : null}
      <div
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
      {empty ? (
        <div className="empty-state cf-empty">
          <p className="empty-state__title">{CONFESSION_MSG.emptyTitle}</p>
          <p className="empty-state__text">{CONFESSION_MSG.emptyBody}</p>
        </div>
      ) : null}
      {!empty && !feed.loading && !feed.hasMore && !feed.error ? (
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
