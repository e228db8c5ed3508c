import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { CONFESSION_SERVER_MSG } from '@campus/protocol';
import { migrations } from '../src/lib/db/migrations';
import { createSession } from '../src/lib/auth/sessions';
import { nicknameSkeleton } from '../src/modules/confessions/skeleton';
import { startTestServer, type TestServer } from './support/test-server';

/**
 * A database from before 0007 where 'night_owl' (a, first, who signed a confession with it) and
 * 'night_owI' with a capital I (b, later) both exist, 'c' signed with 'Wild_Iris' and renamed, and 'd' has
 * a claim whose comment is gone.
 */
function seedAt0006(sqlite: SQLite.Database): void {
  const user = sqlite.prepare(
    `INSERT INTO users (id, email, password_hash, first_name, created_at) VALUES (?, ?, 'x', ?, '2026-01-01')`,
  );
  for (const id of ['a', 'b', 'c', 'd']) user.run(id, `${id}@uni.edu`, id.toUpperCase());
  const nick = sqlite.prepare(
    `INSERT INTO nicknames (user_id, nickname, nickname_key, updated_at) VALUES (?, ?, ?, ?)`,
  );
  nick.run('a', 'night_owl', 'night_owl', '2026-01-01');
  nick.run('b', 'night_owI', 'night_owi', '2026-01-05');
  nick.run('c', 'Renamed', 'renamed', '2026-01-06');
  const confession = sqlite.prepare(
    `INSERT INTO confessions (id, author_id, nickname, content, emotion_tag, created_at)
     VALUES (?, ?, ?, 'text', '😊', ?)`,
  );
  confession.run('c0', 'a', 'night_owl', '2026-01-01');
  confession.run('c1', 'c', 'Wild_Iris', '2026-01-02');
  const claim = sqlite.prepare('INSERT INTO nickname_claims (nickname_key, user_id) VALUES (?, ?)');
  claim.run('night_owl', 'a');
  claim.run('wild_iris', 'c');
  claim.run('ghost0wl', 'd');
}

const column = (sqlite: SQLite.Database, table: string) =>
  (sqlite.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

describe('migration 0007_nickname_skeletons', () => {
  it('backfills skeletons, keeps a look-alike clash from before, and goes down and up again', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0006_notification_confession')).error).toBeUndefined();
    seedAt0006(sqlite);

    const expectBackfilled = () => {
      expect(sqlite.prepare('SELECT user_id, skeleton FROM nicknames ORDER BY user_id').all()).toEqual([
        { user_id: 'a', skeleton: nicknameSkeleton('night_owl') },
        { user_id: 'b', skeleton: nicknameSkeleton('night_owl') }, // the clash stays, in both rows
        { user_id: 'c', skeleton: nicknameSkeleton('Renamed') },
      ]);
      expect(sqlite.prepare('SELECT nickname_key, skeleton FROM nickname_claims ORDER BY 1').all()).toEqual([
        { nickname_key: 'ghost0wl', skeleton: nicknameSkeleton('ghostowl') }, // from the key: nothing else left
        { nickname_key: 'night_owl', skeleton: nicknameSkeleton('night_owl') },
        { nickname_key: 'wild_iris', skeleton: nicknameSkeleton('Wild_Iris') },
      ]);
    };
    expect((await migrator.migrateTo('0007_nickname_skeletons')).error).toBeUndefined();
    expectBackfilled();
    // The owners lookup reads both indexes rather than scanning.
    const plan = sqlite
      .prepare(
        `EXPLAIN QUERY PLAN SELECT user_id FROM nicknames WHERE nickname_key = 'x' OR skeleton = 'x'
         UNION SELECT user_id FROM nickname_claims WHERE nickname_key = 'x' OR skeleton = 'x'`,
      )
      .all() as { detail: string }[];
    const details = plan.map((r) => r.detail).join('\n');
    expect(details).toMatch(/nicknames_skeleton_idx/);
    expect(details).toMatch(/nickname_claims_skeleton_idx/);
    expect(details).not.toMatch(/^SCAN/m);

    const step = await migrator.migrateDown();
    expect(step.error).toBeUndefined();
    expect(step.results?.map((r) => r.migrationName)).toEqual(['0007_nickname_skeletons']);
    expect(column(sqlite, 'nicknames')).not.toContain('skeleton');
    expect(column(sqlite, 'nickname_claims')).not.toContain('skeleton');
    expect(sqlite.prepare('SELECT count(*) FROM nicknames').pluck().get()).toBe(3);

    expect((await migrator.migrateTo('0007_nickname_skeletons')).error).toBeUndefined();
    expectBackfilled();
    await db.destroy();
  });
});

describe('a look-alike clash from before 0007, on the running server', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-talk-0007-'));
  let server: TestServer;
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps both names working and lets nobody else take the look', async () => {
    const sqlite = new SQLite(path.join(dataDir, 'campus-talk.sqlite'));
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0006_notification_confession')).error).toBeUndefined();
    seedAt0006(sqlite);
    await db.destroy();

    server = await startTestServer({ config: { dataDir } });
    // Students from before verification existed: verified, so the access policy lets them post.
    server.deps.sqlite.prepare(`UPDATE users SET document_status = 'verified'`).run();
    const token = async (id: string) => (await createSession(server.deps.db, id, server.deps.now())).token;
    const [a, b, eve] = [await token('a'), await token('b'), await token('d')];
    const check = async (name: string, t: string) =>
      (await server.get(`/api/confessions/nickname/check/${encodeURIComponent(name)}`, t)).body;
    const set = (nickname: string, t: string) =>
      server.post('/api/confessions/nickname/set', { nickname }, t);

    // Both keep their nickname, post with it, and may set it again.
    expect((await server.get('/api/confessions/nickname', b)).body).toEqual({ nickname: 'night_owI' });
    const post = await server.post('/api/confessions/post', { content: 'still me', emotionTag: '😊' }, b);
    expect(post.status).toBe(201);
    expect(post.body.nickname).toBe('night_owI');
    expect(await check('night_owl', a)).toEqual({ available: true });
    expect((await set('Night_Owl', a)).status).toBe(200);
    expect((await set('night_owI', b)).status).toBe(200);

    // Nobody else gets either name or the look; the signed 'Wild_Iris' keeps its look too.
    for (const name of ['night_owl', 'night_owI', 'NIGHT_OWL', 'n1ght_0wl', 'Wild_lris', 'WILD_IRIS'])
      expect(await check(name, eve), name).toEqual({ available: false });
    // Setting is refused the same way (a few only: five sets a day per user).
    for (const name of ['night_owI', 'n1ght_0wl', 'Wild_lris']) {
      const res = await set(name, eve);
      expect(res.status, name).toBe(409);
      expect(res.body.error).toBe(CONFESSION_SERVER_MSG.nicknameTaken);
    }

    // Both rename away. Each signed with their name (b just now), so each may come back to it; the look
    // stays out of everyone else's reach.
    expect((await set('day_owl', a)).status).toBe(200);
    expect((await set('dusk_owl', b)).status).toBe(200);
    expect(await check('night_owl', eve)).toEqual({ available: false });
    expect(await check('night_owl', a)).toEqual({ available: true });
    expect(await check('night_owI', b)).toEqual({ available: true });
  });
});
