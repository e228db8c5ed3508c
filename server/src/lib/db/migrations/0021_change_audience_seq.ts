import { sql, type Kysely } from 'kysely';

/**
 * change_audience by seq (issue 14). Its key is (audience, seq), which serves a pull (one audience after a
 * cursor) but not the reads that go by seq alone: a node adopting the entries another node committed (the
 * PostgreSQL commit path and the Redis bus's gap reads, and SQLite's outside-writer adoption read the
 * audiences of `seq > n` or `seq = l.seq`) and the prune (`seq <= n`). Without it each of those scans the
 * whole table, which grows with the log: two nodes on PostgreSQL wrote about 250 messages/s against about
 * 1,000 with the index (docs/deploying.md, capacity plan).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX change_audience_seq_idx ON change_audience (seq)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX change_audience_seq_idx`.execute(db);
}
