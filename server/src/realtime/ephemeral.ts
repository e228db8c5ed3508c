import type SQLite from 'better-sqlite3';
import { REALTIME_ERRORS } from '@campus/protocol';
import { isGroupMember } from '../modules/chat/writes';
import type { Connection } from './connection';
import { areContacts } from './contacts';
import { userRef } from './user-refs';

interface ReadMarkStatements {
  advance: SQLite.Statement<[string, string, string, string]>;
  readSeq: SQLite.Statement<[string, string], { read_seq: number }>;
}
const readMarkStatements = new WeakMap<SQLite.Database, ReadMarkStatements>();

function statementsFor(sqlite: SQLite.Database): ReadMarkStatements {
  let s = readMarkStatements.get(sqlite);
  if (!s) {
    s = {
      // Only a mark that moves is written (and told to the user's other devices).
      advance: sqlite.prepare(
        `UPDATE group_members SET read_seq = (SELECT last_seq FROM groups WHERE id = ?)
          WHERE group_id = ? AND user_id = ? AND read_seq < (SELECT last_seq FROM groups WHERE id = ?)`,
      ),
      readSeq: sqlite.prepare('SELECT read_seq FROM group_members WHERE group_id = ? AND user_id = ?'),
    };
    readMarkStatements.set(sqlite, s);
  }
  return s;
}

/** Everything in the group so far counts as seen; the user's devices hear `group_read` when that changed. */
function markGroupSeen(conn: Connection, groupId: string): void {
  const { sqlite } = conn.rt.deps;
  const s = statementsFor(sqlite);
  conn.rt.hub.commit((tx) => {
    if (s.advance.run(groupId, groupId, conn.userId, groupId).changes === 0) return;
    const row = s.readSeq.get(groupId, conn.userId);
    if (row) tx.emit({ type: 'group_read', groupId, readSeq: row.read_seq }, [`u:${conn.userId}`]);
  });
}

function refuseGroup(conn: Connection, groupId: string): void {
  conn.send({ type: 'message_error', error: REALTIME_ERRORS.notGroupMember, context: 'group', groupId });
}

/** Membership from the connection's audiences, else the database (a group made since hello). */
function member(conn: Connection, groupId: string): boolean {
  const audience = `g:${groupId}`;
  if (conn.audiences.has(audience)) return true;
  if (!isGroupMember(conn.rt.deps, groupId, conn.userId)) return false;
  conn.rt.hub.addAudience(conn, audience);
  return true;
}

/**
 * The user opened a chat with `peerId` and gets the online list. A contact's presence is watched; a
 * stranger's is not, and the list leaves them out, so to the opener they look offline with no last-active
 * time until a first message makes them contacts.
 */
export function joinChat(conn: Connection, peerId: string): void {
  if (peerId === conn.userId || !userRef(conn.rt.deps.sqlite, peerId)) {
    return conn.send({ type: 'message_error', error: REALTIME_ERRORS.unknownUser, context: 'join_chat' });
  }
  const watched = areContacts(conn, peerId) ? peerId : undefined;
  conn.rt.presence.watch(conn, watched, conn.openChat);
  conn.openChat = watched;
  conn.rt.presence.sendOnlineList(conn);
}

/** The user opened a group: members only; everything in it so far counts as seen. */
export function joinGroup(conn: Connection, groupId: string): void {
  if (!member(conn, groupId)) return refuseGroup(conn, groupId);
  markGroupSeen(conn, groupId);
}

/** Typing goes to the partner only (roomId), if a contact, or to the other members of the group (groupId). */
export function typing(
  conn: Connection,
  frame: { type: 'typing' | 'stop_typing'; roomId?: string; groupId?: string },
) {
  const start = frame.type === 'typing';
  if (!conn.rt.rates.take(conn.userId)) {
    return conn.send({
      type: 'message_error',
      error: REALTIME_ERRORS.rateLimited,
      context: frame.groupId ? 'group' : frame.type,
      ...(frame.groupId ? { groupId: frame.groupId } : {}),
    });
  }
  if (frame.groupId) {
    if (!member(conn, frame.groupId)) return refuseGroup(conn, frame.groupId);
    const json = JSON.stringify({
      type: start ? 'group_member_typing' : 'group_member_stop_typing',
      fromUserId: conn.userId,
      groupId: frame.groupId,
    });
    for (const other of conn.rt.hub.audienceMembers(`g:${frame.groupId}`) ?? []) {
      if (other.userId !== conn.userId) other.sendRaw(json);
    }
    return;
  }
  if (!frame.roomId || frame.roomId === conn.userId) return;
  // Dropped without a word: an answer would tell a stranger something about the user.
  if (!areContacts(conn, frame.roomId)) return;
  conn.rt.hub.sendToUsers([frame.roomId], {
    type: start ? 'peer_typing' : 'peer_stop_typing',
    fromUserId: conn.userId,
  });
}
