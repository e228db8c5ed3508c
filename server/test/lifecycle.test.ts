import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import WebSocket from 'ws';
import { inTransaction, migrations } from '../src/lib/db/migrations';
import { onPostgres, startTestServer } from './support/test-server';

describe('database lifecycle', () => {
  it('a migration that fails half-way leaves nothing behind, so the next start can run it again', async () => {
    const sqlite = new SQLite(':memory:');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const broken = inTransaction({
      up: async (tx) => {
        await sql`CREATE TABLE half_made (id TEXT)`.execute(tx);
        await sql`ALTER TABLE missing ADD COLUMN x TEXT`.execute(tx);
      },
      down: async () => undefined,
    });
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => ({ '0001_broken': broken }) },
    });
    expect((await migrator.migrateToLatest()).error).toBeDefined();
    expect(sqlite.prepare(`SELECT name FROM sqlite_master WHERE name = 'half_made'`).get()).toBeUndefined();
    await db.destroy();
  });

  it('every migration goes up and down cleanly and up again', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const tables = async () => (await db.introspection.getTables()).map((t) => t.name).sort();
    expect(await tables()).toEqual([
      'attachments',
      'blocks',
      'call_logs',
      'change_audience',
      'change_log',
      'college_catalog_version',
      'college_domains',
      'college_loads',
      'colleges',
      'confession_comments',
      'confession_reaction_notices',
      'confession_reactions',
      'confession_totals',
      'confessions',
      'device_mutations',
      'direct_conversations',
      'direct_messages',
      'document_decisions',
      'documents',
      'friend_requests',
      'friendships',
      'group_members',
      'group_messages',
      'group_notes_updates',
      'groups',
      'held_friend_requests',
      'message_reactions',
      'moderation_log',
      'mutation_rejects',
      'nickname_claims',
      'nicknames',
      'notifications',
      'one_time_codes',
      'push_subscriptions',
      'random_blocks',
      'reports',
      'sessions',
      'upload_intents',
      'user_restrictions',
      'users',
    ]);
    // Columns later migrations add to earlier tables (0019: focused talk's profile fields).
    const usersTable = (await db.introspection.getTables()).find((t) => t.name === 'users')!;
    expect(usersTable.columns.map((c) => c.name)).toEqual(
      expect.arrayContaining(['interests', 'skill_level', 'branch']),
    );
    let step;
    do step = await migrator.migrateDown();
    while (step.results?.length && !step.error);
    expect(step.error).toBeUndefined();
    expect(await tables()).toEqual([]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await db.destroy();
  });

  it('stops cleanly: closes connections and folds the WAL into the database file', async () => {
    const server = await startTestServer();
    const { dataDir } = server;
    await server.post('/api/auth/signup', {
      firstName: 'W',
      lastName: 'al',
      email: 'wal@uni.edu',
      password: 'secret12',
    });
    const keepAlive = await fetch(`${server.url}/healthz`);
    expect(keepAlive.status).toBe(200);
    await server.stop();
    // SQLite's write-ahead log (PostgreSQL has no file here: its connections are what the stop ends).
    const wal = path.join(dataDir, 'campus-talk.sqlite-wal');
    if (!onPostgres) expect(!fs.existsSync(wal) || fs.statSync(wal).size === 0).toBe(true);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stops promptly while sockets are still open, telling them it is going away', async () => {
    const server = await startTestServer();
    // One socket that never said hello and one that asked for the notes sub-protocol: neither may hold stop().
    const sockets = [
      new WebSocket(server.url.replace('http', 'ws') + '/ws'),
      new WebSocket(server.url.replace('http', 'ws') + '/ws', ['campus-notes']),
    ];
    await Promise.all(sockets.map((s) => new Promise((resolve) => s.once('open', resolve))));
    const codes = sockets.map((s) => new Promise<number>((resolve) => s.once('close', resolve)));
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await Promise.all(codes)).toEqual([1001, 1001]);
  });

  it('keeps the code-hashing secret across restarts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-restart-'));
    const first = await startTestServer({ config: { dataDir } });
    const secret = first.deps.secret.toString('hex');
    await first.stop();
    const second = await startTestServer({ config: { dataDir } });
    expect(second.deps.secret.toString('hex')).toBe(secret);
    await second.close();
  });
});
