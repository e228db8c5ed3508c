import { directRoomId, type DirectMessage, type GroupMessage, type Reaction } from '@campus/protocol';
import { sql, type ReadTx } from '../../realtime/transaction';
import { toUserRef, type UserRefRow } from '../users';
import { toDirectMessage, toGroupMessage, type DirectMessageRow, type GroupMessageRow } from './mappers';

type DirectRow = DirectMessageRow & { s: string; r: string };
type GroupRow = GroupMessageRow & { s: string };

/** The newest `per` rows of each listed conversation: the correlated subquery finds each one's oldest seq to
 *  keep with one probe of its (key, seq) index, then one range scan reads just those rows. */
const directSql = sql<DirectRow>(
  `SELECT m.id, m.content, m.created_at, m.status, m.reply_to, m.attachment_key, m.attachment_type, m.seq,
          json_object('id', s.id, 'first_name', s.first_name, 'last_name', s.last_name,
                      'profile_picture_url', s.profile_picture_url) AS s,
          json_object('id', r.id, 'first_name', r.first_name, 'last_name', r.last_name,
                      'profile_picture_url', r.profile_picture_url) AS r
     FROM json_each(?) p
     JOIN direct_messages m ON m.pair = p.value AND m.seq >= coalesce(
          (SELECT x.seq FROM direct_messages x WHERE x.pair = p.value ORDER BY x.seq DESC LIMIT 1 OFFSET ? - 1),
          0)
     JOIN users s ON s.id = m.sender_id
     JOIN users r ON r.id = m.recipient_id
    ORDER BY p.key, m.seq DESC`,
);
const reactionsSql = sql<Reaction & { messageId: string }>(
  `SELECT message_id AS messageId, emoji, user_id AS userId FROM message_reactions
    WHERE message_id IN (SELECT value FROM json_each(?))`,
);
const groupSql = sql<GroupRow>(
  `SELECT m.id, m.group_id, m.content, m.created_at, m.attachment_key, m.attachment_type, m.seq,
          json_object('id', s.id, 'first_name', s.first_name, 'last_name', s.last_name,
                      'profile_picture_url', s.profile_picture_url) AS s
     FROM json_each(?) p
     JOIN group_messages m ON m.group_id = p.value AND m.seq >= coalesce(
          (SELECT x.seq FROM group_messages x WHERE x.group_id = p.value ORDER BY x.seq DESC LIMIT 1 OFFSET ? - 1),
          0)
     JOIN users s ON s.id = m.sender_id
    ORDER BY p.key, m.seq DESC`,
);

const ref = (json: string) => toUserRef(JSON.parse(json) as UserRefRow);

/**
 * The newest `per` messages of each direct conversation with `partners` (newest first, conversation by
 * conversation, like page 1 of GET /api/chat/{partnerId}), in two queries whatever the number of partners.
 */
export async function recentDirectMessages(
  tx: ReadTx,
  userId: string,
  partners: readonly string[],
  per: number,
): Promise<DirectMessage[]> {
  if (!partners.length) return [];
  const rows = await tx.all(directSql, JSON.stringify(partners.map((p) => directRoomId(userId, p))), per);
  const reactions = new Map<string, Reaction[]>();
  for (const { messageId, emoji, userId: by } of await tx.all(
    reactionsSql,
    JSON.stringify(rows.map((r) => r.id)),
  )) {
    const list = reactions.get(messageId);
    if (list) list.push({ emoji, userId: by });
    else reactions.set(messageId, [{ emoji, userId: by }]);
  }
  return rows.map((row) => toDirectMessage(row, ref(row.s), ref(row.r), reactions.get(row.id) ?? []));
}

/** The newest `per` messages of each group (like page 1 of GET /api/groups/{id}/messages), in one query. */
export async function recentGroupMessages(
  tx: ReadTx,
  groupIds: readonly string[],
  per: number,
): Promise<GroupMessage[]> {
  if (!groupIds.length) return [];
  const rows = await tx.all(groupSql, JSON.stringify(groupIds), per);
  return rows.map((row) => toGroupMessage(row, ref(row.s)));
}
