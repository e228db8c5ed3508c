import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';

/** The directory index on a database that already holds accounts, its plan, and the way back down. */
describe('migration 0009_users_directory', () => {
  it('keeps accounts, serves the directory page in index order, and drops cleanly', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0008_direct_limits')).error).toBeUndefined();
    const insertUser = sqlite.prepare(
      `INSERT INTO users (id, email, password_hash, first_name, last_name, created_at) VALUES (?, ?, 'x', ?, ?, '2026-01-01')`,
    );
    insertUser.run('a', 'a@uni.edu', 'ann', 'Lee');
    insertUser.run('b', 'b@uni.edu', 'Ben', 'Ng');

    expect((await migrator.migrateTo('0009_users_directory')).error).toBeUndefined();
    expect(sqlite.prepare('SELECT count(*) AS n FROM users').get()).toEqual({ n: 2 });
    const plan = (
      sqlite
        .prepare(
          `EXPLAIN QUERY PLAN SELECT id, first_name FROM users WHERE id != 'z' AND lower(first_name) >= 'a'
         AND (lower(first_name), lower(last_name), id) > ('a', 'lee', 'a')
       ORDER BY lower(first_name), lower(last_name), id LIMIT 50`,
        )
        .all() as { detail: string }[]
    )
      .map((r) => r.detail)
      .join(' | ');
    expect(plan).toMatch(/SEARCH users USING INDEX users_directory_idx/);
    expect(plan).not.toMatch(/TEMP B-TREE/);

    const down = await migrator.migrateTo('0008_direct_limits');
    expect(down.error).toBeUndefined();
    expect(
      sqlite.prepare(`SELECT name FROM sqlite_master WHERE name = 'users_directory_idx'`).get(),
    ).toBeUndefined();
    await db.destroy();
  });
});
