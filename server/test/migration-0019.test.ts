import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';
import { setBranch, setInterests, setSkillLevel } from '../src/modules/profile/repo';

/** Focused talk's profile fields: an interests array ('[]' for existing accounts), a skill level, a branch. */
describe('migration 0019_focused_profile', () => {
  it('adds the columns with their defaults and shapes, and goes down and up', async () => {
    const sqlite = new SQLite(':memory:');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const columns = () =>
      (sqlite.prepare('PRAGMA table_info(users)').all() as { name: string }[])
        .map((c) => c.name)
        .filter((n) => ['interests', 'skill_level', 'branch'].includes(n));
    const names = Object.keys(migrations);
    const previous = names[names.indexOf('0019_focused_profile') - 1]!;

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    expect(columns()).toEqual([]);
    sqlite
      .prepare(
        `INSERT INTO users (id, email, password_hash, first_name, last_name, phone_number, role, document_status,
           created_at) VALUES ('u1', 'a@uni.test', 'x', 'A', 'B', '', 'user', 'verified', '2026-01-01')`,
      )
      .run();
    expect((await migrator.migrateTo('0019_focused_profile')).error).toBeUndefined();
    expect(columns()).toEqual(['interests', 'skill_level', 'branch']);
    // An existing account: no interests, no skill level, no branch.
    const row = () => sqlite.prepare('SELECT interests, skill_level, branch FROM users').get();
    expect(row()).toEqual({ interests: '[]', skill_level: null, branch: null });

    sqlite.prepare(setInterests).run(JSON.stringify(['Coding', 'Music']), 'u1');
    sqlite.prepare(setSkillLevel).run('Advanced', 'u1');
    sqlite.prepare(setBranch).run('AI/ML', 'u1');
    expect(row()).toEqual({ interests: '["Coding","Music"]', skill_level: 'Advanced', branch: 'AI/ML' });
    // The column keeps its shape: a JSON array, never another value; NOT NULL.
    expect(() => sqlite.prepare(setInterests).run('{"a":1}', 'u1')).toThrow(/CHECK/);
    expect(() => sqlite.prepare(setInterests).run('not json', 'u1')).toThrow(/CHECK/);
    expect(() => sqlite.prepare(setInterests).run(null, 'u1')).toThrow(/NOT NULL/);
    expect(() => sqlite.prepare(setSkillLevel).run('', 'u1')).toThrow(/CHECK/);
    expect(() => sqlite.prepare(setBranch).run('x'.repeat(41), 'u1')).toThrow(/CHECK/);

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    expect(columns()).toEqual([]);
    expect(sqlite.prepare('SELECT id FROM users').pluck().all()).toEqual(['u1']);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(columns()).toEqual(['interests', 'skill_level', 'branch']);
    await db.destroy();
  });
});
