import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';

/** change_audience read by seq alone (adoption, gap reads, prune) goes through an index, not a scan. */
describe('migration 0021_change_audience_seq', () => {
  it('indexes change_audience by seq for the reads by seq alone, and goes down and up', async () => {
    const sqlite = new SQLite(':memory:');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const plan = (query: string) =>
      (sqlite.prepare(`EXPLAIN QUERY PLAN ${query}`).all(1, 2) as { detail: string }[])
        .map((row) => row.detail)
        .join(' | ');
    const bySeq = [
      'SELECT audience, seq FROM change_audience WHERE seq > ? AND ? > 0',
      'DELETE FROM change_audience WHERE seq <= ? AND ? > 0',
      `SELECT l.seq, (SELECT json_group_array(a.audience) FROM change_audience a WHERE a.seq = l.seq)
         FROM change_log l WHERE l.seq > ? AND l.seq <= ?`,
    ];

    expect((await migrator.migrateTo('0020_random_blocks')).error).toBeUndefined();
    // Before: the key (audience, seq) cannot serve a read by seq alone.
    expect(plan(bySeq[0]!)).toMatch(/SCAN change_audience/);

    expect((await migrator.migrateTo('0021_change_audience_seq')).error).toBeUndefined();
    for (const query of bySeq) {
      expect(plan(query)).toMatch(/change_audience_seq_idx/);
      expect(plan(query)).not.toMatch(/SCAN change_audience\b(?! USING)/);
    }
    // A pull still seeks on the key.
    expect(plan('SELECT seq FROM change_audience WHERE audience = ? AND seq > ? ORDER BY seq')).toMatch(
      /PRIMARY KEY/,
    );

    expect((await migrator.migrateTo('0020_random_blocks')).error).toBeUndefined();
    expect(plan(bySeq[0]!)).not.toMatch(/change_audience_seq_idx/);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await db.destroy();
  });
});
