import { beforeEach, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { MutationFrame } from '@campus/protocol';
import { audience } from '../src/realtime/audiences';
import { CHANGE_RETENTION_MS } from '../src/realtime/change-log';
import { exactlyOnce, refusal, type MutationOutcome } from '../src/realtime/exactly-once';
import { entriesBetween, logReader } from '../src/realtime/pg-change-log';
import { toPgPlaceholders } from '../src/realtime/pg-transactor';
import { sql, type Tx } from '../src/realtime/transaction';
import { idOf, insertNote, pgTransactorKit, range, read } from './support/pg-transactor-kit';

/**
 * PgTransactor against a real PostgreSQL (TEST_DATABASE_URL; support/postgres.ts), in a throwaway schema.
 * Without PostgreSQL these tests fail, never skip. Two pools on one schema stand for two nodes of one
 * deployment: the change log's order and exactly-once must hold across them.
 */

const kit = pgTransactorKit();
const { logSeqs, noteIds } = kit;
let clock = 1_000;
/** A node on the engine's clock: its own pool unless given one (support/pg-transactor-kit.ts). */
const node = (on?: pg.Pool) => kit.node({ pool: on, now: () => clock });

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('PgTransactor', () => {
  beforeEach(async () => {
    clock = 1_000;
    await kit.reset();
  });

  it('commits writes and changes together, with contiguous seqs, published once after COMMIT in order', async () => {
    const { transactor, published } = await node(kit.pool);
    const result = await transactor.commit(async (tx) => {
      expect(tx.nextSeq()).toBe(1);
      expect(await tx.run(insertNote, 'a', 'one')).toBe(1);
      const first = tx.emit(read('a'), [audience.user('ann')]);
      expect(tx.nextSeq()).toBe(2);
      tx.emit(read('b'), [audience.user('ann'), audience.group('g')]);
      expect(published).toHaveLength(0);
      // The tx sees its own rows, the log's queued appends included; BIGINT comes back as a number.
      expect(await tx.first(sql<{ body: string }>('SELECT body FROM test_notes WHERE id = ?'), 'a')).toEqual({
        body: 'one',
      });
      expect(await tx.all(sql<{ seq: number }>('SELECT seq FROM change_log ORDER BY seq'))).toEqual([
        { seq: 1 },
        { seq: 2 },
      ]);
      return first.seq;
    });
    expect(result).toBe(1);
    expect(published.map((batch) => batch.map((c) => [c.change.seq, idOf(c)]))).toEqual([
      [
        [1, 'a'],
        [2, 'b'],
      ],
    ]);
    expect(published[0]![1]!.audiences).toEqual(['u:ann', 'g:g']);
    expect(published[0]![0]!.frame.toString()).toBe(published[0]![0]!.json);
    expect(transactor.currentSeq()).toBe(2);
    await transactor.commit(async (tx) => void tx.emit(read('c'), [audience.user('ann')]));
    expect(await logSeqs()).toEqual([1, 2, 3]);
    expect(await entriesBetween(kit.pool, 1, 3)).toEqual([
      { seq: 2, payload: published[0]![1]!.json, audiences: ['g:g', 'u:ann'] },
      { seq: 3, payload: published[1]![0]!.json, audiences: ['u:ann'] },
    ]);
    // A transactor opened later (a restart) continues the sequence.
    const again = await node(kit.pool);
    expect(again.transactor.currentSeq()).toBe(3);
  });

  it('rolls back a failed commit: no rows, no changes, nothing published, and the next commit reuses the seq', async () => {
    const { transactor, published } = await node(kit.pool);
    await expect(
      transactor.commit(async (tx) => {
        await tx.run(insertNote, 'gone', 'x');
        tx.emit(read('gone'), [audience.user('ann')]);
        await tx.run(sql('SELECT 1'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await noteIds()).toEqual([]);
    expect(await logSeqs()).toEqual([]);
    expect(published).toEqual([]);
    expect(transactor.currentSeq()).toBe(0);
    const seq = await transactor.commit(async (tx) => tx.emit(read('kept'), [audience.user('ann')]).seq);
    expect(seq).toBe(1);
    expect(published.flat().map(idOf)).toEqual(['kept']);
  });

  it('undoes only a failed savepoint (nested too): its rows and changes go, seqs stay contiguous', async () => {
    const { transactor, published } = await node(kit.pool);
    await transactor.commit(async (tx) => {
      await tx.run(insertNote, 'kept', 'x');
      tx.emit(read('kept'), [audience.user('ann')]);
      await expect(
        tx.savepoint(async (sp) => {
          await sp.run(insertNote, 'undone', 'x');
          sp.emit(read('undone'), [audience.user('ann')]);
          // The failing statement aborts only the savepoint.
          await sp.run(insertNote, 'kept', 'duplicate key');
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(tx.nextSeq()).toBe(2);
      await tx.savepoint(async (outer) => {
        outer.emit(read('outer'), [audience.user('ann')]);
        await expect(
          outer.savepoint(async (inner) => {
            inner.emit(read('inner'), [audience.user('ann')]);
            throw new Error('inner fails');
          }),
        ).rejects.toThrow('inner fails');
        await outer.run(insertNote, 'outer', 'x');
      });
      tx.emit(read('last'), [audience.user('ann')]);
    });
    expect(await noteIds()).toEqual(['kept', 'outer']);
    expect(await logSeqs()).toEqual([1, 2, 3]);
    expect(published.flat().map((c) => [c.change.seq, idOf(c)])).toEqual([
      [1, 'kept'],
      [2, 'outer'],
      [3, 'last'],
    ]);
  });

  it('refuses to COMMIT a transaction a swallowed error aborted (PostgreSQL would roll it back silently)', async () => {
    const { transactor, published } = await node(kit.pool);
    await expect(
      transactor.commit(async (tx) => {
        tx.emit(read('lost'), [audience.user('ann')]);
        await tx.run(sql('SELECT no_such_column FROM test_notes')).catch(() => undefined);
      }),
    ).rejects.toThrow(/rolled back/);
    expect(published).toEqual([]);
    expect(await logSeqs()).toEqual([]);
    expect(await transactor.commit(async (tx) => tx.nextSeq())).toBe(1);
  });

  it('redacts an earlier change in the log, and one of the same commit as it is published', async () => {
    const { transactor, published } = await node(kit.pool);
    await transactor.commit(async (tx) => void tx.emit(read('secret'), [audience.user('ann')]));
    await transactor.commit(async (tx) => {
      await tx.redact(1, read('withdrawn'));
      tx.emit(read('also-secret'), [audience.user('ann')]);
      await tx.redact(2, read('also-withdrawn'));
    });
    const rows = (
      await kit.pool.query<{ seq: number; payload: string }>('SELECT seq, payload FROM change_log')
    ).rows;
    expect(
      rows.map((r) => [r.seq, (JSON.parse(r.payload) as { notificationId: string }).notificationId]),
    ).toEqual([
      [1, 'withdrawn'],
      [2, 'also-withdrawn'],
    ]);
    expect(published[1]!.map((c) => [c.change.seq, idOf(c), JSON.parse(c.json) as unknown])).toEqual([
      [2, 'also-withdrawn', { type: 'notification_read', notificationId: 'also-withdrawn', seq: 2 }],
    ]);
  });

  it('two nodes committing 200 times each at once: seqs 1..400, no gap, no duplicate, each bus in order', async () => {
    const a = await node();
    const b = await node();
    const commits = (n: typeof a, name: string) =>
      range(1, 200).map((i) =>
        n.transactor.commit(async (tx) => {
          await tx.run(insertNote, `${name}${i}`, name);
          return tx.emit(read(`${name}${i}`), [audience.user('ann')]).seq;
        }),
      );
    const seqs = await Promise.all([...commits(a, 'a'), ...commits(b, 'b')]);
    expect([...seqs].sort((x, y) => x - y)).toEqual(range(1, 400));
    expect(await logSeqs()).toEqual(range(1, 400));
    for (const [n, name] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      const got = n.seqs();
      // Strictly increasing: no change twice, none out of order (the other node's are adopted in between).
      for (let i = 1; i < got.length; i++) expect(got[i]!).toBeGreaterThan(got[i - 1]!);
      const own = n.published.flat().filter((c) => idOf(c).startsWith(name));
      expect(own.map(idOf).sort()).toEqual(
        range(1, 200)
          .map((i) => `${name}${i}`)
          .sort(),
      );
    }
    // Every commit read the log's end under the lock: together the nodes delivered everything up to
    // their last commit, with no hole.
    const last = Math.max(a.transactor.currentSeq(), b.transactor.currentSeq());
    expect(last).toBe(400);
    const fromLast = a.transactor.currentSeq() === 400 ? a : b;
    expect(fromLast.seqs()).toEqual(range(1, 400));
  });

  it('makes a commit wait while another node holds one open: a lower seq is never overtaken', async () => {
    const a = await node();
    const b = await node();
    const hold = deferred();
    const aStarted = deferred();
    let bRan = false;
    const first = a.transactor.commit(async (tx) => {
      const seq = tx.emit(read('first'), [audience.user('ann')]).seq;
      await tx.run(sql('SELECT 1'));
      aStarted.resolve();
      // Against Tx's rule (an apply awaits only its tx): it holds the commit open for the test.
      await hold.promise;
      return seq;
    });
    await aStarted.promise;
    const second = b.transactor.commit(async (tx) => {
      bRan = true;
      return tx.emit(read('second'), [audience.user('ann')]).seq;
    });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(bRan).toBe(false);
      // What any reader sees: nothing committed yet, neither seq 1 nor a later one.
      expect(await logSeqs()).toEqual([]);
      const snapshot = await b.transactor.read((tx) =>
        tx.first(sql<{ seq: number | null }>('SELECT max(seq) AS seq FROM change_log')),
      );
      expect(snapshot).toEqual({ seq: null });
    } finally {
      // Also when an expectation failed: a commit left open would hold the lock the other tests need.
      hold.resolve();
    }
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    expect(await logSeqs()).toEqual([1, 2]);
    // b adopted a's change and published it before its own.
    expect(b.seqs()).toEqual([1, 2]);
    expect(a.seqs()).toEqual([1]);
  });

  it('applies a mutation once when the same (deviceId, mid) reaches two nodes at once', async () => {
    const a = await node();
    const b = await node();
    const frame: MutationFrame = {
      type: 'mark_notification_read',
      deviceId: 'device-1',
      mid: 7,
      notificationId: 'n1',
    };
    const where = () => ({ context: frame.type });
    // The dispatcher's steps (mutation-batch.ts), in one savepoint.
    const apply = (tx: Tx): Promise<MutationOutcome> =>
      tx.savepoint(async (sp) => {
        const seen = await exactlyOnce.seen(sp, frame, 'ann', where);
        if (seen) return seen;
        await sp.run(insertNote, `applied-${frame.mid}`, frame.deviceId);
        sp.emit(read(frame.notificationId), [audience.user('ann')]);
        await exactlyOnce.applied(sp, frame, 'ann');
        return { ok: true };
      });
    const outcomes = await Promise.all([
      ...range(1, 5).map(() => a.transactor.commit(apply)),
      ...range(1, 5).map(() => b.transactor.commit(apply)),
    ]);
    expect(outcomes).toEqual(range(1, 10).map(() => ({ ok: true })));
    expect(await noteIds()).toEqual(['applied-7']);
    expect(await logSeqs()).toEqual([1]);

    // A refusal is remembered: the resend through the other node gets the same answer.
    const refused = { ...frame, mid: 8 };
    const outcome = refusal('invalid', 'no such notification', { context: refused.type });
    await a.transactor.commit((tx) => exactlyOnce.refused(tx, refused, 'ann', outcome));
    await a.transactor.commit((tx) => exactlyOnce.refused(tx, refused, 'ann', outcome));
    expect(await b.transactor.commit((tx) => exactlyOnce.seen(tx, refused, 'ann', where))).toEqual(outcome);
  });

  it('prunes entries past the retention but keeps the newest; another node learns the floor on its prune', async () => {
    const a = await node();
    const b = await node();
    for (const id of ['one', 'two', 'three'])
      await a.transactor.commit(async (tx) => void tx.emit(read(id), [audience.user('ann')]));
    clock += CHANGE_RETENTION_MS + 1;
    await a.transactor.prune();
    expect(await logSeqs()).toEqual([3]);
    expect((await kit.pool.query('SELECT seq FROM change_audience')).rows).toEqual([{ seq: 3 }]);
    expect(a.transactor.floor()).toBe(2);
    expect(b.transactor.floor()).toBe(0);
    await b.transactor.prune();
    expect(b.transactor.floor()).toBe(2);
    // Everything past the retention, the newest too: it stays, and the sequence goes on after it.
    await a.transactor.prune();
    expect(await logSeqs()).toEqual([3]);
    expect(await b.transactor.commit(async (tx) => tx.emit(read('four'), [audience.user('ann')]).seq)).toBe(
      4,
    );
  });

  it("pages through an audience's changes after a cursor in seq order, up to the handover seq", async () => {
    const { transactor } = await node(kit.pool);
    const names = ['u:ann', 'u:bob', 'g:one', 'g:two'] as const;
    let state = 7;
    const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    await transactor.commit(async (tx) => {
      for (let i = 1; i <= 600; i++) {
        const picked = names.filter(() => random() < 0.35);
        tx.emit(read(`n${i}`), picked.length ? picked : ['u:carol']);
      }
    });
    const wanted = ['u:ann', 'g:one', 'g:one'];
    for (const [after, upTo, page] of [
      [0, 600, 1000],
      [0, 600, 7],
      [123, 500, 50],
      [599, 600, 10],
      [600, 600, 10],
    ] as const) {
      const expected = (
        await kit.pool.query<{ seq: number }>(
          `SELECT DISTINCT seq FROM change_audience WHERE audience = ANY($1) AND seq > $2 AND seq <= $3
            ORDER BY seq`,
          [wanted, after, upTo],
        )
      ).rows.map((r) => r.seq);
      const got: number[] = [];
      const reader = logReader(kit.pool, wanted, after, upTo);
      let pages = 0;
      for (;;) {
        const rows = await reader.next(page);
        for (const row of rows) expect(JSON.parse(row.payload)).toMatchObject({ seq: row.seq });
        got.push(...rows.map((row) => row.seq));
        pages++;
        if (!(await reader.hasMore())) break;
        expect(rows).toHaveLength(page);
      }
      expect(got).toEqual(expected);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / page)));
    }
    // The same through one snapshot, the floor checked in it (a pull).
    const viaSnapshot = await transactor.readLog(async (log) => {
      expect(await log.floor()).toBe(0);
      const reader = log.reader(['u:bob'], 0, 600);
      const all: number[] = [];
      do all.push(...(await reader.next(100)).map((r) => r.seq));
      while (await reader.hasMore());
      return all;
    });
    expect(viaSnapshot.length).toBeGreaterThan(100);
    expect(viaSnapshot).toEqual([...viaSnapshot].sort((x, y) => x - y));
  });

  it('rolls back and rewinds when the connection drops mid-commit; the next commit gets a fresh one', async () => {
    const { transactor, published } = await node(kit.pool);
    await expect(
      transactor.commit(async (tx) => {
        tx.emit(read('lost'), [audience.user('ann')]);
        const me = await tx.first(sql<{ pid: number }>('SELECT pg_backend_pid() AS pid'));
        await kit.pool.query('SELECT pg_terminate_backend($1)', [me!.pid]);
        await tx.run(insertNote, 'lost', 'x');
      }),
    ).rejects.toThrow();
    expect(published).toEqual([]);
    expect(await logSeqs()).toEqual([]);
    expect(await transactor.commit(async (tx) => tx.emit(read('next'), [audience.user('ann')]).seq)).toBe(1);
  });

  it('runs Kysely-compiled queries, reads in one snapshot, and refuses nesting and use after the end', async () => {
    const opened = kit.schema.open();
    const { transactor } = await node(opened.pool);
    expect(transactor.insideTransaction).toBe(false);
    await transactor.commit(async (tx) => {
      expect(transactor.insideTransaction).toBe(true);
      await tx.run(insertNote, 'k', 'kysely');
      const compiled = opened.db.selectFrom('users').select('id').where('id', '=', 'ann').compile();
      expect(await tx.all(compiled)).toEqual([{ id: 'ann' }]);
    });
    expect(await transactor.read((tx) => tx.all(sql<{ id: string }>('SELECT id FROM test_notes')))).toEqual([
      { id: 'k' },
    ]);
    await expect(transactor.commit(() => transactor.commit(async () => 1))).rejects.toThrow(/savepoint/);
    await expect(transactor.commit(() => transactor.read(async () => 1))).rejects.toThrow(/its tx/);
    let leaked: Tx | undefined;
    await transactor.commit(async (tx) => void (leaked = tx));
    await expect(leaked!.run(insertNote, 'late', 'x')).rejects.toThrow(/transaction is over/);
    expect(() => leaked!.emit(read('late'), [])).toThrow(/outside its transaction/);
  });
});

describe('toPgPlaceholders', () => {
  it('numbers ? placeholders and leaves literals, quoted names and comments alone', () => {
    expect(toPgPlaceholders('SELECT a FROM t WHERE a = ? AND b IN (?, ?)')).toBe(
      'SELECT a FROM t WHERE a = $1 AND b IN ($2, $3)',
    );
    expect(toPgPlaceholders(`SELECT '?', 'it''s ?', "odd?name", ? -- why?\n, ? /* ? */, $$?$$, ?`)).toBe(
      `SELECT '?', 'it''s ?', "odd?name", $1 -- why?\n, $2 /* ? */, $$?$$, $3`,
    );
  });
});
