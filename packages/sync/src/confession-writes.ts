import { ANON, type ReactionType } from '@campus/protocol';
import type { LocalConfession } from './database';
import { syncTables } from './apply-changes';
import type { Writer } from './mutations';
import { setNotificationRead } from './notifications';
import { withReaction } from './confession-state';
import { enqueue } from './outbox';

/**
 * Optimistic confession and notification writes. Like the chat writes, each changes Dexie and queues its
 * mutation in one transaction; a reject undoes the change (outbox rollback).
 */

/** Who the viewer is on an optimistic card or comment (the server fills in the real values). */
export interface ConfessionAuthor {
  /** The viewer's nickname; 'Anon' when none is given. */
  nickname?: string | null;
  /** The viewer's college, shown on the card and used by the 'Your College' tab. */
  college?: string | null;
}

const now = (): string => new Date().toISOString();

export async function writeConfessionReaction(
  w: Writer,
  confessionId: string,
  reactionType: ReactionType,
  on: boolean,
): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const row = await w.db.confessions.get(confessionId);
    if (row) await w.db.confessions.put(withReaction(row, reactionType, on));
    const undo = row
      ? {
          kind: 'confessionReaction' as const,
          confessionId,
          reactionType,
          wasOn: row.myReactions.includes(reactionType),
        }
      : undefined;
    await enqueue(w.db, w.ids, { type: 'confession_react', confessionId, reactionType, on }, undo);
  });
}

/** Appends the comment to the cached card (newest last) with a client id the server keeps. */
export async function writeConfessionComment(
  w: Writer,
  confessionId: string,
  content: string,
  author: ConfessionAuthor = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const row = await w.db.confessions.get(confessionId);
    if (row) {
      const comment = {
        id,
        confessionId,
        nickname: author.nickname || ANON,
        content,
        createdAt: now(),
        isMine: true,
      };
      await w.db.confessions.put({
        ...row,
        comments: [...row.comments, comment],
        commentCount: row.commentCount + 1,
      });
    }
    await enqueue(w.db, w.ids, { type: 'confession_comment', id, confessionId, content });
  });
  return id;
}

/** A new card on top of the cached feed (feedOrder below every other), the viewer's own. */
export async function writeConfessionPost(
  w: Writer,
  content: string,
  emotionTag: string,
  author: ConfessionAuthor = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const top = await w.db.confessions.orderBy('feedOrder').first();
    const card: LocalConfession = {
      id,
      content,
      emotionTag,
      college: author.college ?? null,
      createdAt: now(),
      imageUrl: null,
      nickname: author.nickname || ANON,
      reactions: { relatable: 0, funny: 0, feelYou: 0, shareWorthy: 0 },
      myReactions: [],
      commentCount: 0,
      comments: [],
      isMine: true,
      feedOrder: (top?.feedOrder ?? 0) - 1,
    };
    await w.db.confessions.put(card);
    await enqueue(w.db, w.ids, { type: 'confession_post', id, content, emotionTag });
  });
  return id;
}

/** Marks a notification read here at once; queued for the server unless it was read already. */
export async function writeNotificationRead(w: Writer, notificationId: string): Promise<void> {
  await w.db.transaction('rw', syncTables(w.db), async () => {
    const row = await w.db.notifications.get(notificationId);
    // Already read here: the server knows, or a queued mark will tell it.
    if (row?.isRead) return;
    if (row) await setNotificationRead(w.db, notificationId, true);
    const undo = row ? { kind: 'notificationRead' as const, notificationId, wasRead: false } : undefined;
    await enqueue(w.db, w.ids, { type: 'mark_notification_read', notificationId }, undo);
  });
}
