import { SYNC, type UserRef } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { inList } from '../../lib/db/portable-sql';
import type { SnapshotBody } from '../../realtime/registry';
import { sql } from '../../realtime/transaction';
import { toUserListEntry, toUserRef, type UserListRow } from '../users';
import { separatedFrom } from './contacts';
import { NEWEST_GROUP_MESSAGE_ID } from './group-activity';
import { toGroup } from './mappers';
import {
  mergeConversations,
  type DirectConversationListRow,
  type GroupConversationListRow,
} from './read-repo';
import { recentDirectMessages, recentGroupMessages } from './snapshot-pages';

const usersSql = inList((ids) =>
  sql<UserListRow>(
    `SELECT id, first_name, last_name, profile_picture_url, last_active_at FROM users WHERE id IN (${ids})`,
  ),
);

// The statements of listConversations and listUserGroups (read-repo.ts, which names the indexes), written
// out so that they run as cached prepared statements in the snapshot's one read: a snapshot is built for
// every device that connects from scratch (1,000 at once after a restart), and compiling and preparing the
// Kysely queries each time cost more than running them. The user's groups are read once for both lists.
const directConversationsSql = sql<DirectConversationListRow>(
  `SELECT u.id, u.first_name, u.last_name, u.profile_picture_url, u.last_active_at, dc.unread_count,
          dc.last_seq, m.content AS last_content, m.created_at AS last_created_at
     FROM direct_conversations dc
     JOIN users u ON u.id = dc.peer_id
     LEFT JOIN direct_messages m ON m.id = dc.last_message_id
    WHERE dc.user_id = ?
    ORDER BY dc.last_seq DESC
    LIMIT ?`,
);
// Every group of the user, most recently active first. Own messages are never unread, as on the client.
// Scalar subqueries by primary key rather than joins of group_members, groups and group_messages (SQLite ran
// that join about five times slower on the benchmark's database); the newest message is joined by its id.
const userGroupsSql = sql<GroupConversationListRow>(
  `SELECT g.id, g.name, g.created_by, g.created_at, g.avatar_url,
          coalesce(m.seq, g.created_seq) AS last_seq, m.content AS last_content, m.created_at AS last_created_at,
          (SELECT count(*) FROM group_messages x
            WHERE x.group_id = g.id AND x.sender_id != ?
              AND x.seq > (SELECT read_seq FROM group_members WHERE group_id = g.id AND user_id = ?)) AS unread
     FROM groups g
     LEFT JOIN group_messages m ON m.id = ${NEWEST_GROUP_MESSAGE_ID}
    WHERE g.id IN (SELECT group_id FROM group_members WHERE user_id = ?)
    ORDER BY last_seq DESC`,
);
// Every member of each of the user's groups, in the order of membersOf (read-repo.ts), with what the
// snapshot's user list needs of them.
const groupMembersSql = sql<UserListRow & { group_id: string }>(
  `SELECT gm.group_id, u.id, u.first_name, u.last_name, u.profile_picture_url, u.last_active_at
     FROM group_members gm JOIN users u ON u.id = gm.user_id
    WHERE gm.group_id IN (SELECT group_id FROM group_members WHERE user_id = ?)
    ORDER BY gm.group_id, gm.joined_at, u.first_name`,
);

/**
 * Recent state for a device starting over (`sync_reset`): the newest conversations, the user's groups, the
 * last page of each conversation and everyone they name. Older history loads through REST on demand.
 */
export async function buildSnapshot(deps: AppDeps, userId: string): Promise<SnapshotBody> {
  const limit = SYNC.snapshotConversations;
  const per = SYNC.snapshotMessagesPerConversation;
  // One read (one consistent view) and a fixed number of queries however many conversations it carries.
  return deps.transactor.read(async (tx) => {
    const direct = await tx.all(directConversationsSql, userId, limit);
    const groupRows = await tx.all(userGroupsSql, userId, userId, userId);
    // Across a block no last-active time, in the conversations or the user list (mergeConversations).
    const separated = await separatedFrom(tx, userId);
    const conversations = mergeConversations(direct, groupRows.slice(0, limit), limit, separated);
    // The user list: everyone the snapshot names, from the rows already read where they are in them.
    const known = new Map<string, UserListRow>();
    for (const row of direct) known.set(row.id, row);
    const members = new Map<string, UserRef[]>();
    for (const row of await tx.all(groupMembersSql, userId)) {
      known.set(row.id, row);
      const list = members.get(row.group_id);
      if (list) list.push(toUserRef(row));
      else members.set(row.group_id, [toUserRef(row)]);
    }
    const groups = groupRows.map((g) => toGroup(g, members.get(g.id) ?? []));
    const partners = conversations.filter((c) => !c.isGroup).map((c) => c.id);
    const recentGroups = groups.slice(0, limit).map((g) => g.id);
    const messages = await recentDirectMessages(tx, userId, partners, per);
    const groupMessages = await recentGroupMessages(tx, recentGroups, per);
    const ids = new Set<string>([userId, ...partners]);
    for (const group of groups) for (const m of group.members) ids.add(m.id);
    for (const m of groupMessages) ids.add(m.from.id);
    // Read only who is in none of those rows (the user without a group, a sender who has left a group).
    const missing = [...ids].filter((id) => !known.has(id));
    if (missing.length) {
      const { text, params } = usersSql(missing);
      for (const row of await tx.all(text, ...params)) known.set(row.id, row);
    }
    // By id, as the query that read them all returned them.
    const users = [...ids].sort().flatMap((id) => {
      const row = known.get(id);
      if (!row) return [];
      return [toUserListEntry(separated.has(id) ? { ...row, last_active_at: null } : row)];
    });
    return { conversations, groups, messages, groupMessages, users };
  });
}
