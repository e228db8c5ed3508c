import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigrator, inTransaction, migrations } from '../src/lib/db/migrations';
import { createTestSchema, type TestSchema } from './support/postgres';

/**
 * The numbered migrations on PostgreSQL (DATABASE_URL) and SQLite: up, down step by step to nothing and up
 * again on each, the same tables, columns, types, keys and indexes on both (so the two cannot drift apart),
 * and the data migrations turning the same old rows into the same new ones.
 */

const NAMES = Object.keys(migrations);
const BOOKKEEPING = /^kysely_migration/;

interface Column {
  name: string;
  /** The type as the two dialects are meant to agree on it: integer, text or blob. */
  type: string;
  notNull: boolean;
}
interface Shape {
  /** table → its columns in order. */
  tables: Record<string, Column[]>;
  /** table → its primary key's columns, in key order. */
  primaryKeys: Record<string, string[]>;
  /** The indexes made by CREATE INDEX (not those behind PRIMARY KEY and UNIQUE), by name → table. */
  indexes: Record<string, string>;
}

// ---- PostgreSQL ----

const PG_TYPES: Record<string, string> = { bigint: 'integer', text: 'text', bytea: 'blob' };

async function pgShape(db: Kysely<unknown>): Promise<Shape> {
  const columns = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    collation_name: string | null;
  }>`SELECT table_name, column_name, data_type, is_nullable, collation_name FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`.execute(db);
  const tables: Shape['tables'] = {};
  for (const c of columns.rows) {
    if (BOOKKEEPING.test(c.table_name)) continue;
    // Every text column compares by bytes, as SQLite's do (dialect.ts).
    if (c.data_type === 'text') expect(c.collation_name, `${c.table_name}.${c.column_name}`).toBe('C');
    (tables[c.table_name] ??= []).push({
      name: c.column_name,
      type: PG_TYPES[c.data_type] ?? c.data_type,
      notNull: c.is_nullable === 'NO',
    });
  }
  const keys = await sql<{ table_name: string; column_name: string }>`
    SELECT k.table_name, k.column_name FROM information_schema.table_constraints t
      JOIN information_schema.key_column_usage k
        ON k.constraint_schema = t.constraint_schema AND k.constraint_name = t.constraint_name
     WHERE t.table_schema = current_schema() AND t.constraint_type = 'PRIMARY KEY'
     ORDER BY k.table_name, k.ordinal_position`.execute(db);
  const primaryKeys: Shape['primaryKeys'] = {};
  for (const k of keys.rows) {
    if (BOOKKEEPING.test(k.table_name)) continue;
    (primaryKeys[k.table_name] ??= []).push(k.column_name);
  }
  const indexes = await sql<{ indexname: string; tablename: string }>`
    SELECT i.indexname, i.tablename FROM pg_indexes i
     WHERE i.schemaname = current_schema()
       AND NOT EXISTS (SELECT 1 FROM information_schema.table_constraints t
                        WHERE t.table_schema = i.schemaname AND t.constraint_name = i.indexname)`.execute(db);
  return {
    tables,
    primaryKeys,
    indexes: Object.fromEntries(
      indexes.rows.filter((i) => !BOOKKEEPING.test(i.tablename)).map((i) => [i.indexname, i.tablename]),
    ),
  };
}

/** Every index's full definition and every trigger, to compare one PostgreSQL up with the next exactly. */
async function pgDefinitions(db: Kysely<unknown>): Promise<string[]> {
  const indexes = await sql<{ indexdef: string }>`
    SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname`.execute(db);
  const checks = await sql<{ def: string }>`
    SELECT conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE connamespace = current_schema()::regnamespace ORDER BY 1`.execute(db);
  const triggers = await sql<{ def: string }>`
    SELECT pg_get_triggerdef(t.oid) AS def FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal ORDER BY 1`.execute(db);
  return [
    ...indexes.rows.map((r) => r.indexdef),
    ...checks.rows.map((r) => r.def),
    ...triggers.rows.map((r) => r.def),
  ];
}

// ---- SQLite ----

const SQLITE_TYPES: Record<string, string> = { INTEGER: 'integer', TEXT: 'text', BLOB: 'blob' };

function sqliteShape(sqlite: SQLite.Database): Shape {
  const names = sqlite
    .prepare<[], { name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .all()
    .map((r) => r.name)
    .filter((name) => !BOOKKEEPING.test(name));
  const tables: Shape['tables'] = {};
  const primaryKeys: Shape['primaryKeys'] = {};
  for (const table of names) {
    const info = sqlite
      .prepare<[], { name: string; type: string; notnull: number; pk: number }>(
        `SELECT name, type, "notnull", pk FROM pragma_table_info('${table}')`,
      )
      .all();
    tables[table] = info.map((c) => ({
      name: c.name,
      type: SQLITE_TYPES[c.type.toUpperCase()] ?? c.type,
      // A primary key column is NOT NULL on PostgreSQL whatever it says (SQLite keeps what it says).
      notNull: c.notnull === 1 || c.pk > 0,
    }));
    const key = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    if (key.length > 0) primaryKeys[table] = key.map((c) => c.name);
  }
  const indexes = sqlite
    .prepare<[], { name: string; tbl_name: string }>(
      `SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`,
    )
    .all()
    .filter((i) => !BOOKKEEPING.test(i.tbl_name));
  return { tables, primaryKeys, indexes: Object.fromEntries(indexes.map((i) => [i.name, i.tbl_name])) };
}

function sqliteDefinitions(sqlite: SQLite.Database): string[] {
  return sqlite
    .prepare<[], { sql: string | null }>(`SELECT sql FROM sqlite_master ORDER BY type, name`)
    .all()
    .map((r) => r.sql ?? '');
}

function openSqlite() {
  const sqlite = new SQLite(':memory:');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { sqlite, db };
}

// ---- both ----

async function check(result: Promise<{ error?: unknown; results?: readonly { status: string }[] }>) {
  const { error, results } = await result;
  if (error) throw error instanceof Error ? error : new Error(String(error));
  for (const r of results ?? []) expect(r.status).toBe('Success');
  return (results ?? []) as readonly { migrationName: string; direction: string; status: string }[];
}

/** Down one step at a time to nothing, checking each step undoes the newest migration still applied. */
async function downToZero(migrator: Migrator): Promise<void> {
  for (const name of [...NAMES].reverse()) {
    const results = await check(migrator.migrateDown());
    expect(results.map((r) => [r.migrationName, r.direction])).toEqual([[name, 'Down']]);
  }
  expect(await check(migrator.migrateDown())).toEqual([]);
}

describe('migrations on PostgreSQL', () => {
  let schema: TestSchema;
  let db: Kysely<unknown>;
  let migrator: Migrator;

  beforeAll(async () => {
    schema = await createTestSchema();
    db = schema.open().db as unknown as Kysely<unknown>;
    migrator = await createMigrator(db);
  });
  afterAll(async () => {
    await schema?.drop();
  });

  it('go up, down step by step to nothing, and up again to the same schema', async () => {
    expect((await check(migrator.migrateToLatest())).map((r) => r.migrationName)).toEqual(NAMES);
    const first = await pgShape(db);
    const definitions = await pgDefinitions(db);

    await downToZero(migrator);
    expect(await pgShape(db)).toEqual({ tables: {}, primaryKeys: {}, indexes: {} });
    // Down leaves no functions behind either (0005's trigger functions).
    const functions = await sql<{ n: number }>`
      SELECT count(*) AS n FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`.execute(db);
    expect(functions.rows[0]?.n).toBe(0);

    expect((await check(migrator.migrateToLatest())).map((r) => r.migrationName)).toEqual(NAMES);
    expect(await pgShape(db)).toEqual(first);
    expect(await pgDefinitions(db)).toEqual(definitions);
  });

  it('leaves nothing half-made when a migration fails (the batch is one transaction)', async () => {
    const other = await createTestSchema();
    try {
      const pg = other.open().db as unknown as Kysely<unknown>;
      const broken = inTransaction({
        up: async (tx) => {
          await sql`CREATE TABLE half_made (id TEXT)`.execute(tx);
          await sql`ALTER TABLE missing ADD COLUMN x TEXT`.execute(tx);
        },
        down: async () => undefined,
      });
      const failing = new Migrator({
        db: pg,
        provider: { getMigrations: async () => ({ ...migrations, '0099_broken': broken }) },
        migrationTableSchema: other.schema,
      });
      expect((await failing.migrateToLatest()).error).toBeDefined();
      expect(await pgShape(pg)).toEqual({ tables: {}, primaryKeys: {}, indexes: {} });
    } finally {
      await other.drop();
    }
  });

  it('keeps the realtime engine’s keys: change_log(seq), change_audience(audience, seq), exactly-once', async () => {
    const { primaryKeys, tables } = await pgShape(db);
    expect(primaryKeys.change_log).toEqual(['seq']);
    expect(primaryKeys.change_audience).toEqual(['audience', 'seq']);
    expect(primaryKeys.device_mutations).toEqual(['device_id']);
    expect(primaryKeys.mutation_rejects).toEqual(['device_id', 'mid']);
    // Seqs and epoch ms are 64-bit.
    for (const [table, column] of [
      ['change_log', 'seq'],
      ['change_log', 'created_ms'],
      ['change_audience', 'seq'],
      ['device_mutations', 'last_mid'],
      ['mutation_rejects', 'mid'],
    ] as const)
      expect(tables[table]?.find((c) => c.name === column)?.type, `${table}.${column}`).toBe('integer');
  });
});

describe('migrations on SQLite', () => {
  it('go up, down step by step to nothing, and up again to the same schema', async () => {
    const { sqlite, db } = openSqlite();
    const migrator = await createMigrator(db);
    expect((await check(migrator.migrateToLatest())).map((r) => r.migrationName)).toEqual(NAMES);
    const first = sqliteShape(sqlite);
    const definitions = sqliteDefinitions(sqlite);
    await downToZero(migrator);
    expect(sqliteShape(sqlite)).toEqual({ tables: {}, primaryKeys: {}, indexes: {} });
    expect((await check(migrator.migrateToLatest())).map((r) => r.migrationName)).toEqual(NAMES);
    expect(sqliteShape(sqlite)).toEqual(first);
    expect(sqliteDefinitions(sqlite)).toEqual(definitions);
    await db.destroy();
  });
});

describe('SQLite and PostgreSQL after the migrations', () => {
  let schema: TestSchema;
  afterAll(async () => {
    await schema?.drop();
  });

  it('have the same tables, columns, types, nullability, primary keys and indexes', async () => {
    schema = await createTestSchema();
    const pg = schema.open().db as unknown as Kysely<unknown>;
    await check((await createMigrator(pg)).migrateToLatest());
    const { sqlite, db } = openSqlite();
    await check((await createMigrator(db)).migrateToLatest());

    const onPg = await pgShape(pg);
    const onSqlite = sqliteShape(sqlite);
    expect(Object.keys(onSqlite.tables).length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(onPg.tables).sort()).toEqual(Object.keys(onSqlite.tables).sort());
    for (const table of Object.keys(onSqlite.tables))
      expect(onPg.tables[table], table).toEqual(onSqlite.tables[table]);
    expect(onPg.primaryKeys).toEqual(onSqlite.primaryKeys);
    expect(onPg.indexes).toEqual(onSqlite.indexes);
    await db.destroy();
  });
});

/**
 * Rows as they stood at 0004, before the data migrations (0005 to 0012), in SQL both dialects take: the same
 * old rows must come out of the migrations as the same new rows on both.
 */
async function seedAt0004(db: Kysely<unknown>): Promise<void> {
  const t = '2026-01-01T00:00:00.000Z';
  for (const id of ['u1', 'u2', 'Zed', 'abe'])
    await sql`INSERT INTO users (id, email, password_hash, first_name, created_at)
               VALUES (${id}, ${`${id}@uni.test`}, 'x', ${id}, ${t})`.execute(db);
  // Full-width: 0005 folds the key with NFKC. Two spaces: 0010 collapses the skeleton.
  await sql`INSERT INTO nicknames (user_id, nickname, nickname_key, updated_at)
             VALUES ('u1', 'ＡＢ', 'ａｂ', ${t}), ('u2', 'night  owl', 'night  owl', ${t})`.execute(db);
  await sql`INSERT INTO confessions (id, author_id, nickname, content, emotion_tag, college, created_at, deleted_at)
             VALUES ('c1', 'u1', 'ＡＢ', 'hello', 'happy', 'X', ${t}, NULL),
                    ('c2', 'u1', 'ＡＢ', '', 'sad', NULL, '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z')`.execute(
    db,
  );
  await sql`INSERT INTO confession_comments (id, confession_id, author_id, nickname, content, created_at)
             VALUES ('k1', 'c1', 'u2', 'night  owl', 'hi', ${t})`.execute(db);
  await sql`INSERT INTO notifications (id, user_id, type, title, body, data, created_at)
             VALUES ('n1', 'u1', 'confession', 't', 'b', '{"confessionId":"c1"}', ${t}),
                    ('n2', 'u1', 'confession', 't', 'b', 'confessionId, not JSON', ${t}),
                    ('n3', 'u1', 'message', 't', 'b', '{}', ${t})`.execute(db);
  await sql`INSERT INTO direct_messages (id, pair, sender_id, recipient_id, content, created_at, seq)
             VALUES ('m1', 'u1:u2', 'u1', 'u2', 'a', '2026-01-01T00:00:01.250Z', 1),
                    ('m2', 'u1:u2', 'u2', 'u1', 'b', '2026-01-01T00:00:02.000Z', 2)`.execute(db);
  await sql`INSERT INTO direct_conversations (user_id, peer_id, last_message_id, last_seq, unread_count)
             VALUES ('u1', 'u2', 'm2', 2, 1), ('u2', 'u1', 'm2', 2, 0)`.execute(db);
  await sql`INSERT INTO change_log (seq, type, payload, created_ms)
             VALUES (5, 'confession_posted', '{"type":"confession_posted","confession":{"id":"c1"}}', 1),
                    (6, 'confession_posted', '{"type":"confession_posted","confession":{"id":"c2"}}', 2)`.execute(
    db,
  );
  await sql`INSERT INTO mutation_rejects (device_id, mid, error, context, created_ms)
             VALUES ('d1', 1, 'Message is too long.', '{}', 0),
                    ('d1', 2, 'You can''t send more messages until Abe replies.', '{}', 0),
                    ('d1', 3, 'Something else', '{}', 0)`.execute(db);
}

/** What the data migrations made of the seed, then what the schema does with new rows. */
async function afterwards(db: Kysely<unknown>) {
  const rows = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;
  const read = {
    nicknames: await rows(sql`SELECT user_id, nickname_key, skeleton FROM nicknames ORDER BY user_id`),
    claims: await rows(
      sql`SELECT nickname_key, user_id, skeleton FROM nickname_claims ORDER BY nickname_key`,
    ),
    totals: await rows(sql`SELECT scope, n FROM confession_totals ORDER BY scope`),
    notifications: await rows(sql`SELECT id, confession_id FROM notifications ORDER BY id`),
    conversations: await rows(
      sql`SELECT user_id, sent_count, started_ms FROM direct_conversations ORDER BY user_id`,
    ),
    postedSeqs: await rows(sql`SELECT id, posted_seq FROM confessions ORDER BY id`),
    log: await rows(sql`SELECT seq, type, payload FROM change_log ORDER BY seq`),
    rejectCodes: await rows(sql`SELECT mid, code FROM mutation_rejects ORDER BY mid`),
  };
  // 0005's triggers keep the totals.
  await sql`INSERT INTO confessions (id, author_id, nickname, content, emotion_tag, college, created_at)
             VALUES ('c3', 'u2', 'n', 'x', 'happy', 'X', '2026-02-01T00:00:00.000Z')`.execute(db);
  await sql`UPDATE confessions SET deleted_at = '2026-02-02T00:00:00.000Z' WHERE id = 'c1'`.execute(db);
  const totals = await rows(sql`SELECT scope, n FROM confession_totals ORDER BY scope`);
  // Text compares by bytes: 'Z' (0x5a) sorts before 'a' (0x61), as it does in the server's code.
  const fails = async (query: ReturnType<typeof sql>) =>
    query.execute(db).then(
      () => false,
      () => true,
    );
  const friendship = (a: string, b: string) =>
    sql`INSERT INTO friendships (user_a, user_b, created_at) VALUES (${a}, ${b}, 'now')`;
  const collation = {
    wrongOrderRefused: await fails(friendship('abe', 'Zed')),
    byteOrderTaken: !(await fails(friendship('Zed', 'abe'))),
  };
  const notInterests = await fails(sql`UPDATE users SET interests = '{}' WHERE id = 'u1'`);
  // group_notes_updates numbers its rows itself.
  await sql`INSERT INTO groups (id, name, created_by, created_at) VALUES ('g1', 'G', 'u1', 'now')`.execute(
    db,
  );
  for (const ms of [1, 2])
    await sql`INSERT INTO group_notes_updates (group_id, update_data, created_ms) VALUES ('g1', ${Buffer.from([ms])}, ${ms})`.execute(
      db,
    );
  const notes = await rows(sql`SELECT id, update_data FROM group_notes_updates ORDER BY id`);
  return { ...read, totalsAfter: totals, collation, notInterests, notes };
}

describe('the data migrations on SQLite and PostgreSQL', () => {
  let schema: TestSchema;
  afterAll(async () => {
    await schema?.drop();
  });

  it('turn the same old rows into the same new ones', async () => {
    schema = await createTestSchema();
    const pg = schema.open().db as unknown as Kysely<unknown>;
    const { db: lite } = openSqlite();
    const outcomes = [];
    for (const db of [lite, pg]) {
      const migrator = await createMigrator(db);
      await check(migrator.migrateTo('0004_notifications'));
      await seedAt0004(db);
      await check(migrator.migrateToLatest());
      outcomes.push(await afterwards(db));
    }
    const [onSqlite, onPg] = outcomes;
    expect(onPg).toEqual(onSqlite);

    // And they are right, not only alike.
    expect(onPg!.nicknames).toEqual([
      { user_id: 'u1', nickname_key: 'ab', skeleton: 'ab' },
      { user_id: 'u2', nickname_key: 'night  owl', skeleton: 'nlght owl' },
    ]);
    expect(onPg!.claims).toEqual([
      { nickname_key: 'ab', user_id: 'u1', skeleton: 'ab' },
      { nickname_key: 'night  owl', user_id: 'u2', skeleton: 'nlght owl' },
    ]);
    expect(onPg!.totals).toEqual([
      { scope: '*', n: 1 },
      { scope: 'c:X', n: 1 },
    ]);
    expect(onPg!.notifications).toEqual([
      { id: 'n1', confession_id: 'c1' },
      { id: 'n2', confession_id: null },
      { id: 'n3', confession_id: null },
    ]);
    expect(onPg!.conversations).toEqual([
      { user_id: 'u1', sent_count: 1, started_ms: Date.parse('2026-01-01T00:00:01.250Z') },
      { user_id: 'u2', sent_count: 1, started_ms: null },
    ]);
    expect(onPg!.postedSeqs).toEqual([
      { id: 'c1', posted_seq: 5 },
      { id: 'c2', posted_seq: 6 },
    ]);
    expect(onPg!.log[1]).toEqual({
      seq: 6,
      type: 'confession_deleted',
      payload: '{"type":"confession_deleted","confessionId":"c2","seq":6}',
    });
    expect(onPg!.rejectCodes).toEqual([
      { mid: 1, code: 'messageTooLong' },
      { mid: 2, code: 'awaitingReply' },
      { mid: 3, code: 'invalid' },
    ]);
    expect(onPg!.totalsAfter).toEqual([
      { scope: '*', n: 1 },
      { scope: 'c:X', n: 1 },
    ]);
    expect(onPg!.collation).toEqual({ wrongOrderRefused: true, byteOrderTaken: true });
    expect(onPg!.notInterests).toBe(true);
    expect(onPg!.notes).toEqual([
      { id: 1, update_data: Buffer.from([1]) },
      { id: 2, update_data: Buffer.from([2]) },
    ]);
    await lite.destroy();
  });
});
