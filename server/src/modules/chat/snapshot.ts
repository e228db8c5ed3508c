import { SYNC } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import type { SnapshotBody } from '../../realtime/registry';
import { sql } from '../../realtime/transaction';
import { toUserListEntry, type UserListRow } from '../users';
import { listConversations, listUserGroups } from './read-repo';
import { recentDirectMessages, recentGroupMessages } from './snapshot-pages';

const usersSql = sql<UserListRow>(
  `SELECT id, first_name, last_name, profile_picture_url, last_active_at
     FROM users WHERE id IN (SELECT value FROM json_each(?))`,
);

/**
 * Recent state for a device starting over (`sync_reset`): the newest conversations, the user's groups, the
 * last page of each conversation and everyone they name. Older history loads through REST on demand.
 */
export async function buildSnapshot(deps: AppDeps, userId: string): Promise<SnapshotBody> {
  const [conversations, groups] = await Promise.all([
    listConversations(deps.db, userId, SYNC.snapshotConversations),
    listUserGroups(deps.db, userId),
  ]);
  const per = SYNC.snapshotMessagesPerConversation;
  const partners = conversations.filter((c) => !c.isGroup).map((c) => c.id);
  const recentGroups = groups.slice(0, SYNC.snapshotConversations).map((g) => g.id);
  // A fixed number of queries however many conversations the snapshot carries (no page query per one).
  return deps.transactor.read(async (tx) => {
    const messages = await recentDirectMessages(tx, userId, partners, per);
    const groupMessages = await recentGroupMessages(tx, recentGroups, per);
    const ids = new Set<string>([userId, ...partners]);
    for (const group of groups) for (const m of group.members) ids.add(m.id);
    for (const m of groupMessages) ids.add(m.from.id);
    const users = (await tx.all(usersSql, JSON.stringify([...ids]))).map(toUserListEntry);
    return { conversations, groups, messages, groupMessages, users };
  });
}
