import type { DirectMessagesTable, GroupMessagesTable } from '../../lib/db/schema';
import type SQLite from 'better-sqlite3';
import {
  directRoomId,
  type DirectMessage,
  type GroupMessage,
  type Reaction,
  type UserRef,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { userRef } from '../../realtime/user-refs';
import { checkDirectLimits } from './direct-limits';
import { ChatRefusal } from './refusal';

export { ChatRefusal } from './refusal';

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

/** Whole rows, as `SELECT *` returns them (the tables' own types). */
type StoredDirect = DirectMessagesTable;
type StoredGroupMessage = GroupMessagesTable;

/** Prepared once per database: the hot path runs these and nothing else. */
function prepare(sqlite: SQLite.Database) {
  return {
    directById: sqlite.prepare<[string], StoredDirect>('SELECT * FROM direct_messages WHERE id = ?'),
    reactionsOf: sqlite.prepare<[string], Reaction>(
      'SELECT emoji, user_id AS userId FROM message_reactions WHERE message_id = ?',
    ),
    insertDirect: sqlite.prepare(
      `INSERT INTO direct_messages
         (id, pair, sender_id, recipient_id, content, created_at, status, reply_to, attachment_key, attachment_type, seq)
       VALUES (?, ?, ?, ?, ?, ?, 'sent', ?, ?, ?, ?)`,
    ),
    // sent_count and started_ms feed the direct-message limits (direct-limits.ts); started_ms is set once.
    upsertConversation: sqlite.prepare<[string, string, string, number, number, number, number | null]>(
      `INSERT INTO direct_conversations
         (user_id, peer_id, last_message_id, last_seq, unread_count, sent_count, started_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id, peer_id) DO UPDATE SET last_message_id = excluded.last_message_id,
         last_seq = excluded.last_seq, unread_count = unread_count + excluded.unread_count,
         sent_count = sent_count + excluded.sent_count`,
    ),
    isMember: sqlite.prepare<[string, string], { one: number }>(
      'SELECT 1 AS one FROM group_members WHERE group_id = ? AND user_id = ?',
    ),
    groupMessageById: sqlite.prepare<[string], StoredGroupMessage>(
      'SELECT * FROM group_messages WHERE id = ?',
    ),
    insertGroupMessage: sqlite.prepare(
      `INSERT INTO group_messages (id, group_id, sender_id, content, created_at, attachment_key, attachment_type, seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    bumpGroup: sqlite.prepare<[string, number, string]>(
      'UPDATE groups SET last_message_id = ?, last_seq = ? WHERE id = ?',
    ),
  };
}

const statements = new WeakMap<SQLite.Database, ReturnType<typeof prepare>>();
function chatStatements(sqlite: SQLite.Database): ReturnType<typeof prepare> {
  let s = statements.get(sqlite);
  if (!s) statements.set(sqlite, (s = prepare(sqlite)));
  return s;
}

const fileUrl = (key: string | null) => (key === null ? null : `/files/${key}`);

function requireRef(sqlite: SQLite.Database, userId: string): UserRef {
  const ref = userRef(sqlite, userId);
  if (!ref) throw new ChatRefusal('unknownUser');
  return ref;
}

function checkContent(content: string): void {
  if (!content.trim()) throw new ChatRefusal('emptyMessage');
  if (content.length > 4000) throw new ChatRefusal('messageTooLong');
}

function directFromRow(sqlite: SQLite.Database, row: StoredDirect): DirectMessage {
  return {
    id: row.id,
    from: requireRef(sqlite, row.sender_id),
    to: requireRef(sqlite, row.recipient_id),
    content: row.content,
    timestamp: row.created_at,
    status: row.status,
    attachmentUrl: fileUrl(row.attachment_key),
    attachmentType: row.attachment_type,
    replyTo: row.reply_to,
    reactions: chatStatements(sqlite).reactionsOf.all(row.id),
    seq: row.seq,
  };
}

/**
 * Stores a direct message and emits its `receive_message` to both users; updates both conversation rows
 * (the recipient's unread count rises). Must run inside `deps.realtime.commit`. Idempotent on `id`: a message
 * already stored is returned before the limits are checked, so a resend is never refused for its own count.
 * Refused by the direct-message limits (direct-limits.ts) before anything is written.
 */
export function storeDirectMessage(
  deps: AppDeps,
  fromUserId: string,
  input: DirectMessageInput,
): DirectMessage {
  const { sqlite } = deps;
  const s = chatStatements(sqlite);
  const pair = directRoomId(fromUserId, input.to);
  const existing = s.directById.get(input.id);
  if (existing) {
    if (existing.sender_id !== fromUserId || existing.pair !== pair) throw new ChatRefusal('badFrame');
    return directFromRow(sqlite, existing);
  }
  if (input.to === fromUserId) throw new ChatRefusal('selfMessage');
  checkContent(input.content);
  const from = requireRef(sqlite, fromUserId);
  const to = requireRef(sqlite, input.to);
  const replyTo = input.replyTo ?? null;
  if (replyTo !== null && s.directById.get(replyTo)?.pair !== pair) throw new ChatRefusal('unknownMessage');
  const nowMs = deps.now();
  const { starts } = checkDirectLimits(sqlite, fromUserId, to, nowMs);

  return deps.realtime.commit((tx) => {
    const seq = tx.nextSeq();
    const message: DirectMessage = {
      id: input.id,
      from,
      to,
      content: input.content,
      timestamp: new Date(nowMs).toISOString(),
      status: 'sent',
      attachmentUrl: fileUrl(input.attachment?.key ?? null),
      attachmentType: input.attachment?.type ?? null,
      replyTo,
      reactions: [],
      seq,
    };
    s.insertDirect.run(
      message.id,
      pair,
      fromUserId,
      input.to,
      message.content,
      message.timestamp,
      replyTo,
      input.attachment?.key ?? null,
      message.attachmentType,
      seq,
    );
    s.upsertConversation.run(fromUserId, input.to, message.id, seq, 0, 1, starts ? nowMs : null);
    s.upsertConversation.run(input.to, fromUserId, message.id, seq, 1, 0, null);
    tx.emit({ type: 'receive_message', message }, [`u:${fromUserId}`, `u:${input.to}`]);
    return message;
  });
}

export function isGroupMember(deps: AppDeps, groupId: string, userId: string): boolean {
  return chatStatements(deps.sqlite).isMember.get(groupId, userId) !== undefined;
}

/**
 * Stores a group message and emits `receive_group_message` to the group's audience. Members only.
 * Must run inside `deps.realtime.commit`. Idempotent on `id`.
 */
export function storeGroupMessage(deps: AppDeps, fromUserId: string, input: GroupMessageInput): GroupMessage {
  const { sqlite } = deps;
  const s = chatStatements(sqlite);
  if (!isGroupMember(deps, input.groupId, fromUserId)) throw new ChatRefusal('notGroupMember');
  const existing = s.groupMessageById.get(input.id);
  if (existing) {
    if (existing.sender_id !== fromUserId || existing.group_id !== input.groupId)
      throw new ChatRefusal('badFrame');
    return {
      id: existing.id,
      from: requireRef(sqlite, existing.sender_id),
      group: existing.group_id,
      content: existing.content,
      timestamp: existing.created_at,
      attachmentUrl: fileUrl(existing.attachment_key),
      attachmentType: existing.attachment_type,
      seq: existing.seq,
      status: 'sent',
    };
  }
  checkContent(input.content);
  const from = requireRef(sqlite, fromUserId);

  return deps.realtime.commit((tx) => {
    const seq = tx.nextSeq();
    const message: GroupMessage = {
      id: input.id,
      from,
      group: input.groupId,
      content: input.content,
      timestamp: new Date(deps.now()).toISOString(),
      attachmentUrl: fileUrl(input.attachment?.key ?? null),
      attachmentType: input.attachment?.type ?? null,
      seq,
      status: 'sent',
    };
    s.insertGroupMessage.run(
      message.id,
      input.groupId,
      fromUserId,
      message.content,
      message.timestamp,
      input.attachment?.key ?? null,
      message.attachmentType,
      seq,
    );
    s.bumpGroup.run(message.id, seq, input.groupId);
    tx.emit({ type: 'receive_group_message', message }, [`g:${input.groupId}`]);
    return message;
  });
}
