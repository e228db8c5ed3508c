import type { DB } from '../../lib/db/database';

export type Membership = 'member' | 'not_member' | 'no_group';

/** Whether the group exists and the user is in it: one lookup on groups' and group_members' primary keys. */
export async function groupMembership(db: DB, groupId: string, userId: string): Promise<Membership> {
  const row = await db
    .selectFrom('groups as g')
    .leftJoin('group_members as gm', (join) =>
      join.onRef('gm.group_id', '=', 'g.id').on('gm.user_id', '=', userId),
    )
    .select(['g.id', 'gm.user_id'])
    .where('g.id', '=', groupId)
    .executeTakeFirst();
  if (!row) return 'no_group';
  return row.user_id ? 'member' : 'not_member';
}
