import { describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import SQLite from 'better-sqlite3';
import { migrations } from '../src/lib/db/migrations';
import { queueStatements } from '../src/modules/verification/queue';
import { historySql } from '../src/modules/verification/repo';

/** Student-ID verification: documents, their history, upload intents and the users' new columns. */
describe('migration 0014_documents', () => {
  it('creates the tables and the admin queue index, plans the queue and history on indexes, and goes down and up', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const tables = () =>
      sqlite
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'table'
             AND name IN ('documents', 'document_decisions', 'upload_intents') ORDER BY name`,
        )
        .pluck()
        .all();
    const userColumns = () =>
      (sqlite.prepare('PRAGMA table_info(users)').all() as { name: string }[])
        .map((c) => c.name)
        .filter((n) => ['academic_domain', 'current_document_id', 'rejection_reason'].includes(n));

    expect((await migrator.migrateTo('0013_colleges')).error).toBeUndefined();
    sqlite
      .prepare(
        `INSERT INTO users (id, email, password_hash, first_name, last_name, phone_number, role, document_status,
           created_at) VALUES ('u1', 'a@uni.test', 'x', 'A', 'B', '', 'user', 'pending_submission', '2026-01-01')`,
      )
      .run();
    expect((await migrator.migrateTo('0014_documents')).error).toBeUndefined();
    expect(tables()).toEqual(['document_decisions', 'documents', 'upload_intents']);
    expect(userColumns()).toEqual(['academic_domain', 'current_document_id', 'rejection_reason']);
    // An existing account: no academic domain, no document, no reason.
    expect(
      sqlite.prepare('SELECT academic_domain, current_document_id, rejection_reason FROM users').get(),
    ).toEqual({ academic_domain: null, current_document_id: null, rejection_reason: null });

    const doc = sqlite.prepare(
      `INSERT INTO documents (id, user_id, storage_key, content_type, size, manual, client_recognized, server_check,
         submitted_at) VALUES (?, ?, ?, 'image/png', 1, 0, NULL, '{}', '2026-01-02')`,
    );
    doc.run('d1', 'u1', 'documents/u1/a');
    expect(() => doc.run('d2', 'u1', 'documents/u1/a')).toThrow(/UNIQUE/);
    expect(() => doc.run('d3', 'nobody', 'documents/x/b')).toThrow(/FOREIGN/);
    const decision = sqlite.prepare(
      `INSERT INTO document_decisions (id, user_id, document_id, actor_id, action, reason, from_status, to_status,
         created_at) VALUES (?, 'u1', 'd1', 'u1', ?, NULL, 'pending_submission', 'pending_verification', '2026-01-02')`,
    );
    decision.run('h1', 'submit');
    expect(() => decision.run('h2', 'approve')).toThrow(/CHECK/);

    const plan = (q: string) =>
      (
        sqlite.prepare(`EXPLAIN QUERY PLAN ${q}`).all(...Array.from(q.matchAll(/\?/g), () => 'x')) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' | ');
    // The admin queue of one status: a range of users_document_queue_idx, already in order.
    for (const q of [queueStatements.datedOf, queueStatements.undatedOf]) {
      const p = plan(q);
      expect(p).toMatch(/users_document_queue_idx/);
      expect(p).not.toMatch(/TEMP B-TREE/);
      expect(p).not.toMatch(/SCAN users(?! USING)/);
    }
    // The tabs' counts read the index alone.
    expect(plan('SELECT document_status, COUNT(*) AS n FROM users GROUP BY document_status')).toMatch(
      /COVERING INDEX users_document_(queue|status)_idx/,
    );
    // A page's histories: one lookup per user in document_decisions_user_idx, actors by primary key.
    const history = plan(historySql(3));
    expect(history).toMatch(/SEARCH d USING INDEX document_decisions_user_idx \(user_id=\?\)/);
    expect(history).toMatch(/SEARCH a USING INDEX sqlite_autoindex_users_1 \(id=\?\)/);
    expect(
      plan('SELECT created_at FROM document_decisions WHERE user_id = ? ORDER BY created_at DESC LIMIT 1'),
    ).toMatch(/document_decisions_user_idx/);
    expect(plan('SELECT * FROM upload_intents WHERE user_id = ? AND expires_at < ?')).toMatch(
      /upload_intents_user_idx/,
    );

    expect((await migrator.migrateTo('0013_colleges')).error).toBeUndefined();
    expect(tables()).toEqual([]);
    expect(userColumns()).toEqual([]);
    expect(sqlite.prepare('SELECT count(*) FROM users').pluck().get()).toBe(1);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(tables()).toHaveLength(3);
    expect(userColumns()).toHaveLength(3);
    await db.destroy();
  });
});
