import { REALTIME_ERRORS, type ServerFrame } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { audience } from '../../realtime/audiences';
import type { Session, SessionHooks } from '../../realtime/registry';
import { sql, type Query, type ReadTx, type SqlParam, type Tx } from '../../realtime/transaction';
import { userRefsOf, type UserRefReader } from '../users';
import { contactsMadeBy, sessionState } from './contacts';
import { deliveryReceiptsOf } from './delivery-receipts';
import { GROUP_ACTIVITY_SEQ } from './group-activity';
import { buildSnapshot } from './snapshot';
import { isGroupMember } from './writes';

// Only a mark that moves is written (and told to the user's other devices). The group's activity is its
// newest message's seq (group-activity.ts).
const groupActivitySql = `(SELECT ${GROUP_ACTIVITY_SEQ} FROM groups g WHERE g.id = ?)`;
const advanceReadSql = sql(
  `UPDATE group_members SET read_seq = ${groupActivitySql}
    WHERE group_id = ? AND user_id = ? AND read_seq < ${groupActivitySql}`,
);
// Whether the mark would move: most openings of a group find nothing new, and then take no write lock.
const behindSql = sql<{ one: number }>(
  `SELECT 1 AS one FROM group_members m JOIN groups g ON g.id = m.group_id
    WHERE m.group_id = ? AND m.user_id = ? AND m.read_seq < ${GROUP_ACTIVITY_SEQ}`,
);
const readSeqSql = sql<{ read_seq: number }>(
  'SELECT read_seq FROM group_members WHERE group_id = ? AND user_id = ?',
);
const touchSql = sql('UPDATE users SET last_active_at = ? WHERE id = ?');

function refuseGroup(session: Session, groupId: string): void {
  const error = REALTIME_ERRORS.notGroupMember;
  session.send({ type: 'message_error', code: 'notGroupMember', error, context: 'group', groupId });
}

/**
 * Chat's part in a connection's life (the engine's SessionHooks): which groups and contacts a user starts
 * with, the snapshot of a device starting over, delivery receipts after a catch-up, last-active times, and
 * the frames join_chat, join_group and typing.
 */
export function chatSessionHooks(deps: AppDeps): SessionHooks {
  const refs = userRefsOf(deps);
  const receipts = deliveryReceiptsOf(deps);
  const commit = <T>(fn: (tx: Tx) => Promise<T>) => deps.transactor.commit(fn);
  // Reads take no write transaction: an outside writer (the seed CLI) holding the file then cannot make
  // them wait out the busy timeout on the event loop, and they never run inside another commit.
  const read = <T>(fn: (tx: ReadTx) => Promise<T>) => deps.transactor.read(fn);
  // A read only on a cache miss.
  const refReader: UserRefReader = {
    first: <Row>(query: Query<Row>, ...params: SqlParam[]) => read((tx) => tx.first(query, ...params)),
  };

  /** Membership from the connection's audiences, else the database (a group made since hello). */
  async function member(session: Session, groupId: string): Promise<boolean> {
    const key = audience.group(groupId);
    if (session.hasAudience(key)) return true;
    if (!(await read((tx) => isGroupMember(tx, groupId, session.userId)))) return false;
    session.joinAudience(key);
    return true;
  }

  /** Typing goes to the partner only (roomId), if a contact, or to the other members of the group. */
  async function typing(
    session: Session,
    frame: { roomId?: string; groupId?: string },
    start: boolean,
  ): Promise<void> {
    const fromUserId = session.userId;
    if (frame.groupId) {
      const groupId = frame.groupId;
      if (!(await member(session, groupId))) return refuseGroup(session, groupId);
      const type = start ? 'group_member_typing' : 'group_member_stop_typing';
      return deps.realtime.sendToAudience(audience.group(groupId), { type, fromUserId, groupId }, fromUserId);
    }
    if (!frame.roomId || frame.roomId === fromUserId) return;
    // Dropped without a word: an answer would tell a stranger something about the user.
    if (!session.isContact(frame.roomId)) return;
    deps.realtime.sendToUsers([frame.roomId], {
      type: start ? 'peer_typing' : 'peer_stop_typing',
      fromUserId,
    });
  }

  return {
    open: (userId) => read((tx) => sessionState(tx, userId)),
    contactsOf: (userIds) =>
      read(async (tx) => {
        const contacts = new Map<string, readonly string[]>();
        for (const userId of userIds) contacts.set(userId, (await sessionState(tx, userId)).contacts);
        return contacts;
      }),
    contactsMadeBy,
    snapshot: (userId) => buildSnapshot(deps, userId),
    caughtUp(session, seq) {
      void receipts.caughtUp(session.userId, seq);
    },
    async wentOffline(userId, lastActiveAt) {
      await commit((tx) => tx.run(touchSql, lastActiveAt, userId));
    },
    frames: {
      /**
       * The user opened a chat with `peerId` and gets the online list. A contact's presence is watched; a
       * stranger's is not, and the list leaves them out, so to the opener they look offline with no
       * last-active time until a first message makes them contacts.
       */
      async join_chat(session, { peerId }) {
        if (peerId === session.userId || !(await refs.get(refReader, peerId))) {
          const error = REALTIME_ERRORS.unknownUser;
          const frame: ServerFrame = {
            type: 'message_error',
            code: 'unknownUser',
            error,
            context: 'join_chat',
          };
          return session.send(frame);
        }
        session.openChat(session.isContact(peerId) ? peerId : undefined);
      },
      /** The user opened a group: members only; everything in it so far counts as seen. */
      async join_group(session, { groupId }) {
        if (!(await member(session, groupId))) return refuseGroup(session, groupId);
        if (!(await read((tx) => tx.first(behindSql, groupId, session.userId)))) return;
        await commit(async (tx) => {
          if ((await tx.run(advanceReadSql, groupId, groupId, session.userId, groupId)) === 0) return;
          const row = await tx.first(readSeqSql, groupId, session.userId);
          if (row)
            tx.emit({ type: 'group_read', groupId, readSeq: row.read_seq }, [audience.user(session.userId)]);
        });
      },
      typing: (session, frame) => typing(session, frame, true),
      stop_typing: (session, frame) => typing(session, frame, false),
    },
  };
}
