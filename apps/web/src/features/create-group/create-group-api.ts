import { groupSchema, type ConversationItem, type Group } from '@campus/protocol';
import type { CampusDatabase } from '@campus/sync';
import type { ApiClient } from '../../lib/api';

/** `POST /api/groups`: the server answers the new group with its members. */
export function createGroup(api: ApiClient, name: string, memberIds: readonly string[]): Promise<Group> {
  return api.post('/api/groups', { name: name.trim(), memberIds }, groupSchema);
}

/**
 * The server also syncs the new group (group_joined), but the group screen opens at once: store it now so
 * that screen and Talk home have it without waiting for the connection. Same shape as the server's row.
 */
export async function storeCreatedGroup(db: CampusDatabase, group: Group): Promise<void> {
  const conversation: ConversationItem = {
    id: group.id,
    name: group.name,
    avatarUrl: group.avatarUrl,
    lastMessageSnippet: '',
    lastMessageTimestamp: group.createdAt,
    unreadCount: 0,
    isGroup: true,
    email: null,
    lastActiveAt: null,
  };
  await db.transaction('rw', db.groups, db.conversations, async () => {
    await db.groups.put(group);
    // A sync that got there first may already hold a newer row (a first message): keep it.
    if (!(await db.conversations.get(group.id))) await db.conversations.put(conversation);
  });
}
