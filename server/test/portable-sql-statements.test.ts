import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { migrateToLatest, openDatabase, type OpenedDatabase } from '../src/lib/db/database';
import type * as PortableSql from '../src/lib/db/portable-sql';
import type { Dialect } from '../src/lib/db/portable-sql';
import type * as Transaction from '../src/realtime/transaction';
import { toPgPlaceholders } from '../src/realtime/pg-transactor';
import { createTestSchema, type TestSchema } from './support/postgres';

/**
 * Every statement the server declares with `sql()` (realtime/transaction.ts) is prepared on a migrated
 * SQLite and a migrated PostgreSQL 15: parsed and planned against the real tables, so a SQLite-only
 * function, an ambiguous column, a FROM subquery without an alias or a GROUP BY PostgreSQL refuses fails
 * here rather than on a PostgreSQL deployment. A statement built for one dialect (portable-sql.ts
 * `perDialect`) is prepared on that one only; a list statement (`inList`, `valuesList`) with a sample
 * list. Without PostgreSQL this fails, never skips.
 */

const state = vi.hoisted(() => ({
  /** text → where it was declared and for which database (undefined: both). */
  seen: new Map<string, { where: string; dialect: Dialect | undefined }>(),
  dialect: undefined as Dialect | undefined,
}));

/** The declaring file and line of a statement: the first stack frame in server/src outside the helpers. */
function declaredAt(stack: string | undefined): string {
  const frames = (stack ?? '').split('\n').slice(1);
  const frame = frames.find(
    (f) => /server\/src\//.test(f) && !/lib\/db\/portable-sql|realtime\/transaction/.test(f),
  );
  const match = frame && /server\/src\/([^:)]+:\d+)/.exec(frame);
  return match?.[1] ?? 'unknown';
}

vi.mock('../src/realtime/transaction', async (importOriginal) => {
  const real = await importOriginal<typeof Transaction>();
  return {
    ...real,
    sql: (text: string) => {
      if (!state.seen.has(text))
        state.seen.set(text, { where: declaredAt(new Error().stack), dialect: state.dialect });
      return real.sql(text);
    },
  };
});

vi.mock('../src/lib/db/portable-sql', async (importOriginal) => {
  const real = await importOriginal<typeof PortableSql>();
  const within = <T>(dialect: Dialect, build: () => T): T => {
    const outer = state.dialect;
    state.dialect = dialect;
    try {
      return build();
    } finally {
      state.dialect = outer;
    }
  };
  return {
    ...real,
    perDialect: <T>(build: (dialect: Dialect) => T) =>
      real.perDialect((dialect) => within(dialect, () => build(dialect))),
    // A sample list builds the statement now, so it is recorded (in the dialect being built, if any).
    inList: <S>(build: (list: string) => S) => {
      const list = real.inList(build);
      list(['a', 'b', 'c']);
      return list;
    },
    valuesList: <S>(build: (table: string) => S) => {
      const list = real.valuesList(build);
      list(['a', 'b', 'c']);
      return list;
    },
  };
});

/**
 * Statements known not to run on PostgreSQL yet, in code owned outside the portable-SQL change: the file
 * (under server/src) and a piece of the statement's text, with why. Fixing one fails this test until its
 * entry goes.
 */
const NOT_YET_ON_POSTGRES: { file: string; contains: string; why: string }[] = [];
const knownFailure = (file: string, text: string) =>
  NOT_YET_ON_POSTGRES.find((k) => k.file === file && text.includes(k.contains));

const SRC = path.join(__dirname, '../src');
/** Where the statements are declared: the features, lib and the engine (not the entry points). */
const ROOTS = ['modules', 'lib', 'realtime'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

let schema: TestSchema;
let lite: OpenedDatabase;

beforeAll(async () => {
  lite = openDatabase(':memory:');
  await migrateToLatest(lite.db);
  schema = await createTestSchema();
  await migrateToLatest(schema.open().db);
});
afterAll(async () => {
  await lite?.close();
  await schema?.drop();
});

it('prepares every declared statement on SQLite and on PostgreSQL', async () => {
  // The server's projects share one module graph between the files a worker runs (vitest.config.ts,
  // `isolate: false`): a file run earlier may have loaded these modules, declaring their statements before
  // the mocks above could see them. Loaded anew, each declaration goes through the mocked `sql()`.
  vi.resetModules();
  for (const file of ROOTS.flatMap((root) => sourceFiles(path.join(SRC, root)))) await import(file);
  // Statements built per call from a count, and text run outside `sql()`.
  const reports = await import('../src/modules/reports/repo');
  const verification = await import('../src/modules/verification/repo');
  const sessions = await import('../src/lib/auth/sessions');
  reports.reportedCountsSql(3);
  reports.restrictionsSql(3);
  verification.historySql(3);
  state.seen.set(sessions.SESSION_LOOKUP_SQL, { where: 'lib/auth/sessions.ts', dialect: undefined });
  expect(state.seen.size).toBeGreaterThan(150);

  const client = await schema.open().pool.connect();
  const failures: string[] = [];
  const stillFailing = new Set<string>();
  try {
    let n = 0;
    for (const [text, { where, dialect }] of state.seen) {
      const file = where.replace(/:\d+$/, '');
      if (dialect !== 'postgres') {
        try {
          lite.sqlite.prepare(text);
        } catch (error) {
          failures.push(`SQLite ${where}: ${(error as Error).message}`);
        }
      }
      if (dialect !== 'sqlite') {
        const name = `ct_check_${n++}`;
        try {
          await client.query(`PREPARE ${name} AS ${toPgPlaceholders(text)}`);
          await client.query(`DEALLOCATE ${name}`);
        } catch (error) {
          const known = knownFailure(file, text);
          if (known) stillFailing.add(known.why);
          else failures.push(`PostgreSQL ${where}: ${(error as Error).message}`);
        }
      }
    }
  } finally {
    client.release();
  }
  expect(failures).toEqual([]);
  // Each listed statement is still refused: a fixed one comes off the list.
  expect(NOT_YET_ON_POSTGRES.filter((k) => !stillFailing.has(k.why)).map((k) => k.why)).toEqual([]);
});
