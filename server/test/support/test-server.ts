import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SqliteAppDeps } from '../../src/deps';
import { afterAll, beforeAll, it } from 'vitest';
import { startServer, type StartOptions } from '../../src/server';
import { createTestSchema, type TestSchema } from './postgres';

/**
 * TEST_DATABASE=postgres (the `server-pg` vitest project): every server keeps its data in a throwaway
 * PostgreSQL schema instead of SQLite, in a database of its own copied from the run's migrated template
 * (support/postgres.ts). Servers started on the same DATA_DIR (two nodes of one deployment,
 * a restart) share that DATA_DIR's schema.
 */
export const onPostgres = process.env.TEST_DATABASE === 'postgres';

interface SharedSchema {
  schema: TestSchema;
  /** Servers running on it now. */
  users: number;
  /** Whether its DATA_DIR is one startTestServer made (and removes at close): the schema goes with it. */
  owned: boolean;
}

const schemas = new Map<string, SharedSchema>();

/** Drops the schemas still kept (a DATA_DIR a test gave, for a restart): the server-pg setup file's afterAll. */
export async function dropTestSchemas(): Promise<void> {
  const left = [...schemas.values()];
  schemas.clear();
  await Promise.all(left.map((entry) => entry.schema.drop()));
}

async function schemaFor(dataDir: string, owned: boolean): Promise<SharedSchema> {
  let entry = schemas.get(dataDir);
  if (!entry)
    schemas.set(dataDir, (entry = { schema: await createTestSchema({ migrated: true }), users: 0, owned }));
  entry.users++;
  return entry;
}

async function releaseSchema(dataDir: string, entry: SharedSchema): Promise<void> {
  entry.users--;
  if (entry.users > 0 || !entry.owned || schemas.get(dataDir) !== entry) return;
  schemas.delete(dataDir);
  await entry.schema.drop();
}

/**
 * The environment a command-line tool (src/cli) runs with to write where servers started on `dataDir` read:
 * its DATA_DIR and, under TEST_DATABASE=postgres, a DATABASE_URL whose connections' search_path is that
 * DATA_DIR's schema (kept until the test file is done, as any DATA_DIR a test gives). An inherited
 * DATABASE_URL is blanked on SQLite: the tool must write the file the servers read.
 */
export async function cliEnvFor(dataDir: string): Promise<{ DATA_DIR: string; DATABASE_URL: string }> {
  if (!onPostgres) return { DATA_DIR: dataDir, DATABASE_URL: '' };
  let entry = schemas.get(dataDir);
  if (!entry)
    schemas.set(
      dataDir,
      (entry = { schema: await createTestSchema({ migrated: true }), users: 0, owned: false }),
    );
  const url = new URL(entry.schema.url);
  url.searchParams.set('options', `-c search_path=${entry.schema.schema}`);
  return { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
}

/**
 * The deps as tests see them: on SQLite `deps.sqlite` is the handle; under TEST_DATABASE=postgres reading
 * it throws, naming why (a test that pokes SQLite directly does not belong on the server-pg list). The
 * getter goes on the server's own deps object, not a copy: features key per-server state by it.
 */
function testDeps<T extends { sqlite?: SqliteAppDeps['sqlite'] }>(
  deps: T,
): T & Pick<SqliteAppDeps, 'sqlite'> {
  if (!deps.sqlite)
    Object.defineProperty(deps, 'sqlite', {
      configurable: true,
      enumerable: false,
      get() {
        throw new Error(
          'this test reads deps.sqlite, which a server on PostgreSQL (TEST_DATABASE=postgres) has not: ' +
            'take the file off the server-pg list in vitest.config.ts, or read through support/sql.ts',
        );
      },
    });
  return deps as T & Pick<SqliteAppDeps, 'sqlite'>;
}

/**
 * A test of SQLite itself (its query planner, its files): declared on SQLite only, so the server-pg run
 * reports no skipped test (a skip would read as a gap in the PostgreSQL coverage).
 */
export function itOnSqlite(name: string, fn: () => unknown, timeout?: number): void {
  if (!onPostgres) it(name, fn, timeout);
}

/** A controllable clock: starts at real time, moves only when told. */
export function testClock() {
  let now = Date.now();
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

export interface TestResponse {
  status: number;
  body: Record<string, unknown>;
  headers: globalThis.Headers;
}

/**
 * Starts the real server on an ephemeral port with a fresh SQLite database in a temp folder (or, with
 * TEST_DATABASE=postgres, a fresh PostgreSQL schema).
 */
export async function startTestServer(options: StartOptions = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-talk-test-'));
  const usedDir = options.config?.dataDir ?? dataDir;
  const shared = onPostgres ? await schemaFor(usedDir, usedDir === dataDir) : undefined;
  let started: Awaited<ReturnType<typeof startServer>>;
  try {
    started = await startServer({
      ...options,
      config: {
        port: 0,
        host: '127.0.0.1',
        dataDir,
        nodeEnv: 'test',
        logLevel: 'silent',
        webDist: path.join(dataDir, 'no-web-build'),
        ...(shared && {
          // A small pool: test files run side by side, each with a few servers, on one PostgreSQL.
          database: { kind: 'postgres', url: shared.schema.url, schema: shared.schema.schema, poolSize: 5 },
        }),
        ...options.config,
      },
    });
  } catch (err) {
    if (shared) await releaseSchema(usedDir, shared);
    throw err;
  }
  const running = { ...started, deps: testDeps(started.deps) };
  let released = false;

  async function call(
    method: string,
    pathname: string,
    body?: unknown,
    token?: string,
  ): Promise<TestResponse> {
    const res = await fetch(running.url + pathname, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = { text };
    }
    return { status: res.status, body: json, headers: res.headers };
  }

  return {
    ...running,
    dataDir,
    call,
    post: (p: string, body?: unknown, token?: string) => call('POST', p, body ?? {}, token),
    get: (p: string, token?: string) => call('GET', p, undefined, token),
    async close() {
      await running.stop();
      if (shared && !released) {
        released = true;
        await releaseSchema(usedDir, shared);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/**
 * One server for the enclosing describe block (or file): started before its tests, closed after them. Call
 * it where `let server; beforeAll(start); afterAll(close)` would go; the returned function gives the server
 * inside the tests.
 */
export function suiteServer(options: StartOptions = {}): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  });
  afterAll(async () => {
    await server?.close();
    server = undefined;
  });
  return () => {
    if (!server) throw new Error('suiteServer: used outside the tests of its describe block');
    return server;
  };
}
