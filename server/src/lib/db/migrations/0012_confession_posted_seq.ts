import { sql, type Kysely } from 'kysely';

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
  await sql`ALTER TABLE confessions ADD COLUMN posted_seq INTEGER`.execute(db);
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
  await sql`UPDATE confessions SET posted_seq = 0 WHERE posted_seq IS NULL`.execute(db);
  await sql`CREATE INDEX confessions_unpublished_idx ON confessions (created_at, id)
              WHERE posted_seq IS NULL AND deleted_at IS NULL`.execute(db);
}

/** The redacted texts are gone for good; the rest of the log is as it was. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX confessions_unpublished_idx`.execute(db);
  await sql`ALTER TABLE confessions DROP COLUMN posted_seq`.execute(db);
}
