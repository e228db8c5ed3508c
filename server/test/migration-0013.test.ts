import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';

/** The college catalog: colleges, their domains, the default loads and the catalog version. */
describe('migration 0013_colleges', () => {
  it('creates the tables with an index for every list query, and goes down and up again', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const tables = () =>
      sqlite
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'college%' ORDER BY name`)
        .pluck()
        .all();
    expect((await migrator.migrateTo('0013_colleges')).error).toBeUndefined();
    expect(tables()).toEqual(['college_catalog_version', 'college_domains', 'college_loads', 'colleges']);
    expect(sqlite.prepare('SELECT version FROM college_catalog_version').pluck().get()).toBe(0);

    const insert = sqlite.prepare(
      `INSERT INTO colleges (id, key, name, country, state_code, state_name, city, aliases, source, status, created_at)
       VALUES (?, ?, ?, 'IN', 'MH', 'Maharashtra', 'Pune', NULL, 'manual', ?, '2026-01-01')`,
    );
    insert.run('a', 'IN|mh|a', 'A', 'listed');
    expect(() => insert.run('b', 'IN|mh|a', 'A', 'listed')).toThrow(/UNIQUE/);
    expect(() => insert.run('c', 'IN|mh|c', 'C', 'pending')).toThrow(/CHECK/);
    sqlite.prepare(`INSERT INTO college_domains (domain, college_id) VALUES ('a.ac.in', 'a')`).run();
    expect(() => sqlite.prepare(`INSERT INTO college_domains VALUES ('x.ac.in', 'nope')`).run()).toThrow(
      /FOREIGN/,
    );

    const plan = (q: string) =>
      (sqlite.prepare(`EXPLAIN QUERY PLAN ${q}`).all() as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ');
    const country = plan(
      `SELECT * FROM colleges WHERE status = 'listed' AND country = 'US' ORDER BY name COLLATE NOCASE, id`,
    );
    expect(country).toMatch(/colleges_(country|state)_idx/);
    const state = plan(
      `SELECT * FROM colleges WHERE status = 'listed' AND country = 'IN' AND state_code = 'MH' ORDER BY name COLLATE NOCASE, id`,
    );
    expect(state).toMatch(/colleges_state_idx/);
    expect(state).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    expect(plan(`SELECT * FROM colleges WHERE status = 'manual' ORDER BY created_at, id`)).toMatch(
      /colleges_status_created_idx/,
    );
    expect(plan(`SELECT domain FROM college_domains WHERE college_id = 'a'`)).toMatch(
      /college_domains_college_idx/,
    );

    expect((await migrator.migrateTo('0012_confession_posted_seq')).error).toBeUndefined();
    expect(tables()).toEqual([]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(tables()).toHaveLength(4);
    expect(sqlite.prepare('SELECT count(*) FROM colleges').pluck().get()).toBe(0);
    await db.destroy();
  });
});
