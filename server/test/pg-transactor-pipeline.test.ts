import net from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { openPostgres } from '../src/lib/db/postgres';
import { audience } from '../src/realtime/audiences';
import type { PgTransactor } from '../src/realtime/pg-transactor';
import { sql } from '../src/realtime/transaction';
import { TEST_DATABASE_URL } from './support/postgres';
import { idOf, insertNote, pgTransactorKit, range, read } from './support/pg-transactor-kit';

/**
 * PgTransactor's pipelining (pg's pipeline mode on a commit's connection): what nobody waits for rides
 * with the next statement that is waited on, so a commit holds the deployment's write lock for fewer round
 * trips; a failure among what was sent unawaited still fails what it belongs to (its savepoint, or the
 * commit) with its own error; and two nodes committing at once still show every reader a log without a
 * gap, in seq order, whatever rolls back. Against a real PostgreSQL, in a throwaway schema.
 */

const kit = pgTransactorKit();
const { logSeqs, noteIds } = kit;

beforeEach(() => kit.reset());

const node = (on?: pg.Pool, pipeline = true) => kit.node({ pool: on, pipeline });
const selectOne = sql<{ one: number }>('SELECT 1 AS one');

/**
 * A TCP proxy in front of PostgreSQL that counts round trips: a flight is what the client sends after it
 * last received something. Answers reach the client 5 ms late, so a burst the client writes at once is
 * always one flight.
 */
async function roundTripCounter() {
  const target = new URL(TEST_DATABASE_URL);
  const sockets = new Set<net.Socket>();
  const counter = { flights: 0 };
  const server = net.createServer((client) => {
    let answered = true;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on('data', (chunk) => {
      if (answered) counter.flights++;
      answered = false;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) =>
      setTimeout(() => {
        answered = true;
        client.write(chunk);
      }, 5),
    );
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    counter,
    url: url.toString(),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('PgTransactor, pipelined', () => {
  it('spends a round trip only on what is waited for: queued writes, appends, SAVEPOINT and COMMIT ride along', async () => {
    const proxy = await roundTripCounter();
    const opened = openPostgres(proxy.url, { schema: kit.schema.schema, max: 1 });
    try {
      const flightsOf = async (pipeline: boolean, fn: Parameters<PgTransactor['commit']>[0]) => {
        const { transactor } = await node(opened.pool, pipeline);
        // Once first: the named statements are prepared, the connection is open.
        await transactor.commit(fn);
        proxy.counter.flights = 0;
        await transactor.commit(fn);
        return proxy.counter.flights;
      };
      let n = 0;
      const writes: Parameters<PgTransactor['commit']>[0] = async (tx) => {
        await tx.first(selectOne);
        for (let i = 0; i < 20; i++) tx.queue(insertNote, `w${++n}`, 'x');
        tx.emit(read(`w${n}`), [audience.user('ann')]);
      };
      // BEGIN with the lock and the log's end; the read; the 20 writes, the append and COMMIT.
      expect(await flightsOf(true, writes)).toBe(3);
      // One statement per round trip (as before pipelining): 1 + 1 + 20 + 1 + 1.
      expect(await flightsOf(false, writes)).toBe(24);

      // A batch of 5 mutations, each in its savepoint: SAVEPOINT goes with the mutation's first read, its
      // writes and append with RELEASE; COMMIT alone at the end (nothing left to send with it).
      const batch: Parameters<PgTransactor['commit']>[0] = async (tx) => {
        for (let k = 0; k < 5; k++)
          await tx.savepoint(async (sp) => {
            await sp.first(selectOne);
            sp.queue(insertNote, `b${++n}`, 'x');
            sp.queue(insertNote, `b${++n}`, 'x');
            sp.emit(read(`b${n}`), [audience.user('ann')]);
          });
      };
      expect(await flightsOf(true, batch)).toBe(1 + 5 * 2 + 1);
      expect(await flightsOf(false, batch)).toBe(1 + 5 * 6 + 1);
    } finally {
      await opened.close();
      await proxy.close();
    }
  });

  it("fails only a queued write's own savepoint, with the write's own error; the batch's next mutation goes on", async () => {
    await kit.pool.query(`INSERT INTO test_notes (id, body) VALUES ('taken', 'x')`);
    const { transactor, published } = await node(kit.pool);
    const outcomes: string[] = [];
    await transactor.commit(async (tx) => {
      for (const id of ['first', 'taken', 'third'])
        await tx
          .savepoint(async (sp) => {
            await sp.first(selectOne);
            sp.queue(insertNote, id, 'x');
            sp.emit(read(id), [audience.user('ann')]);
          })
          .then(
            () => outcomes.push(`${id}: ok`),
            (error: Error) => outcomes.push(`${id}: ${error.message}`),
          );
    });
    // The cause, not PostgreSQL's "current transaction is aborted" for the statements after it.
    expect(outcomes).toEqual([
      'first: ok',
      expect.stringMatching(/^taken: duplicate key value violates unique constraint/),
      'third: ok',
    ]);
    expect(await noteIds()).toEqual(['first', 'taken', 'third']);
    // The failed savepoint's change was rewound: seqs stay contiguous.
    expect(await logSeqs()).toEqual([1, 2]);
    expect(published.flat().map((c) => [c.change.seq, idOf(c)])).toEqual([
      [1, 'first'],
      [2, 'third'],
    ]);
  });

  it("fails the commit with a queued write's own error, whether a statement follows it or only COMMIT", async () => {
    await kit.pool.query(`INSERT INTO test_notes (id, body) VALUES ('taken', 'x')`);
    const { transactor, published } = await node(kit.pool);
    await expect(
      transactor.commit(async (tx) => {
        tx.queue(insertNote, 'taken', 'x');
        tx.emit(read('lost'), [audience.user('ann')]);
      }),
    ).rejects.toThrow(/duplicate key value violates unique constraint/);
    let awaitedError: unknown;
    await expect(
      transactor.commit(async (tx) => {
        tx.queue(insertNote, 'taken', 'x');
        tx.emit(read('lost'), [audience.user('ann')]);
        // Swallowed here, still the commit's failure: PostgreSQL has aborted the transaction.
        await tx.first(selectOne).catch((error: unknown) => (awaitedError = error));
      }),
    ).rejects.toThrow(/duplicate key value violates unique constraint/);
    expect(String(awaitedError)).toMatch(/duplicate key value violates unique constraint/);
    expect(published).toEqual([]);
    expect(await logSeqs()).toEqual([]);
    // Nothing of a failed commit sticks to the next one.
    expect(await transactor.commit(async (tx) => tx.emit(read('next'), [audience.user('ann')]).seq)).toBe(1);
  });

  it('two nodes committing at once, with savepoints, queued writes and rollbacks: no reader ever sees a gap, and the log ends contiguous', async () => {
    const a = await node();
    const b = await node();
    const watcher = kit.schema.open();
    let stop = false;
    const gaps: string[] = [];
    let looks = 0;
    // What a pull or a gap fill relies on: in any one snapshot, every seq up to the newest is there.
    const watching = (async () => {
      while (!stop) {
        const { rows } = await watcher.pool.query<{ n: number; max: number }>(
          'SELECT count(*) AS n, coalesce(max(seq), 0) AS max FROM change_log',
        );
        const { n, max } = rows[0]!;
        if (Number(n) !== Number(max)) gaps.push(`${n} entries up to seq ${max}`);
        looks++;
      }
    })();
    let kept = 0;
    const failures: string[] = [];
    const commits = (n: typeof a, name: string) =>
      range(1, 80).map((i) =>
        n.transactor
          .commit(async (tx) => {
            await tx.savepoint(async (sp) => {
              await sp.first(selectOne);
              sp.queue(insertNote, `${name}${i}`, name);
              sp.emit(read(`${name}${i}`), [audience.user('ann')]);
            });
            // Every third commit's second mutation is refused after its writes and change: undone alone.
            await tx
              .savepoint(async (sp) => {
                sp.queue(insertNote, `${name}${i}-second`, name);
                sp.emit(read(`${name}${i}-second`), [audience.user('ann')]);
                if (i % 3 === 0) throw new Error('refused');
              })
              .catch(() => undefined);
            // Every seventh commit fails as a whole, after its changes: rolled back, its seqs reused.
            if (i % 7 === 0) throw new Error('rolled back');
          })
          .then(
            () => (kept += i % 3 === 0 ? 1 : 2),
            (error: Error) => {
              // Only the deliberate rollbacks: two nodes taking one seq would fail on change_log's key.
              if (error.message !== 'rolled back') failures.push(error.message);
            },
          ),
      );
    try {
      await Promise.all([...commits(a, 'a'), ...commits(b, 'b')]);
    } finally {
      stop = true;
      await watching;
      await watcher.close();
    }
    expect(failures).toEqual([]);
    expect(gaps).toEqual([]);
    expect(looks).toBeGreaterThan(10);
    expect(await logSeqs()).toEqual(range(1, kept));
    for (const n of [a, b]) {
      const got = n.seqs();
      // Each node's bus in seq order, nothing twice (the other node's are adopted in between).
      for (let i = 1; i < got.length; i++) expect(got[i]!).toBeGreaterThan(got[i - 1]!);
      expect(got.length).toBeGreaterThan(0);
    }
    const last = a.transactor.currentSeq() === kept ? a : b;
    expect(last.seqs()).toEqual(range(1, kept));
  });
});

describe("openPostgres's connections", () => {
  it("run without JIT (it compiled the change log's reads for half a second a commit), keeping the URL's own options", async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set('options', '-c statement_timeout=4321');
    const opened = openPostgres(url.toString(), { schema: kit.schema.schema, max: 1 });
    try {
      const show = async (setting: string) =>
        (await opened.pool.query<Record<string, string>>(`SHOW ${setting}`)).rows[0]![setting];
      expect(await show('jit')).toBe('off');
      expect(await show('statement_timeout')).toBe('4321ms');
      expect(await show('search_path')).toBe(kit.schema.schema);
    } finally {
      await opened.close();
    }
  });
});
