import { SYNC, type SyncResetFrame, type UserListEntry } from '@campus/protocol';
import type { AppDeps } from '../lib/deps';
import { listConversations, listUserGroups } from '../modules/chat/read-repo';
import { recentDirectMessages, recentGroupMessages } from './snapshot-pages';

interface UserRow {
  id: string;
  first_name: string;
  last_name: string;
  profile_picture_url: string | null;
  last_active_at: string | null;
}

/**
 * Recent state for a device starting over: the newest conversations, the user's groups, the last page of
 * each conversation and everyone they name. Older history loads through REST on demand.
 */
export async function buildSnapshot(
  deps: AppDeps,
  userId: string,
): Promise<Omit<SyncResetFrame, 'type' | 'cursor'>> {
  const { db } = deps;
  const [conversations, groups] = await Promise.all([
    listConversations(db, userId, SYNC.snapshotConversations),
    listUserGroups(db, userId),
  ]);
  const per = SYNC.snapshotMessagesPerConversation;
  const partners = conversations.filter((c) => !c.isGroup).map((c) => c.id);
  const recentGroups = groups.slice(0, SYNC.snapshotConversations);
  // A fixed number of queries however many conversations the snapshot carries (no page query per one).
  const messages = recentDirectMessages(deps.sqlite, userId, partners, per);
  const groupMessages = recentGroupMessages(
    deps.sqlite,
    recentGroups.map((g) => g.id),
    per,
  );

  const ids = new Set<string>([userId, ...partners]);
  for (const group of groups) for (const m of group.members) ids.add(m.id);
  for (const m of groupMessages) ids.add(m.from.id);
  const rows = deps.sqlite
    .prepare<[string], UserRow>(
      `SELECT id, first_name, last_name, profile_picture_url, last_active_at
         FROM users WHERE id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify([...ids]));
  const users: UserListEntry[] = rows.map((r) => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    profilePictureUrl: r.profile_picture_url,
    lastActiveAt: r.last_active_at,
  }));
  return { conversations, groups, messages, groupMessages, users };
}
