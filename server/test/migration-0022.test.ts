import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createMigrator } from '../src/lib/db/migrations';
import { createTestSchema, type TestSchema } from './support/postgres';

/**
 * 0022_group_activity: a group's activity comes from its messages, so a send no longer writes the group's
 * row. The same old rows on SQLite and PostgreSQL: up keeps each group's order, a message afterwards moves
 * its group without touching the row, and down writes last_message_id and last_seq back from the messages.
 */

async function migrate(db: Kysely<unknown>, to: string): Promise<void> {
  const { error } = await (await createMigrator(db)).migrateTo(to);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

async function seedAt0021(db: Kysely<unknown>): Promise<void> {
  const t = '2026-01-01T00:00:00.000Z';
  for (const id of ['u1', 'u2'])
    await sql`INSERT INTO users (id, email, password_hash, first_name, created_at)
               VALUES (${id}, ${`${id}@uni.test`}, 'x', ${id}, ${t})`.execute(db);
  // g1: made at seq 1, messages at 3 and 7. g2: made at seq 4, no message yet.
  await sql`INSERT INTO groups (id, name, created_by, created_at, avatar_url, last_message_id, last_seq)
             VALUES ('g1', 'One', 'u1', ${t}, NULL, 'm7', 7), ('g2', 'Two', 'u1', ${t}, NULL, NULL, 4)`.execute(
    db,
  );
  await sql`INSERT INTO group_members (group_id, user_id, joined_at, read_seq)
             VALUES ('g1', 'u1', ${t}, 7), ('g1', 'u2', ${t}, 3), ('g2', 'u2', ${t}, 0)`.execute(db);
  await sql`INSERT INTO group_messages (id, group_id, sender_id, content, created_at, seq)
             VALUES ('m3', 'g1', 'u1', 'first', ${t}, 3), ('m7', 'g1', 'u1', 'second', ${t}, 7)`.execute(db);
}

/** Each group's activity as the server reads it after 0022 (written out here, not imported). */
const activity = sql<{ id: string; seq: number }>`
  SELECT g.id, coalesce((SELECT max(m.seq) FROM group_messages m WHERE m.group_id = g.id), g.created_seq) AS seq
    FROM groups g ORDER BY g.id`;

async function outcome(db: Kysely<unknown>) {
  await migrate(db, '0021_change_audience_seq');
  await seedAt0021(db);
  await migrate(db, '0022_group_activity');
  const up = (await activity.execute(db)).rows;
  const createdSeqs = (await sql`SELECT id, created_seq FROM groups ORDER BY id`.execute(db)).rows;
  await sql`INSERT INTO group_messages (id, group_id, sender_id, content, created_at, seq)
             VALUES ('m9', 'g2', 'u2', 'third', 'now', 9)`.execute(db);
  const afterMessage = (await activity.execute(db)).rows;
  const rowsUntouched = (await sql`SELECT id, created_seq FROM groups ORDER BY id`.execute(db)).rows;
  await migrate(db, '0021_change_audience_seq');
  const down = (await sql`SELECT id, last_message_id, last_seq FROM groups ORDER BY id`.execute(db)).rows;
  await migrate(db, '0022_group_activity');
  return { up, createdSeqs, afterMessage, rowsUntouched, down };
}

describe('migration 0022_group_activity', () => {
  let schema: TestSchema | undefined;
  afterAll(async () => {
    await schema?.drop();
  });

  it('keeps every group where it was on SQLite and PostgreSQL alike, and goes down and up', async () => {
    const lite = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    const onSqlite = await outcome(lite);
    await lite.destroy();
    schema = await createTestSchema();
    const onPg = await outcome(schema.open().db as unknown as Kysely<unknown>);
    expect(onPg).toEqual(onSqlite);

    expect(onSqlite.up).toEqual([
      { id: 'g1', seq: 7 },
      { id: 'g2', seq: 4 },
    ]);
    expect(onSqlite.createdSeqs).toEqual([
      { id: 'g1', created_seq: 7 },
      { id: 'g2', created_seq: 4 },
    ]);
    // A message moves its group; the group's row is not written.
    expect(onSqlite.afterMessage).toEqual([
      { id: 'g1', seq: 7 },
      { id: 'g2', seq: 9 },
    ]);
    expect(onSqlite.rowsUntouched).toEqual(onSqlite.createdSeqs);
    expect(onSqlite.down).toEqual([
      { id: 'g1', last_message_id: 'm7', last_seq: 7 },
      { id: 'g2', last_message_id: 'm9', last_seq: 9 },
    ]);
  });
});
