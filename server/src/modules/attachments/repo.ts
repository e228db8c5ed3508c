import { sql as kysql } from 'kysely';
import type { DB } from '../../lib/db/database';
import { sql, type Tx } from '../../realtime/transaction';

export interface AttachmentRecord {
  key: string;
  ownerId: string;
  scope: string;
  contentType: string;
  size: number;
  fileName: string;
  createdAt: string;
}

export const groupScope = (groupId: string) => `group:${groupId}`;
/** `pairKey` is directRoomId(a, b): "<smaller id>:<larger id>". */
export const pairScope = (pairKey: string) => `pair:${pairKey}`;

const insertSql = sql(
  `INSERT INTO attachments (key, owner_id, scope, content_type, size, file_name, created_at)
   VALUES (?, ?, ?, ?, ?, ?, ?)`,
);
const deleteSql = sql('DELETE FROM attachments WHERE key = ?');

export async function insertAttachment(tx: Tx, record: AttachmentRecord): Promise<void> {
  await tx.run(
    insertSql,
    record.key,
    record.ownerId,
    record.scope,
    record.contentType,
    record.size,
    record.fileName,
    record.createdAt,
  );
}

export async function deleteAttachment(tx: Tx, key: string): Promise<void> {
  await tx.run(deleteSql, key);
}

export async function findAttachment(
  db: DB,
  key: string,
): Promise<{ content_type: string; file_name: string; size: number } | undefined> {
  return db
    .selectFrom('attachments')
    .select(['content_type', 'file_name', 'size'])
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * The keys among `keys` that `userId` may see, in one query: files sent to a group the user is in
 * (group_members_user_idx) or to a pair the user is one of ("pair:<me>:…" or "pair:…:<me>").
 */
export async function visibleFiles(
  db: DB,
  userId: string,
  keys: readonly string[],
): Promise<{ key: string; content_type: string; file_name: string }[]> {
  if (keys.length === 0) return [];
  const prefix = `pair:${userId}:`;
  const suffix = `:${userId}`;
  const rows = await db
    .selectFrom('attachments')
    .select(['key', 'content_type', 'file_name'])
    .where('key', 'in', keys)
    .where((eb) =>
      eb.or([
        eb(
          'scope',
          'in',
          eb
            .selectFrom('group_members')
            .select(kysql<string>`'group:' || group_id`.as('scope'))
            .where('user_id', '=', userId),
        ),
        eb(kysql`substr(scope, 1, ${prefix.length})`, '=', prefix),
        eb.and([
          eb(kysql`substr(scope, 1, 5)`, '=', 'pair:'),
          // The last characters: PostgreSQL's substr takes no negative start (it returns the whole text).
          eb(kysql`substr(scope, length(scope) - ${suffix.length - 1})`, '=', suffix),
        ]),
      ]),
    )
    .execute();
  return rows;
}
