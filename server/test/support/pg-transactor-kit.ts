import { afterAll, beforeAll } from 'vitest';
import type pg from 'pg';
import type { Change } from '@campus/protocol';
import { migrateToLatest } from '../../src/lib/db/database';
import { inProcessChangeBus, type CommittedChange } from '../../src/realtime/bus';
import { PgTransactor } from '../../src/realtime/pg-transactor';
import { sql } from '../../src/realtime/transaction';
import { createTestSchema, type TestSchema } from './postgres';

/**
 * What the PgTransactor test files share: a throwaway schema migrated as a server has it, plus a table of
 * the tests' own (test_notes), and "nodes" on it (a transactor, its in-process bus and what that published).
 */

/** A table of the tests' own to write beside the engine's, in the migrated schema. */
const NOTES = `CREATE TABLE test_notes (id TEXT COLLATE "C" PRIMARY KEY, body TEXT COLLATE "C" NOT NULL)`;

export const insertNote = sql('INSERT INTO test_notes (id, body) VALUES (?, ?)');
/** A change any test may emit: its notificationId tells the changes apart. */
export const read = (id: string) => ({ type: 'notification_read', notificationId: id }) as const;
export const idOf = (c: CommittedChange) =>
  (c.change as Extract<Change, { type: 'notification_read' }>).notificationId;
export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export interface NodeOptions {
  /** Default: a pool of its own, as another server process of the deployment would have. */
  pool?: pg.Pool;
  now?: () => number;
  pipeline?: boolean;
}

export interface PgTransactorKit {
  readonly schema: TestSchema;
  /** The schema's first pool, for the tests' own reads and writes. */
  readonly pool: pg.Pool;
  /** A node: its transactor, its in-process bus and what the bus published, commit by commit. */
  node(options?: NodeOptions): Promise<{
    transactor: PgTransactor;
    published: CommittedChange[][];
    seqs: () => number[];
    pool: pg.Pool;
  }>;
  /** Empties the log, exactly-once's tables and test_notes, and makes sure user `ann` exists. */
  reset(): Promise<void>;
  logSeqs(): Promise<number[]>;
  noteIds(): Promise<string[]>;
}

/** Creates the schema before the file's tests and drops it after them (vitest hooks of the caller's file). */
export function pgTransactorKit(): PgTransactorKit {
  let schema: TestSchema | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    schema = await createTestSchema();
    const opened = schema.open();
    // The real schema (change_log, change_audience, device_mutations, mutation_rejects), as a server has it.
    await migrateToLatest(opened.db);
    pool = opened.pool;
    await pool.query(NOTES);
  });
  afterAll(async () => {
    await schema?.drop();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('pgTransactorKit: used before its beforeAll ran');
    return value;
  };
  const kit: PgTransactorKit = {
    get schema() {
      return ready(schema);
    },
    get pool() {
      return ready(pool);
    },
    async node({ pool: on = kit.schema.open().pool, now = () => 1_000, pipeline = true } = {}) {
      const published: CommittedChange[][] = [];
      const bus = inProcessChangeBus((err) => {
        throw err;
      });
      bus.subscribe((changes) => published.push([...changes]));
      const transactor = await PgTransactor.open(on, { now, bus, pipeline });
      const seqs = () => published.flat().map((c) => c.change.seq);
      return { transactor, published, seqs, pool: on };
    },
    async reset() {
      // DELETE, not TRUNCATE: these tables are small, and TRUNCATE (CASCADE from users) rewrites every table.
      await kit.pool.query(`DELETE FROM change_log; DELETE FROM change_audience; DELETE FROM device_mutations;
                            DELETE FROM mutation_rejects; DELETE FROM test_notes;
                            INSERT INTO users (id, email, password_hash, first_name, created_at)
                            VALUES ('ann', 'ann@example.edu', 'x', 'Ann', '2026-01-01T00:00:00Z')
                            ON CONFLICT (id) DO NOTHING`);
    },
    logSeqs: async () =>
      (await kit.pool.query<{ seq: number }>('SELECT seq FROM change_log ORDER BY seq')).rows.map(
        (r) => r.seq,
      ),
    noteIds: async () =>
      (await kit.pool.query<{ id: string }>('SELECT id FROM test_notes ORDER BY id')).rows.map((r) => r.id),
  };
  return kit;
}
