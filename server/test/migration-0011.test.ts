import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';

/** Refusals stored before codes existed get the code of their text, so a resend is answered the same. */
describe('migration 0011_reject_codes', () => {
  it('adds mutation_rejects.code, mapping known texts back to their codes, and down drops it', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0010_nickname_skeleton_spaces')).error).toBeUndefined();
    const insert = sqlite.prepare(
      `INSERT INTO mutation_rejects (device_id, mid, error, context, created_ms) VALUES ('dev-12345', ?, ?, 'x', 0)`,
    );
    insert.run(1, 'You are not a member of this group.');
    insert.run(2, "You can't send more messages until Ann replies.");
    insert.run(3, 'Some confession text the catalogue never had.');

    expect((await migrator.migrateTo('0011_reject_codes')).error).toBeUndefined();
    expect(sqlite.prepare('SELECT mid, code FROM mutation_rejects ORDER BY mid').all()).toEqual([
      { mid: 1, code: 'notGroupMember' },
      { mid: 2, code: 'awaitingReply' },
      { mid: 3, code: 'invalid' },
    ]);

    expect((await migrator.migrateTo('0010_nickname_skeleton_spaces')).error).toBeUndefined();
    const columns = sqlite.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('mutation_rejects');
    expect(columns).not.toContain('code');
    expect(sqlite.prepare('SELECT count(*) FROM mutation_rejects').pluck().get()).toBe(3);
    await db.destroy();
  });
});
