import {
  directRoomId,
  type ConversationItem,
  type DirectMessage,
  type Group,
  type GroupMessage,
  type Reaction,
  type UserRef,
} from '@campus/protocol';
import { sql, type SqlBool } from 'kysely';
import type { DB } from '../../lib/db/database';
import { toUserRef, type UserRefRow } from '../users';
import { GROUP_ACTIVITY_SEQ, NEWEST_GROUP_MESSAGE_ID } from './group-activity';
import {
  toDirectConversation,
  toDirectMessage,
  toGroup,
  toGroupConversation,
  toGroupMessage,
  type GroupRow,
} from './mappers';

/**
 * Chat reads for REST and for the realtime `sync_reset` snapshot. Each function runs a fixed number of
 * indexed queries whatever the number of rows (no N+1); the index each one relies on is named beside it.
 */

/**
 * The Talk home list: direct conversations (direct_conversations_recent_idx) and the user's groups
 * (group_members_user_idx), newest first by change-log seq, which is one global order for both kinds.
 * Two queries; a group's newest message is found and its unread count counted on
 * group_messages_group_seq_idx (group-activity.ts).
 */
export async function listConversations(db: DB, userId: string, limit: number): Promise<ConversationItem[]> {
  const [direct, groups] = await Promise.all([
    db
      .selectFrom('direct_conversations as dc')
      .innerJoin('users as u', 'u.id', 'dc.peer_id')
      .leftJoin('direct_messages as m', 'm.id', 'dc.last_message_id')
      .select([
        'u.id',
        'u.first_name',
        'u.last_name',
        'u.profile_picture_url',
        'u.last_active_at',
        'dc.unread_count',
        'dc.last_seq',
        'm.content as last_content',
        'm.created_at as last_created_at',
      ])
      .where('dc.user_id', '=', userId)
      .orderBy('dc.last_seq', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('group_members as gm')
      .innerJoin('groups as g', 'g.id', 'gm.group_id')
      .leftJoin('group_messages as m', (join) =>
        join.on(sql<SqlBool>`m.id = ${sql.raw(NEWEST_GROUP_MESSAGE_ID)}`),
      )
      .select((eb) => [
        'g.id',
        'g.name',
        'g.created_by',
        'g.created_at',
        'g.avatar_url',
        eb.fn.coalesce('m.seq', 'g.created_seq').as('last_seq'),
        'm.content as last_content',
        'm.created_at as last_created_at',
        // Own messages are never unread, as on the client ("raises the unread count when sent by someone else").
        eb
          .selectFrom('group_messages as x')
          .select((x) => x.fn.countAll<number>().as('n'))
          .whereRef('x.group_id', '=', 'g.id')
          .whereRef('x.seq', '>', 'gm.read_seq')
          .where('x.sender_id', '!=', userId)
          .as('unread'),
      ])
      .where('gm.user_id', '=', userId)
      .orderBy('last_seq', 'desc')
      .limit(limit)
      .execute(),
  ]);

  return mergeConversations(direct, groups, limit, await separatedVia(db, userId));
}

/** The people with a block between them and `userId`, either way, through Kysely (see contacts.ts). */
async function separatedVia(db: DB, userId: string): Promise<Set<string>> {
  const [blocked, blockers] = await Promise.all([
    db.selectFrom('blocks').select('blocked_id as id').where('blocker_id', '=', userId).execute(),
    db.selectFrom('blocks').select('blocker_id as id').where('blocked_id', '=', userId).execute(),
  ]);
  return new Set([...blocked, ...blockers].map((row) => row.id));
}

/** A direct conversation's row as listConversations and the snapshot read it. */
export type DirectConversationListRow = UserRefRow & {
  last_active_at: string | null;
  unread_count: number;
  last_seq: number;
  last_content: string | null;
  last_created_at: string | null;
};
/** A group conversation's row as listConversations and the snapshot read it. */
export type GroupConversationListRow = GroupRow & {
  last_seq: number;
  last_content: string | null;
  last_created_at: string | null;
  unread: number | null;
};

/**
 * Both kinds in one list, newest first by change-log seq (one global order), the first `limit`. A partner
 * `separated` from the user by a block (either way) shows no last-active time: polled, it would tell when
 * they come and go, as presence does not across a block.
 */
export function mergeConversations(
  direct: readonly DirectConversationListRow[],
  groups: readonly GroupConversationListRow[],
  limit: number,
  separated: ReadonlySet<string>,
): ConversationItem[] {
  const items = [
    ...direct.map((row) => ({
      seq: row.last_seq,
      item: toDirectConversation({
        peer: separated.has(row.id) ? { ...row, last_active_at: null } : row,
        unread_count: row.unread_count,
        last_content: row.last_content,
        last_created_at: row.last_created_at,
      }),
    })),
    ...groups.map((row) => ({
      seq: row.last_seq,
      item: toGroupConversation({
        group: row,
        unread: Number(row.unread ?? 0),
        last_content: row.last_content,
        last_created_at: row.last_created_at,
      }),
    })),
  ];
  items.sort((a, b) => b.seq - a.seq);
  return items.slice(0, limit).map((entry) => entry.item);
}

/** Members of the given groups, keyed by group id: one query, ordered by when they joined. */
async function membersOf(db: DB, groupIds: readonly string[]): Promise<Map<string, UserRef[]>> {
  const byGroup = new Map<string, UserRef[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return byGroup;
  const rows = await db
    .selectFrom('group_members as gm')
    .innerJoin('users as u', 'u.id', 'gm.user_id')
    .select(['gm.group_id', 'u.id', 'u.first_name', 'u.last_name', 'u.profile_picture_url'])
    .where('gm.group_id', 'in', groupIds)
    .orderBy('gm.group_id')
    .orderBy('gm.joined_at')
    .orderBy('u.first_name')
    .execute();
  for (const row of rows) byGroup.get(row.group_id)?.push(toUserRef(row));
  return byGroup;
}

/** Every group the user belongs to, with members; most recently active first. Two queries. */
export async function listUserGroups(db: DB, userId: string): Promise<Group[]> {
  const groups = await db
    .selectFrom('group_members as gm')
    .innerJoin('groups as g', 'g.id', 'gm.group_id')
    .select(['g.id', 'g.name', 'g.created_by', 'g.created_at', 'g.avatar_url'])
    .where('gm.user_id', '=', userId)
    .orderBy(sql`${sql.raw(GROUP_ACTIVITY_SEQ)}`, 'desc')
    .execute();
  const members = await membersOf(
    db,
    groups.map((g) => g.id),
  );
  return groups.map((g) => toGroup(g, members.get(g.id) ?? []));
}

/** One group with its members, or undefined. */
export async function findGroup(db: DB, groupId: string): Promise<Group | undefined> {
  const row = await db
    .selectFrom('groups')
    .select(['id', 'name', 'created_by', 'created_at', 'avatar_url'])
    .where('id', '=', groupId)
    .executeTakeFirst();
  if (!row) return undefined;
  const members = await membersOf(db, [row.id]);
  return toGroup(row, members.get(row.id) ?? []);
}

/** Reactions of a page of direct messages: one query on message_reactions' primary key. */
async function reactionsOf(db: DB, messageIds: readonly string[]): Promise<Map<string, Reaction[]>> {
  const byMessage = new Map<string, Reaction[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await db
    .selectFrom('message_reactions')
    .select(['message_id', 'user_id', 'emoji'])
    .where('message_id', 'in', messageIds)
    // The primary key's order, so both databases list a message's reactions alike.
    .orderBy('message_id')
    .orderBy('user_id')
    .execute();
  for (const row of rows) {
    const list = byMessage.get(row.message_id) ?? [];
    list.push({ emoji: row.emoji, userId: row.user_id });
    byMessage.set(row.message_id, list);
  }
  return byMessage;
}

/** A page of a direct chat, newest first (page 1 = the newest `limit`), on direct_messages_pair_seq_idx. */
export async function directPage(
  db: DB,
  userId: string,
  partnerId: string,
  page: number,
  limit: number,
): Promise<DirectMessage[]> {
  const rows = await db
    .selectFrom('direct_messages as m')
    .innerJoin('users as s', 's.id', 'm.sender_id')
    .innerJoin('users as r', 'r.id', 'm.recipient_id')
    .select([
      'm.id',
      'm.content',
      'm.created_at',
      'm.status',
      'm.reply_to',
      'm.attachment_key',
      'm.attachment_type',
      'm.seq',
      's.id as s_id',
      's.first_name as s_first_name',
      's.last_name as s_last_name',
      's.profile_picture_url as s_picture',
      'r.id as r_id',
      'r.first_name as r_first_name',
      'r.last_name as r_last_name',
      'r.profile_picture_url as r_picture',
    ])
    .where('m.pair', '=', directRoomId(userId, partnerId))
    .orderBy('m.seq', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  const reactions = await reactionsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toDirectMessage(
      row,
      toUserRef({
        id: row.s_id,
        first_name: row.s_first_name,
        last_name: row.s_last_name,
        profile_picture_url: row.s_picture,
      }),
      toUserRef({
        id: row.r_id,
        first_name: row.r_first_name,
        last_name: row.r_last_name,
        profile_picture_url: row.r_picture,
      }),
      reactions.get(row.id) ?? [],
    ),
  );
}

/** A page of a group's messages, newest first, on group_messages_group_seq_idx. One query. */
export async function groupPage(
  db: DB,
  groupId: string,
  page: number,
  limit: number,
): Promise<GroupMessage[]> {
  const rows = await db
    .selectFrom('group_messages as m')
    .innerJoin('users as u', 'u.id', 'm.sender_id')
    .select([
      'm.id',
      'm.group_id',
      'm.content',
      'm.created_at',
      'm.attachment_key',
      'm.attachment_type',
      'm.seq',
      'u.id as u_id',
      'u.first_name',
      'u.last_name',
      'u.profile_picture_url',
    ])
    .where('m.group_id', '=', groupId)
    .orderBy('m.seq', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return rows.map((row) => toGroupMessage(row, toUserRef({ ...row, id: row.u_id })));
}
