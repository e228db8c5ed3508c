import type { Change } from '@campus/protocol';

/**
 * Who may see whose presence and typing: contacts only, so a stranger who knows a user id learns nothing
 * (issue 9). Contacts are people who share a direct chat with at least one message or a group; a friends
 * table will add its rows to `Presence.loadContacts` and its change kind to `contactsMadeBy`, nothing else.
 *
 * The set is read once per connection at hello and grows from the changes the connection sees, so the hot
 * path (typing, join_chat, going on/offline) never queries: it is one Set lookup.
 */
export interface ContactHolder {
  readonly userId: string;
  readonly contacts: Set<string>;
}

export function areContacts(holder: ContactHolder, peerId: string): boolean {
  return holder.contacts.has(peerId);
}

/** The people a change makes contacts of `userId`: the other side of a direct message, a group's members. */
export function contactsMadeBy(userId: string, change: Change): readonly string[] {
  switch (change.type) {
    case 'receive_message': {
      const { from, to } = change.message;
      if (to.id === userId) return [from.id];
      return from.id === userId ? [to.id] : [];
    }
    case 'group_joined':
      return change.group.members.filter((m) => m.id !== userId).map((m) => m.id);
    default:
      return [];
  }
}

/**
 * Adds the contacts a change makes to the holder's set and returns the ones that are new, so the caller can
 * tell the user at once whether they are online (a first message starts presence without a reconnect).
 */
export function learnContacts(holder: ContactHolder, change: Change): string[] {
  const added: string[] = [];
  for (const id of contactsMadeBy(holder.userId, change)) {
    if (holder.contacts.has(id)) continue;
    holder.contacts.add(id);
    added.push(id);
  }
  return added;
}
