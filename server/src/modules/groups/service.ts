import { randomUUID } from 'node:crypto';
import { CHAT, CHAT_MSG, CHAT_SERVER_MSG, type CreateGroupBody, type Group } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { inList } from '../../lib/db/portable-sql';
import { HttpError } from '../../lib/http-error';
import { audience } from '../../realtime/audiences';
import { sql, type Tx } from '../../realtime/transaction';
import { isBlockedWithAny } from '../friends';
import { toUserRef, type UserRefRow } from '../users';

// One lookup for every member id at once (users' primary key), whatever the group's size.
const usersSql = inList((ids) =>
  sql<UserRefRow>(`SELECT id, first_name, last_name, profile_picture_url FROM users WHERE id IN (${ids})`),
);
const insertGroupSql = sql(
  `INSERT INTO groups (id, name, created_by, created_at, avatar_url, created_seq)
   VALUES (?, ?, ?, ?, NULL, 0)`,
);
const insertMemberSql = sql(
  'INSERT INTO group_members (group_id, user_id, joined_at, read_seq) VALUES (?, ?, ?, 0)',
);
// A new group sorts among conversations by when it was made, until its first message (group-activity.ts).
const setCreatedSeqSql = sql('UPDATE groups SET created_seq = ? WHERE id = ?');
// Members who are not yet the creator's contacts (the presence rule): each listed user once (users' primary
// key), then per member the direct pair's primary key and the creator's groups (group_members_user_idx)
// probed by (group_id, user_id). Parameters: ...member ids, creator, creator, creator.
const strangersSql = inList((ids) =>
  sql<{ n: number }>(
    `SELECT count(*) AS n FROM users u
      WHERE u.id IN (${ids}) AND u.id <> ?
        AND NOT EXISTS (SELECT 1 FROM direct_conversations d WHERE d.user_id = ? AND d.peer_id = u.id)
        AND NOT EXISTS (
          SELECT 1 FROM group_members m
            JOIN group_members o ON o.group_id = m.group_id AND o.user_id = u.id
           WHERE m.user_id = ?)`,
  ),
);

/** How many of `memberIds` are users who are not yet contacts of `creatorId` (unknown ids: creation refuses them). */
export async function countStrangers(
  tx: Pick<Tx, 'first'>,
  creatorId: string,
  memberIds: readonly string[],
): Promise<number> {
  const { text, params } = strangersSql([...new Set(memberIds)]);
  const row = await tx.first(text, ...params, creatorId, creatorId, creatorId);
  return Number(row?.n ?? 0);
}

/**
 * Writes a group with the creator and the chosen members (duplicates ignored) and tells every member's
 * devices through one `group_joined` change. Unknown member ids refuse the whole group, and so does a member
 * who blocked the creator or whom the creator blocked (issue 12): a group would make them contacts and put
 * the blocked one's messages before the other. The refusal reads the same whichever side blocked. Members
 * who block each other later, or two members of whom neither is the creator, stay members; the engine keeps
 * them apart (no contact, presence or typing between them).
 */
export async function insertGroup(tx: Tx, creatorId: string, body: CreateGroupBody): Promise<Group> {
  const others = [...new Set(body.memberIds)].filter((id) => id !== creatorId);
  if (others.length === 0) throw new HttpError(400, CHAT_MSG.groupMembersRequired);
  const memberIds = [creatorId, ...others];
  if (memberIds.length > CHAT.maxGroupMembers) throw new HttpError(400, CHAT_SERVER_MSG.tooManyMembers);
  const users = usersSql(memberIds);
  const found = new Map((await tx.all(users.text, ...users.params)).map((row) => [row.id, row]));
  if (found.size !== memberIds.length) throw new HttpError(400, CHAT_SERVER_MSG.memberUnknown);
  if (await isBlockedWithAny(tx, creatorId, others)) throw new HttpError(403, CHAT_SERVER_MSG.memberBlocked);

  const group: Group = {
    id: randomUUID(),
    name: body.name,
    createdAt: new Date(tx.now).toISOString(),
    createdBy: creatorId,
    members: memberIds.map((id) => toUserRef(found.get(id)!)),
    avatarUrl: null,
  };
  await tx.run(insertGroupSql, group.id, group.name, creatorId, group.createdAt);
  for (const id of memberIds) await tx.run(insertMemberSql, group.id, id, group.createdAt);
  const change = tx.emit({ type: 'group_joined', group }, memberIds.map(audience.user));
  await tx.run(setCreatedSeqSql, change.seq, group.id);
  return group;
}

export interface CreateGroupOptions {
  /** Charged for the members who are not yet the creator's contacts, before anything is written. */
  admitStrangers?(count: number): Promise<void>;
}

/**
 * Creates a group in a transaction of its own. Members' live connections join the group's audience when
 * its `group_joined` reaches them (chat's change hook).
 */
export async function createGroup(
  deps: AppDeps,
  creatorId: string,
  body: CreateGroupBody,
  options: CreateGroupOptions = {},
): Promise<Group> {
  if (options.admitStrangers) {
    // Counted and charged before the commit: the charge may ask Redis (every node's count), and a commit
    // awaits nothing but its transaction. Contacts made in between only make the charge a little high.
    const strangers = await deps.transactor.read((tx) => countStrangers(tx, creatorId, body.memberIds));
    if (strangers > 0) await options.admitStrangers(strangers);
  }
  return deps.transactor.commit((tx) => insertGroup(tx, creatorId, body));
}
