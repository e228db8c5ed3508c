import Dexie from 'dexie';
import type { UserRef } from '@campus/protocol';
import type { CampusDatabase } from '../../database';
import type { ChangeAppliers } from '../../feature-contract';
import { displayName } from '../chat/conversations';

/** The newest cached messages of a direct chat whose refs are rewritten: older ones keep the old card. */
export const USER_UPDATE_MESSAGE_LIMIT = 200;

function sameCard(a: UserRef, b: UserRef): boolean {
  return (
    a.firstName === b.firstName && a.lastName === b.lastName && a.profilePictureUrl === b.profilePictureUrl
  );
}

/**
 * Puts a user's new public card everywhere the cache copies it: the users list, their direct conversation
 * row (name and avatar), the members of cached groups, and the `from`/`to` refs of the newest cached
 * messages of their direct chat (bounded by the [peerId+seq] index). Idempotent: it writes the same card
 * again, and rows already showing it are left alone.
 */
export async function applyUserCard(db: CampusDatabase, selfId: string, user: UserRef): Promise<void> {
  const card = {
    firstName: user.firstName,
    lastName: user.lastName,
    profilePictureUrl: user.profilePictureUrl,
  };
  const cached = await db.users.get(user.id);
  if (cached && !sameCard(cached, user)) await db.users.put({ ...cached, ...card });

  const conversation = await db.conversations.get(user.id);
  if (conversation && !conversation.isGroup) {
    const name = displayName(user);
    if (conversation.name !== name || conversation.avatarUrl !== user.profilePictureUrl)
      await db.conversations.put({ ...conversation, name, avatarUrl: user.profilePictureUrl });
  }

  const groups = await db.groups
    .filter((g) => g.members.some((m) => m.id === user.id && !sameCard(m, user)))
    .toArray();
  if (groups.length)
    await db.groups.bulkPut(
      groups.map((g) => ({
        ...g,
        members: g.members.map((m) => (m.id === user.id ? { ...m, ...card } : m)),
      })),
    );

  // My own messages are in every chat: rewriting them all is not bounded, so only a partner's chat is.
  if (user.id === selfId) return;
  const messages = await db.messages
    .where('[peerId+seq]')
    .between([user.id, Dexie.minKey], [user.id, Dexie.maxKey])
    .reverse()
    .limit(USER_UPDATE_MESSAGE_LIMIT)
    .toArray();
  const stale = messages.filter(
    (m) =>
      (m.from.id === user.id && !sameCard(m.from, user)) || (m.to.id === user.id && !sameCard(m.to, user)),
  );
  if (stale.length)
    await db.messages.bulkPut(
      stale.map((m) => ({
        ...m,
        from: m.from.id === user.id ? { ...m.from, ...card } : m.from,
        to: m.to.id === user.id ? { ...m.to, ...card } : m.to,
      })),
    );
}

/** The `meta` row holding the signed-in user's own profile as the server last sent it (`me_updated`). */
export const SELF_META_KEY = 'self';

export const userChanges = {
  user_updated: async ({ db, selfId }, change) => {
    await applyUserCard(db, selfId, change.user);
  },
  // The screens follow the row (the web's session listens to it); a change for someone else is ignored.
  me_updated: async ({ db, selfId }, change) => {
    if (change.user.id !== selfId) return;
    await db.meta.put({ key: SELF_META_KEY, value: { seq: change.seq, user: change.user } });
  },
} satisfies Partial<ChangeAppliers>;
