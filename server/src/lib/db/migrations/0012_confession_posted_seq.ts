import { sql, type Kysely } from 'kysely';
import { ddl, dialectOf } from './dialect';

/**
 * confessions.posted_seq: the seq of the confession's `confession_posted` change, so deleting it can redact
 * that change (its text must not stay readable through pulls for the log's 30 days). NULL means not yet
 * announced: the publisher announces posts a few seconds after their commit and finds what a stopped
 * process left unsent by the partial index.
 *
 * Rows from before: the seq of their change still in the log, else 0 (announced, pruned since: nothing to
 * redact). Already deleted confessions get their posted change redacted here, as a deletion now does: the
 * entry becomes the deletion, with its seq and audiences (the payload is the change as the engine logs it,
 * copied here on purpose: a migration must not change when the engine does).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await ddl(db, `ALTER TABLE confessions ADD COLUMN posted_seq INTEGER`);
  if (dialectOf(db) === 'postgres') await postgresBackfill(db);
  else await sqliteBackfill(db);
  await sql`UPDATE confessions SET posted_seq = 0 WHERE posted_seq IS NULL`.execute(db);
  await sql`CREATE INDEX confessions_unpublished_idx ON confessions (created_at, id)
              WHERE posted_seq IS NULL AND deleted_at IS NULL`.execute(db);
}

async function sqliteBackfill(db: Kysely<unknown>): Promise<void> {
  // One pass over the log's posted changes (the log keeps 30 days), each matched by primary key.
  await sql`UPDATE confessions SET posted_seq = posted.seq
              FROM (SELECT seq, json_extract(payload, '$.confession.id') AS id FROM change_log
                     WHERE type = 'confession_posted') AS posted
             WHERE confessions.id = posted.id`.execute(db);
  await sql`UPDATE change_log
               SET type = 'confession_deleted',
                   payload = json_object('type', 'confession_deleted',
                                         'confessionId', json_extract(payload, '$.confession.id'), 'seq', seq)
             WHERE type = 'confession_posted'
               AND seq IN (SELECT posted_seq FROM confessions WHERE deleted_at IS NOT NULL)`.execute(db);
}

/**
 * The same on PostgreSQL: the log's JSON read with jsonb's operators, and the redacted payload written by
 * JSON.stringify, which gives the bytes SQLite's json_object does (no spaces, keys in this order), where
 * PostgreSQL's json_build_object would add spaces and jsonb would reorder the keys.
 */
async function postgresBackfill(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE confessions SET posted_seq = posted.seq
              FROM (SELECT seq, payload::jsonb #>> '{confession,id}' AS id FROM change_log
                     WHERE type = 'confession_posted') AS posted
             WHERE confessions.id = posted.id`.execute(db);
  const redacted = await sql<{ seq: number; id: string | null }>`
    SELECT seq, payload::jsonb #>> '{confession,id}' AS id FROM change_log
     WHERE type = 'confession_posted'
       AND seq IN (SELECT posted_seq FROM confessions WHERE deleted_at IS NOT NULL)`.execute(db);
  for (const { seq, id } of redacted.rows) {
    const payload = JSON.stringify({ type: 'confession_deleted', confessionId: id, seq });
    await sql`UPDATE change_log SET type = 'confession_deleted', payload = ${payload} WHERE seq = ${seq}`.execute(
      db,
    );
  }
}

/** The redacted texts are gone for good; the rest of the log is as it was. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX confessions_unpublished_idx`.execute(db);
  await sql`ALTER TABLE confessions DROP COLUMN posted_seq`.execute(db);
}
