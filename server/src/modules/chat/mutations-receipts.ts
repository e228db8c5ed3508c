import type SQLite from 'better-sqlite3';
import type { AppDeps } from '../../lib/deps';
import { userRef } from '../../realtime/user-refs';
import { ChatRefusal } from './writes';

function prepare(sqlite: SQLite.Database) {
  return {
    // Only messages sent TO the reader BY the partner, and only when the status really changes.
    markRead: sqlite.prepare<[string, string, string]>(
      `UPDATE direct_messages SET status = 'read'
        WHERE id = ? AND recipient_id = ? AND sender_id = ? AND status <> 'read'`,
    ),
    markDelivered: sqlite.prepare<[string, string]>(
      `UPDATE direct_messages SET status = 'delivered' WHERE id = ? AND recipient_id = ? AND status = 'sent'`,
    ),
    // Every message raised the count once when it arrived and leaves it once when read.
    lowerUnread: sqlite.prepare<[number, string, string]>(
      `UPDATE direct_conversations SET unread_count = max(0, unread_count - ?) WHERE user_id = ? AND peer_id = ?`,
    ),
    messageUsers: sqlite.prepare<[string], { sender_id: string; recipient_id: string }>(
      'SELECT sender_id, recipient_id FROM direct_messages WHERE id = ?',
    ),
    setReaction: sqlite.prepare<[string, string, string]>(
      `INSERT INTO message_reactions (message_id, user_id, emoji) VALUES (?, ?, ?)
       ON CONFLICT (message_id, user_id) DO UPDATE SET emoji = excluded.emoji`,
    ),
    removeReaction: sqlite.prepare<[string, string]>(
      'DELETE FROM message_reactions WHERE message_id = ? AND user_id = ?',
    ),
    undelivered: sqlite.prepare<[string, number], { id: string; sender_id: string }>(
      `SELECT id, sender_id FROM direct_messages WHERE recipient_id = ? AND status = 'sent' AND seq <= ?`,
    ),
  };
}

const statements = new WeakMap<SQLite.Database, ReturnType<typeof prepare>>();
function stmts(sqlite: SQLite.Database): ReturnType<typeof prepare> {
  let s = statements.get(sqlite);
  if (!s) statements.set(sqlite, (s = prepare(sqlite)));
  return s;
}

/**
 * The reader read `messageIds` from `partnerId`: they become 'read', the reader's unread count drops, and
 * both users get `peer_read_messages`. Ids that are not such messages, or already read, are skipped.
 */
export function markMessagesRead(
  deps: AppDeps,
  readerId: string,
  partnerId: string,
  messageIds: readonly string[],
) {
  if (!userRef(deps.sqlite, partnerId)) throw new ChatRefusal('unknownUser');
  const s = stmts(deps.sqlite);
  deps.realtime.commit((tx) => {
    const changed = messageIds.filter((id) => s.markRead.run(id, readerId, partnerId).changes > 0);
    if (!changed.length) return;
    s.lowerUnread.run(changed.length, readerId, partnerId);
    tx.emit(
      {
        type: 'peer_read_messages',
        readerId,
        messageIds: changed,
        status: 'read',
        chatPartnerId: partnerId,
        groupId: null,
      },
      [`u:${readerId}`, `u:${partnerId}`],
    );
  });
}

/**
 * Delivery receipts: `recipientId` now holds these messages (per sender). One transaction for the batch;
 * a `peer_read_messages` with status 'delivered' per sender, to both users.
 */
export function markMessagesDelivered(
  deps: AppDeps,
  recipientId: string,
  bySender: ReadonlyMap<string, string[]>,
) {
  const s = stmts(deps.sqlite);
  deps.realtime.commit((tx) => {
    for (const [senderId, ids] of bySender) {
      const changed = ids.filter((id) => s.markDelivered.run(id, recipientId).changes > 0);
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
        [`u:${senderId}`, `u:${recipientId}`],
      );
    }
  });
}

/** Messages to the user still 'sent' up to `seq` (partial index direct_messages_undelivered_idx), by sender. */
export function undeliveredTo(deps: AppDeps, recipientId: string, seq: number): Map<string, string[]> {
  const bySender = new Map<string, string[]>();
  for (const row of stmts(deps.sqlite).undelivered.all(recipientId, seq)) {
    const list = bySender.get(row.sender_id);
    if (list) list.push(row.id);
    else bySender.set(row.sender_id, [row.id]);
  }
  return bySender;
}

/** One reaction per user per message; '' takes it back. Only the two people of the message's chat may react. */
export function setReaction(
  deps: AppDeps,
  userId: string,
  input: { messageId: string; emoji: string; toUserId: string },
) {
  const s = stmts(deps.sqlite);
  const row = s.messageUsers.get(input.messageId);
  const other = !row
    ? undefined
    : row.sender_id === userId
      ? row.recipient_id
      : row.recipient_id === userId
        ? row.sender_id
        : undefined;
  if (!other || other !== input.toUserId) throw new ChatRefusal('unknownMessage');
  deps.realtime.commit((tx) => {
    if (input.emoji) s.setReaction.run(input.messageId, userId, input.emoji);
    else s.removeReaction.run(input.messageId, userId);
    tx.emit(
      {
        type: 'chat-reaction',
        messageId: input.messageId,
        emoji: input.emoji,
        fromUserId: userId,
        toUserId: other,
      },
      [`u:${userId}`, `u:${other}`],
    );
  });
}
