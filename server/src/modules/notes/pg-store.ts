import { sql, type Transaction } from 'kysely';
import type { AppDeps } from '../../deps';
import type { Database } from '../../lib/db/schema';
import { PgNotesAccess } from './pg-access';
import type { Compacted, NotesAccess, NotesStore, SnapshotWith, StoredUpdate } from './store';

/**
 * The class of the per-group advisory locks ("ct_n" in ASCII; the group's text hash is the object). Two
 * int4 keys, so they never meet the realtime engine's one-bigint commit lock (pg-transactor.ts).
 */
export const GROUP_LOCK_CLASS = 0x63745f6e;

type Db = AppDeps['db'] | Transaction<Database>;

/**
 * NotesStore on PostgreSQL (DATABASE_URL), through the server's Kysely on its pool: several nodes store
 * the same groups' rows.
 *
 * Row ids come from an identity column, and a sequence hands out ids in call order, not commit order: two
 * nodes' appends could commit 8 before 7, and a node that read 8 would count 7 as seen. So every write to
 * a group's rows (append, compaction) first takes the group's transaction-scoped advisory lock, and only
 * then draws its id: ids of one group are drawn and committed one writer at a time, in order. Readers take
 * no lock. Groups never wait for one another (a hash collision only makes two groups share a lock).
 */
export class PgNotesStore implements NotesStore {
  private readonly checks: PgNotesAccess;

  constructor(private readonly deps: Pick<AppDeps, 'db' | 'now' | 'database'>) {
    this.checks = new PgNotesAccess(deps);
  }

  get isOpen(): boolean {
    return this.deps.database.open;
  }

  access(groupId: string, userId: string): Promise<NotesAccess> {
    return this.checks.check(groupId, userId);
  }

  load(groupId: string, afterId = 0): Promise<StoredUpdate[]> {
    return this.rows(this.deps.db, groupId, afterId);
  }

  /**
   * One statement, so one round trip and its own transaction: the CTE takes the lock before the INSERT draws
   * the id (the id is computed for the row the CTE yields), and the lock is held until the statement commits.
   */
  async append(groupId: string, update: Uint8Array): Promise<number> {
    const { rows } = await sql<{ id: number }>`
      WITH locked AS (SELECT pg_advisory_xact_lock(${GROUP_LOCK_CLASS}::int4, hashtext(${groupId}::text)))
      INSERT INTO group_notes_updates (group_id, update_data, created_ms)
      SELECT ${groupId}::text, ${Buffer.from(update)}::bytea, ${this.deps.now()}::bigint FROM locked
      RETURNING id`.execute(this.deps.db);
    return rows[0]!.id;
  }

  /** In one transaction under the group's lock: no node stores a row between the read and the delete. */
  compact(groupId: string, seenId: number, snapshotWith: SnapshotWith): Promise<Compacted> {
    return this.deps.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${GROUP_LOCK_CLASS}::int4, hashtext(${groupId}::text))`.execute(
        trx,
      );
      // READ COMMITTED: this statement sees every row committed before the lock was granted.
      const unseen = (await this.rows(trx, groupId, seenId)).map((row) => row.update);
      const snapshot = snapshotWith(unseen);
      await trx.deleteFrom('group_notes_updates').where('group_id', '=', groupId).execute();
      const { id } = await trx
        .insertInto('group_notes_updates')
        .values({ group_id: groupId, update_data: Buffer.from(snapshot), created_ms: this.deps.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { snapshot, id, unseen: unseen.length };
    });
  }

  private async rows(db: Db, groupId: string, afterId: number): Promise<StoredUpdate[]> {
    const rows = await db
      .selectFrom('group_notes_updates')
      .select(['id', 'update_data'])
      .where('group_id', '=', groupId)
      .where('id', '>', afterId)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ id: row.id, update: new Uint8Array(row.update_data) }));
  }
}
