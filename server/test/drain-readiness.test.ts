import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { NodeLifecycle } from '../src/lib/lifecycle';
import { onPostgres, startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/**
 * Every statement fails, as on a lost disk or database, until `restore`: on SQLite every statement the
 * handle is asked to prepare or run, on PostgreSQL every connection asked of a pool (Kysely's and the transactor's).
 */
function breakDatabase(): { restore(): void } {
  if (onPostgres) {
    const proto = pg.Pool.prototype;
    const connect = proto.connect;
    // Both of pg-pool's forms, as the real one fails: `pool.query` (the prune's floor read, say) passes a
    // callback and never looks at a returned promise, which would then be an unhandled rejection.
    proto.connect = ((callback?: (error: Error) => void) => {
      const error = Object.assign(new Error('connect ECONNREFUSED /secret/path/.s.PGSQL.5432'), {
        code: 'ECONNREFUSED',
      });
      if (!callback) return Promise.reject(error);
      process.nextTick(() => callback(error));
      return undefined;
    }) as unknown as typeof proto.connect;
    return {
      restore: () => {
        proto.connect = connect;
      },
    };
  }
  const sqlite = server.deps.sqlite;
  const fail = () => {
    throw Object.assign(new Error('disk I/O error at /secret/path/campus-talk.sqlite'), {
      code: 'SQLITE_IOERR',
    });
  };
  const prepare = sqlite.prepare.bind(sqlite);
  // Statements are prepared once and cached (statement-cache.ts): running one fails too, as on a lost disk.
  const statement = Object.getPrototypeOf(prepare('SELECT 1')) as Record<Run, unknown>;
  const runs = { all: statement.all, get: statement.get, run: statement.run, iterate: statement.iterate };
  sqlite.prepare = fail as typeof sqlite.prepare;
  Object.assign(statement, { all: fail, get: fail, run: fail, iterate: fail });
  return {
    restore: () => {
      sqlite.prepare = prepare;
      Object.assign(statement, runs);
    },
  };
}

type Run = 'all' | 'get' | 'run' | 'iterate';

describe('/healthz and /readyz', () => {
  it('is ready when the database answers, with no-store and the security headers, no sign-in needed', async () => {
    const res = await server.get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok' } });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const live = await server.get('/healthz');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ ok: true });
    expect(live.headers.get('cache-control')).toBe('no-store');
    expect(live.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 503 naming the failed check on a database fault, and nothing of the error; /healthz stays 200', async () => {
    const broken = breakDatabase();
    try {
      const res = await server.get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'failed' } });
      expect(JSON.stringify(res.body)).not.toMatch(/disk|secret|SQLITE|ECONN/);
      // Liveness asks nothing of the database: a database outage must not get the node restarted.
      expect((await server.get('/healthz')).status).toBe(200);
      // The fault reaches `pool.query` (pg-pool's callback form) as a rejection, as the engine's prune meets it
      // when its floor read runs in the outage: not a query that never answers beside an unhandled rejection.
      if (onPostgres) {
        const pool = new pg.Pool({ connectionString: 'postgres://127.0.0.1:5432/never', max: 1 });
        await expect(pool.query('SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
        await pool.end();
      }
    } finally {
      broken.restore();
    }
    expect((await server.get('/readyz')).status).toBe(200);
  });

  it('counts a check that does not answer in time as failed (a hung database, later Redis)', async () => {
    const lifecycle = new NodeLifecycle(
      [
        { name: 'database', run: () => Promise.resolve() },
        { name: 'redis', run: () => new Promise(() => undefined) },
      ],
      50,
    );
    const started = Date.now();
    expect(await lifecycle.readiness()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', redis: 'timeout' },
    });
    expect(Date.now() - started).toBeLessThan(1000);
    lifecycle.startDraining();
    expect(await lifecycle.readiness()).toEqual({ status: 'draining' });
  });

  it('reads DRAIN_TIMEOUT_MS, 10 s by default', () => {
    expect(loadConfig({}).drainTimeoutMs).toBe(10_000);
    expect(loadConfig({ DRAIN_TIMEOUT_MS: '2500' }).drainTimeoutMs).toBe(2500);
    for (const bad of ['0', '-5', 'soon', '1.5', '600001'])
      expect(() => loadConfig({ DRAIN_TIMEOUT_MS: bad })).toThrow(/DRAIN_TIMEOUT_MS/);
  });
});
