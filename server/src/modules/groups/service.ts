import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import {
  CHAT,
  CHAT_MSG,
  CHAT_SERVER_MSG,
  type CreateGroupBody,
  type Group,
  type UserRef,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { HttpError } from '../../lib/http-error';
import { toUserRef, type UserRefColumns } from '../chat/mappers';

function statements(sqlite: SQLite.Database) {
  return {
    // One lookup for every member id at once (users' primary key), whatever the group's size.
    users: sqlite.prepare<[string], UserRefColumns>(
      `SELECT id, first_name, last_name, profile_picture_url FROM users
        WHERE id IN (SELECT value FROM json_each(?))`,
    ),
    insertGroup: sqlite.prepare<[string, string, string, string]>(
      `INSERT INTO groups (id, name, created_by, created_at, avatar_url, last_message_id, last_seq)
       VALUES (?, ?, ?, ?, NULL, NULL, 0)`,
    ),
    insertMember: sqlite.prepare<[string, string, string]>(
      `INSERT INTO group_members (group_id, user_id, joined_at, read_seq) VALUES (?, ?, ?, 0)`,
    ),
    // A new group sorts among conversations by when it was made, until its first message.
    setLastSeq: sqlite.prepare<[number, string]>(`UPDATE groups SET last_seq = ? WHERE id = ?`),
    // Members who are not yet the creator's contacts (the presence rule): per member, the direct pair's
    // primary key, then the creator's groups (group_members_user_idx) probed by (group_id, user_id).
    strangers: sqlite.prepare<[string, string, string, string], { n: number }>(
      `SELECT count(*) AS n FROM (SELECT DISTINCT value AS id FROM json_each(?)) j
        WHERE j.id <> ?
          AND EXISTS (SELECT 1 FROM users u WHERE u.id = j.id)
          AND NOT EXISTS (SELECT 1 FROM direct_conversations d WHERE d.user_id = ? AND d.peer_id = j.id)
          AND NOT EXISTS (
            SELECT 1 FROM group_members m
              JOIN group_members o ON o.group_id = m.group_id AND o.user_id = j.id
             WHERE m.user_id = ?)`,
    ),
  };
}

const cache = new WeakMap<SQLite.Database, ReturnType<typeof statements>>();
function statementsFor(sqlite: SQLite.Database) {
  let s = cache.get(sqlite);
  if (!s) {
    s = statements(sqlite);
    cache.set(sqlite, s);
  }
  return s;
}

/** How many of `memberIds` are users who are not yet contacts of `creatorId` (unknown ids: creation refuses them). */
export function countStrangers(
  sqlite: SQLite.Database,
  creatorId: string,
  memberIds: readonly string[],
): number {
  const s = statementsFor(sqlite);
  return s.strangers.get(JSON.stringify(memberIds), creatorId, creatorId, creatorId)!.n;
}

/**
 * Creates a group with the creator and the chosen members (duplicates ignored) and tells every member's
 * devices through one `group_joined` change; their live connections join the group's audience at once.
 * Unknown member ids refuse the whole group.
 */
export function createGroup(deps: AppDeps, creatorId: string, body: CreateGroupBody): Group {
  const others = [...new Set(body.memberIds)].filter((id) => id !== creatorId);
  if (others.length === 0) throw new HttpError(400, CHAT_MSG.groupMembersRequired);
  const memberIds = [creatorId, ...others];
  if (memberIds.length > CHAT.maxGroupMembers) throw new HttpError(400, CHAT_SERVER_MSG.tooManyMembers);
  const s = statementsFor(deps.sqlite);

  const group = deps.realtime.commit((tx) => {
    const found = new Map(s.users.all(JSON.stringify(memberIds)).map((row) => [row.id, toUserRef(row)]));
    if (found.size !== memberIds.length) throw new HttpError(400, CHAT_SERVER_MSG.memberUnknown);
    const members: UserRef[] = memberIds.map((id) => found.get(id)!);
    const created: Group = {
      id: randomUUID(),
      name: body.name,
      createdAt: new Date(deps.now()).toISOString(),
      createdBy: creatorId,
      members,
      avatarUrl: null,
    };
    s.insertGroup.run(created.id, created.name, creatorId, created.createdAt);
    for (const id of memberIds) s.insertMember.run(created.id, id, created.createdAt);
    const change = tx.emit(
      { type: 'group_joined', group: created },
      memberIds.map((id) => `u:${id}`),
    );
    s.setLastSeq.run(change.seq, created.id);
    return created;
  });
  deps.realtime.addGroupAudience(group.id, memberIds);
  return group;
}
