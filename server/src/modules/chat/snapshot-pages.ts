import { directRoomId, type DirectMessage, type GroupMessage, type Reaction } from '@campus/protocol';
import { inList, valuesList } from '../../lib/db/portable-sql';
import { sql, type ReadTx } from '../../realtime/transaction';
import { toUserRef } from '../users';
import { toDirectMessage, toGroupMessage, type DirectMessageRow, type GroupMessageRow } from './mappers';

/** The sender's (`s_`) and the recipient's (`r_`) cards, as plain columns (no JSON function on either database). */
type DirectRow = DirectMessageRow & {
  s_id: string;
  s_first_name: string;
  s_last_name: string;
  s_picture: string | null;
  r_id: string;
  r_first_name: string;
  r_last_name: string;
  r_picture: string | null;
};
type GroupRow = GroupMessageRow & {
  s_id: string;
  s_first_name: string;
  s_last_name: string;
  s_picture: string | null;
};

/** The newest `per` rows of each listed conversation: the correlated subquery finds each one's oldest seq to
 *  keep with one probe of its (key, seq) index, then one range scan reads just those rows. The list is a
 *  VALUES table (valuesList: column1 the key, column2 its place in the list). Parameters: ...keys, per. */
const directSql = valuesList((pairs) =>
  sql<DirectRow>(
    `SELECT m.id, m.content, m.created_at, m.status, m.reply_to, m.attachment_key, m.attachment_type, m.seq,
            s.id AS s_id, s.first_name AS s_first_name, s.last_name AS s_last_name,
            s.profile_picture_url AS s_picture,
            r.id AS r_id, r.first_name AS r_first_name, r.last_name AS r_last_name,
            r.profile_picture_url AS r_picture
       FROM ${pairs} p
       JOIN direct_messages m ON m.pair = p.column1 AND m.seq >= coalesce(
            (SELECT x.seq FROM direct_messages x WHERE x.pair = p.column1 ORDER BY x.seq DESC LIMIT 1 OFFSET ? - 1),
            0)
       JOIN users s ON s.id = m.sender_id
       JOIN users r ON r.id = m.recipient_id
      ORDER BY p.column2, m.seq DESC`,
  ),
);
const reactionsSql = inList((ids) =>
  sql<Reaction & { messageId: string }>(
    `SELECT message_id AS "messageId", emoji, user_id AS "userId" FROM message_reactions
      WHERE message_id IN (${ids}) ORDER BY message_id, user_id`,
  ),
);
/** Parameters: ...group ids, per. */
const groupSql = valuesList((groups) =>
  sql<GroupRow>(
    `SELECT m.id, m.group_id, m.content, m.created_at, m.attachment_key, m.attachment_type, m.seq,
            s.id AS s_id, s.first_name AS s_first_name, s.last_name AS s_last_name,
            s.profile_picture_url AS s_picture
       FROM ${groups} p
       JOIN group_messages m ON m.group_id = p.column1 AND m.seq >= coalesce(
            (SELECT x.seq FROM group_messages x WHERE x.group_id = p.column1 ORDER BY x.seq DESC LIMIT 1 OFFSET ? - 1),
            0)
       JOIN users s ON s.id = m.sender_id
      ORDER BY p.column2, m.seq DESC`,
  ),
);

const sender = (row: GroupRow | DirectRow) =>
  toUserRef({
    id: row.s_id,
    first_name: row.s_first_name,
    last_name: row.s_last_name,
    profile_picture_url: row.s_picture,
  });
const recipient = (row: DirectRow) =>
  toUserRef({
    id: row.r_id,
    first_name: row.r_first_name,
    last_name: row.r_last_name,
    profile_picture_url: row.r_picture,
  });

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
  const direct = directSql(partners.map((p) => directRoomId(userId, p)));
  const rows = await tx.all(direct.text, ...direct.params, per);
  const reactions = new Map<string, Reaction[]>();
  if (rows.length) {
    const ofRows = reactionsSql(rows.map((r) => r.id));
    for (const { messageId, emoji, userId: by } of await tx.all(ofRows.text, ...ofRows.params)) {
      const list = reactions.get(messageId);
      if (list) list.push({ emoji, userId: by });
      else reactions.set(messageId, [{ emoji, userId: by }]);
    }
  }
  return rows.map((row) => toDirectMessage(row, sender(row), recipient(row), reactions.get(row.id) ?? []));
}

/** The newest `per` messages of each group (like page 1 of GET /api/groups/{id}/messages), in one query. */
export async function recentGroupMessages(
  tx: ReadTx,
  groupIds: readonly string[],
  per: number,
): Promise<GroupMessage[]> {
  if (!groupIds.length) return [];
  const group = groupSql(groupIds);
  const rows = await tx.all(group.text, ...group.params, per);
  return rows.map((row) => toGroupMessage(row, sender(row)));
}

/** The statements, for the query-plan checks (server/test/portable-sql.test.ts). */
export const snapshotPageStatements = { directSql, groupSql, reactionsSql };
