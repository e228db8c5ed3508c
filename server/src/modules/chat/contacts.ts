import type { Change } from '@campus/protocol';
import { audience, type Audience } from '../../realtime/audiences';
import { sql, type ReadTx } from '../../realtime/transaction';

/**
 * Who may see whose presence and typing: contacts only, so a stranger who knows a user id learns nothing
 * (issue 9). Contacts are people who share a direct chat with at least one message or a group, and friends
 * (issue 12); never two people of whom one blocked the other.
 *
 * The engine reads the set once per connection at hello and grows it from the changes the connection
 * sees, so the hot path (typing, join_chat, going on/offline) never queries: it is one Set lookup. With it
 * come the people with a block between them and the user (`separated`): the engine never makes them
 * contacts from a change (a group's members) and drops a group's typing between them.
 */
// Everyone the user shares a direct chat, a group or a friendship with, repeats included; sessionState
// leaves out those separated by a block either way (migration 0015's primary key and blocks_blocked_idx give
// that list). UNION ALL and filtering in JS, rather than UNION with the block subqueries in SQL, and the
// co-members through IN rather than a self-join: SQLite ran those about twice as slowly, and this runs at
// every sign-in (1,000 of them at once after a restart).
const contactCandidatesSql = sql<{ id: string }>(
  `SELECT peer_id AS id FROM direct_conversations WHERE user_id = ?
   UNION ALL
   SELECT user_id FROM group_members
    WHERE group_id IN (SELECT group_id FROM group_members WHERE user_id = ?) AND user_id <> ?
   UNION ALL
   SELECT user_b FROM friendships WHERE user_a = ?
   UNION ALL
   SELECT user_a FROM friendships WHERE user_b = ?`,
);
const groupsSql = sql<{ group_id: string }>('SELECT group_id FROM group_members WHERE user_id = ?');
// Blocks either way: the primary key, then blocks_blocked_idx. UNION ALL (two who blocked each other come
// twice; the connection keeps a Set): UNION drops repeats through a temporary B-tree, 4.8 µs against 0.9
// for a user with no block on SQLite (7.5 against 2.3 with some), at every sign-in.
const separatedSql = sql<{ id: string }>(
  `SELECT blocked_id AS id FROM blocks WHERE blocker_id = ?
   UNION ALL SELECT blocker_id FROM blocks WHERE blocked_id = ?`,
);

/**
 * A connection's audiences besides the user's own (their groups), their contacts and the people with a
 * block between them either way, at hello (one read: the three agree).
 */
export async function sessionState(
  tx: ReadTx,
  userId: string,
): Promise<{ audiences: Audience[]; contacts: string[]; separated: string[] }> {
  const groups = await tx.all(groupsSql, userId);
  const candidates = await tx.all(contactCandidatesSql, userId, userId, userId, userId, userId);
  const separated = (await tx.all(separatedSql, userId, userId)).map((c) => c.id);
  const excluded = new Set(separated);
  const contacts = new Set<string>();
  for (const { id } of candidates) if (!excluded.has(id)) contacts.add(id);
  return {
    audiences: groups.map((g) => audience.group(g.group_id)),
    // Sorted, as the UNION this replaced returned them.
    contacts: [...contacts].sort(),
    separated,
  };
}

/** The people with a block between them and `userId`, either way (one read, two index lookups). */
export async function separatedFrom(tx: Pick<ReadTx, 'all'>, userId: string): Promise<Set<string>> {
  return new Set((await tx.all(separatedSql, userId, userId)).map((c) => c.id));
}

const NONE: readonly string[] = [];

/**
 * The people a change makes contacts of `userId`: the other side of a direct message, a new friend, a
 * group's members. The engine leaves out those separated from the user by a block (a group's members may
 * include someone either of them blocked).
 */
export function contactsMadeBy(userId: string, change: Change): readonly string[] {
  switch (change.type) {
    case 'receive_message': {
      const { from, to } = change.message;
      if (to.id === userId) return [from.id];
      return from.id === userId ? [to.id] : NONE;
    }
    case 'friendship_changed':
      return change.added ? [change.friend.id] : NONE;
    case 'group_joined':
      return change.group.members.filter((m) => m.id !== userId).map((m) => m.id);
    default:
      return NONE;
  }
}

const directPeersSql = sql<{ id: string }>(
  'SELECT peer_id AS id FROM direct_conversations WHERE user_id = ?',
);

/**
 * The audiences that reach `userId`'s contacts (for a change to their public card): each direct chat
 * partner by user, and each of their groups by the group's audience, never by listing its members, so the
 * fan-out stays one key per chat or group however large the groups are. The user's own audience is not in it.
 */
export async function contactAudiences(tx: Pick<ReadTx, 'all'>, userId: string): Promise<Audience[]> {
  const peers = await tx.all(directPeersSql, userId);
  const groups = await tx.all(groupsSql, userId);
  return [...peers.map((p) => audience.user(p.id)), ...groups.map((g) => audience.group(g.group_id))];
}
