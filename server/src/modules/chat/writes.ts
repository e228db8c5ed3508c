import { CHAT, directRoomId, type DirectMessage, type GroupMessage, type Reaction } from '@campus/protocol';
import type { DirectMessagesTable, GroupMessagesTable } from '../../lib/db/schema';
import { Refusal } from '../../lib/refusal';
import { audience } from '../../realtime/audiences';
import { sql, type Tx } from '../../realtime/transaction';
import type { ParticipationCheck } from '../../realtime/registry';
import type { UserRefs } from '../users';
import { isBlockedEitherWay } from '../friends';
import { checkDirectLimits, directCounts } from './direct-limits';
import { toDirectMessage, toGroupMessage, type DirectMessageRow, type GroupMessageRow } from './mappers';

export interface AttachmentInput {
  key: string;
  type: 'image' | 'file';
}

export interface DirectMessageInput {
  id: string;
  to: string;
  content: string;
  replyTo?: string | null;
  attachment?: AttachmentInput;
}

export interface GroupMessageInput {
  id: string;
  groupId: string;
  content: string;
  attachment?: AttachmentInput;
}

// The hot path runs these statements and nothing else (the engine prepares each once).
const directByIdSql = sql<DirectMessagesTable>('SELECT * FROM direct_messages WHERE id = ?');
const reactionsOfSql = sql<Reaction>(
  'SELECT emoji, user_id AS "userId" FROM message_reactions WHERE message_id = ? ORDER BY user_id',
);
const insertDirectSql = sql(
  `INSERT INTO direct_messages
     (id, pair, sender_id, recipient_id, content, created_at, status, reply_to, attachment_key, attachment_type, seq)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
// sent_count and started_ms feed the direct-message limits (direct-limits.ts); started_ms is set once. The
// stored row's columns are named with the table (PostgreSQL calls a bare one ambiguous beside `excluded`).
const upsertConversationSql = sql(
  `INSERT INTO direct_conversations AS dc
     (user_id, peer_id, last_message_id, last_seq, unread_count, sent_count, started_ms)
   VALUES (?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT (user_id, peer_id) DO UPDATE SET last_message_id = excluded.last_message_id,
     last_seq = excluded.last_seq, unread_count = dc.unread_count + excluded.unread_count,
     sent_count = dc.sent_count + excluded.sent_count`,
);
const isMemberSql = sql<{ one: number }>(
  'SELECT 1 AS one FROM group_members WHERE group_id = ? AND user_id = ?',
);
const groupMessageByIdSql = sql<GroupMessagesTable>('SELECT * FROM group_messages WHERE id = ?');
const insertGroupMessageSql = sql(
  `INSERT INTO group_messages (id, group_id, sender_id, content, created_at, attachment_key, attachment_type, seq)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
);

async function requireRef(tx: Tx, refs: UserRefs, userId: string) {
  const ref = await refs.get(tx, userId);
  if (!ref) throw new Refusal('unknownUser', 404);
  return ref;
}

function checkContent(content: string): void {
  if (!content.trim()) throw new Refusal('emptyMessage', 400);
  if (content.length > CHAT.maxMessageLength) throw new Refusal('messageTooLong', 400);
}

/**
 * Stores a direct message and emits its `receive_message` to both users; updates both conversation rows
 * (the recipient's unread count rises). Idempotent on `id`: a message already stored is returned before the
 * limits are checked, so a resend is never refused for its own count. Refused by the direct-message limits
 * (direct-limits.ts) before anything is written. `participation`: the access policy's check for a message the
 * recipient has not answered (see checkDirectLimits); absent for callers that gate at their own door.
 */
export async function storeDirectMessage(
  tx: Tx,
  refs: UserRefs,
  fromUserId: string,
  input: DirectMessageInput,
  participation?: ParticipationCheck,
): Promise<DirectMessage> {
  const pair = directRoomId(fromUserId, input.to);
  // The reads every new message needs, asked at once (one round trip on PostgreSQL, where each is spent
  // under the deployment's write lock); their answers are still decided in the order below.
  const [existing, blocked, counts] = await Promise.all([
    tx.first(directByIdSql, input.id),
    isBlockedEitherWay(tx, fromUserId, input.to),
    directCounts(tx, fromUserId, input.to),
  ]);
  if (existing) {
    if (existing.sender_id !== fromUserId || existing.pair !== pair) throw new Refusal('badFrame', 400);
    const [from, to, reactions] = await Promise.all([
      requireRef(tx, refs, existing.sender_id),
      requireRef(tx, refs, existing.recipient_id),
      tx.all(reactionsOfSql, existing.id),
    ]);
    return toDirectMessage(existing, from, to, reactions);
  }
  if (input.to === fromUserId) throw new Refusal('selfMessage', 400);
  checkContent(input.content);
  const from = await requireRef(tx, refs, fromUserId);
  const to = await requireRef(tx, refs, input.to);
  const replyTo = input.replyTo ?? null;
  if (replyTo !== null && (await tx.first(directByIdSql, replyTo))?.pair !== pair)
    throw new Refusal('unknownMessage', 400);
  // A block either way: refused with a neutral text that does not say who blocked whom (one indexed read).
  if (blocked) throw new Refusal('cannotMessage', 403);
  const { starts } = await checkDirectLimits(tx, fromUserId, to, participation, counts);

  const row: DirectMessageRow = {
    id: input.id,
    content: input.content,
    created_at: new Date(tx.now).toISOString(),
    status: 'sent',
    reply_to: replyTo,
    attachment_key: input.attachment?.key ?? null,
    attachment_type: input.attachment?.type ?? null,
    seq: tx.nextSeq(),
  };
  // Queued (Tx.queue): nothing here reads their answers, and on PostgreSQL each awaited statement is a
  // round trip under the deployment's write lock.
  tx.queue(
    insertDirectSql,
    row.id,
    pair,
    fromUserId,
    input.to,
    row.content,
    row.created_at,
    row.status,
    row.reply_to,
    row.attachment_key,
    row.attachment_type,
    row.seq,
  );
  tx.queue(upsertConversationSql, fromUserId, input.to, row.id, row.seq, 0, 1, starts ? tx.now : null);
  tx.queue(upsertConversationSql, input.to, fromUserId, row.id, row.seq, 1, 0, null);
  const message = toDirectMessage(row, from, to, []);
  tx.emit({ type: 'receive_message', message }, [audience.user(fromUserId), audience.user(input.to)]);
  return message;
}

export async function isGroupMember(
  tx: Pick<Tx, 'first'>,
  groupId: string,
  userId: string,
): Promise<boolean> {
  return (await tx.first(isMemberSql, groupId, userId)) !== undefined;
}

/**
 * Stores a group message and emits `receive_group_message` to the group's audience. Members only.
 * Idempotent on `id`.
 */
export async function storeGroupMessage(
  tx: Tx,
  refs: UserRefs,
  fromUserId: string,
  input: GroupMessageInput,
): Promise<GroupMessage> {
  // Both reads asked at once (one round trip on PostgreSQL, where each is spent under the deployment's
  // write lock); membership is still decided first.
  const [member, existing] = await Promise.all([
    isGroupMember(tx, input.groupId, fromUserId),
    tx.first(groupMessageByIdSql, input.id),
  ]);
  if (!member) throw new Refusal('notGroupMember', 403);
  if (existing) {
    if (existing.sender_id !== fromUserId || existing.group_id !== input.groupId)
      throw new Refusal('badFrame', 400);
    return toGroupMessage(existing, await requireRef(tx, refs, existing.sender_id));
  }
  checkContent(input.content);
  const from = await requireRef(tx, refs, fromUserId);

  const row: GroupMessageRow = {
    id: input.id,
    group_id: input.groupId,
    content: input.content,
    created_at: new Date(tx.now).toISOString(),
    attachment_key: input.attachment?.key ?? null,
    attachment_type: input.attachment?.type ?? null,
    seq: tx.nextSeq(),
  };
  // Queued, as a direct message's writes are.
  tx.queue(
    insertGroupMessageSql,
    row.id,
    row.group_id,
    fromUserId,
    row.content,
    row.created_at,
    row.attachment_key,
    row.attachment_type,
    row.seq,
  );
  const message = toGroupMessage(row, from);
  tx.emit({ type: 'receive_group_message', message }, [audience.group(row.group_id)]);
  return message;
}
