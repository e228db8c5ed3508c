import { Refusal } from '../../lib/refusal';
import { audience } from '../../realtime/audiences';
import { sql, type Tx } from '../../realtime/transaction';
import { isBlockedEitherWay } from '../friends';
import type { UserRefs } from '../users';

// Only messages sent TO the reader BY the partner, and only when the status really changes.
const markReadSql = sql(
  `UPDATE direct_messages SET status = 'read'
    WHERE id = ? AND recipient_id = ? AND sender_id = ? AND status <> 'read'`,
);
// Never across a block either way (a receipt would tell the sender the recipient is here): two primary-key
// probes in the statement itself, not a read per pair on the hot path.
const NOT_SEPARATED = `NOT EXISTS (SELECT 1 FROM blocks b
                                    WHERE b.blocker_id = direct_messages.recipient_id
                                      AND b.blocked_id = direct_messages.sender_id)
   AND NOT EXISTS (SELECT 1 FROM blocks b
                    WHERE b.blocker_id = direct_messages.sender_id
                      AND b.blocked_id = direct_messages.recipient_id)`;
const markDeliveredSql = sql(
  `UPDATE direct_messages SET status = 'delivered'
    WHERE id = ? AND recipient_id = ? AND status = 'sent' AND ${NOT_SEPARATED}`,
);
// Every message raised the count once when it arrived and leaves it once when read; never below 0.
// Parameters: count, count, user, peer.
const lowerUnreadSql = sql(
  `UPDATE direct_conversations SET unread_count = CASE WHEN unread_count > ? THEN unread_count - ? ELSE 0 END
    WHERE user_id = ? AND peer_id = ?`,
);
// What markReadSql would change, read only (across a block nothing of the sender's message changes).
const unreadFromSql = sql<{ one: number }>(
  `SELECT 1 AS one FROM direct_messages WHERE id = ? AND recipient_id = ? AND sender_id = ? AND status <> 'read'`,
);
const messageUsersSql = sql<{ sender_id: string; recipient_id: string }>(
  'SELECT sender_id, recipient_id FROM direct_messages WHERE id = ?',
);
const setReactionSql = sql(
  `INSERT INTO message_reactions (message_id, user_id, emoji) VALUES (?, ?, ?)
   ON CONFLICT (message_id, user_id) DO UPDATE SET emoji = excluded.emoji`,
);
const removeReactionSql = sql('DELETE FROM message_reactions WHERE message_id = ? AND user_id = ?');
// direct_messages_undelivered_idx (partial); none from someone with a block between (they stay 'sent').
const undeliveredSql = sql<{ id: string; sender_id: string }>(
  `SELECT id, sender_id FROM direct_messages
    WHERE recipient_id = ? AND status = 'sent' AND seq <= ? AND ${NOT_SEPARATED}`,
);

/** Ids of `ids` whose update changed a row, in order. */
async function changedBy(tx: Tx, ids: readonly string[], update: (id: string) => Promise<number>) {
  const changed: string[] = [];
  for (const id of ids) if ((await update(id)) > 0) changed.push(id);
  return changed;
}

/**
 * The reader read `messageIds` from `partnerId`: they become 'read', the reader's unread count drops, and
 * both users get `peer_read_messages`. Ids that are not such messages, or already read, are skipped. Across
 * a block either way the partner learns nothing (a read tick says the reader is here now): the messages keep
 * their status and only the reader's own devices hear of it.
 */
export async function markMessagesRead(
  tx: Tx,
  refs: UserRefs,
  readerId: string,
  partnerId: string,
  messageIds: readonly string[],
): Promise<void> {
  if (!(await refs.get(tx, partnerId))) throw new Refusal('unknownUser', 404);
  const blocked = await isBlockedEitherWay(tx, readerId, partnerId);
  const changed = await changedBy(tx, messageIds, async (id) =>
    blocked
      ? (await tx.first(unreadFromSql, id, readerId, partnerId))
        ? 1
        : 0
      : tx.run(markReadSql, id, readerId, partnerId),
  );
  if (!changed.length) return;
  await tx.run(lowerUnreadSql, changed.length, changed.length, readerId, partnerId);
  tx.emit(
    {
      type: 'peer_read_messages',
      readerId,
      messageIds: changed,
      status: 'read',
      chatPartnerId: partnerId,
      groupId: null,
    },
    blocked ? [audience.user(readerId)] : [audience.user(readerId), audience.user(partnerId)],
  );
}

/**
 * Delivery receipts: `recipientId` now holds these messages (per sender). A `peer_read_messages` with
 * status 'delivered' per sender, to both users; none across a block either way (it would tell the sender
 * the recipient is online).
 */
export async function markMessagesDelivered(
  tx: Tx,
  recipientId: string,
  bySender: ReadonlyMap<string, readonly string[]>,
): Promise<void> {
  for (const [senderId, ids] of bySender) {
    const changed = await changedBy(tx, ids, (id) => tx.run(markDeliveredSql, id, recipientId));
    if (!changed.length) continue;
    tx.emit(
      {
        type: 'peer_read_messages',
        readerId: recipientId,
        messageIds: changed,
        status: 'delivered',
        chatPartnerId: senderId,
        groupId: null,
      },
      [audience.user(senderId), audience.user(recipientId)],
    );
  }
}

/** Messages to the user still 'sent' up to `seq`, by sender. */
export async function undeliveredTo(
  tx: Pick<Tx, 'all'>,
  recipientId: string,
  seq: number,
): Promise<Map<string, string[]>> {
  const bySender = new Map<string, string[]>();
  for (const row of await tx.all(undeliveredSql, recipientId, seq)) {
    const list = bySender.get(row.sender_id);
    if (list) list.push(row.id);
    else bySender.set(row.sender_id, [row.id]);
  }
  return bySender;
}

/** One reaction per user per message; '' takes it back. Only the two people of the message's chat may react. */
export async function setReaction(
  tx: Tx,
  userId: string,
  input: { messageId: string; emoji: string; toUserId: string },
): Promise<void> {
  const row = await tx.first(messageUsersSql, input.messageId);
  const other = !row
    ? undefined
    : row.sender_id === userId
      ? row.recipient_id
      : row.recipient_id === userId
        ? row.sender_id
        : undefined;
  if (!other || other !== input.toUserId) throw new Refusal('unknownMessage', 400);
  // Reacting is writing to them: refused across a block either way, with messaging's neutral text.
  if (await isBlockedEitherWay(tx, userId, other)) throw new Refusal('cannotMessage', 403);
  if (input.emoji) await tx.run(setReactionSql, input.messageId, userId, input.emoji);
  else await tx.run(removeReactionSql, input.messageId, userId);
  tx.emit(
    {
      type: 'chat-reaction',
      messageId: input.messageId,
      emoji: input.emoji,
      fromUserId: userId,
      toUserId: other,
    },
    [audience.user(userId), audience.user(other)],
  );
}
