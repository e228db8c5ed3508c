import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '@campus/protocol';
import { audience } from '../src/realtime/audiences';
import { inProcessChangeBus, type CommittedChange } from '../src/realtime/bus';
import { SqliteTransactor } from '../src/realtime/sqlite-transactor';
import { sql } from '../src/realtime/transaction';

/** A transactor on an in-memory database with the change log's tables and one table to write. */
function setup(file = ':memory:') {
  const sqlite = new SQLite(file);
  sqlite.exec(`CREATE TABLE change_log (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL,
                 created_ms INTEGER NOT NULL);
               CREATE TABLE change_audience (audience TEXT NOT NULL, seq INTEGER NOT NULL,
                 PRIMARY KEY (audience, seq)) WITHOUT ROWID;
               CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL);`);
  const published: CommittedChange[][] = [];
  const bus = inProcessChangeBus((err) => {
    throw err;
  });
  bus.subscribe((changes) => published.push([...changes]));
  const transactor = new SqliteTransactor(sqlite, { now: () => 1000, bus });
  opened.push(sqlite);
  return { sqlite, transactor, published };
}
const opened: SQLite.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

const insertNote = sql('INSERT INTO notes (id, body) VALUES (?, ?)');
const noteIds = (sqlite: SQLite.Database) => sqlite.prepare('SELECT id FROM notes ORDER BY id').pluck().all();
const logSeqs = (sqlite: SQLite.Database) =>
  sqlite.prepare('SELECT seq FROM change_log ORDER BY seq').pluck().all();
const read = (id: string) => ({ type: 'notification_read', notificationId: id }) as const;
const ids = (changes: readonly CommittedChange[]) =>
  changes.map((c) => [
    c.change.seq,
    (c.change as Extract<Change, { type: 'notification_read' }>).notificationId,
  ]);

describe('SqliteTransactor', () => {
  it('commits writes and changes together and publishes the changes once, after commit, in seq order', async () => {
    const { sqlite, transactor, published } = setup();
    const result = await transactor.commit(async (tx) => {
      expect(tx.nextSeq()).toBe(1);
      await tx.run(insertNote, 'a', 'one');
      const first = tx.emit(read('a'), [audience.user('ann')]);
      expect(published).toHaveLength(0);
      tx.emit(read('b'), [audience.user('ann'), audience.group('g')]);
      expect(await tx.first(sql<{ body: string }>('SELECT body FROM notes WHERE id = ?'), 'a')).toEqual({
        body: 'one',
      });
      return first.seq;
    });
    expect(result).toBe(1);
    expect(noteIds(sqlite)).toEqual(['a']);
    expect(published.map(ids)).toEqual([
      [
        [1, 'a'],
        [2, 'b'],
      ],
    ]);
    expect(published[0]![1]!.audiences).toEqual(['u:ann', 'g:g']);
    expect(published[0]![0]!.frame.toString()).toBe(published[0]![0]!.json);
    expect(transactor.currentSeq()).toBe(2);
  });

  it('undoes only a failed savepoint: its rows and changes go, the rest commits and seqs stay contiguous', async () => {
    const { sqlite, transactor, published } = setup();
    await transactor.commit(async (tx) => {
      await tx.run(insertNote, 'kept', 'x');
      tx.emit(read('kept'), [audience.user('ann')]);
      await expect(
        tx.savepoint(async (sp) => {
          await sp.run(insertNote, 'undone', 'x');
          sp.emit(read('undone'), [audience.user('ann')]);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(tx.nextSeq()).toBe(2);
      await tx.savepoint(async (sp) => {
        await sp.run(insertNote, 'nested', 'x');
        sp.emit(read('nested'), [audience.user('ann')]);
      });
    });
    expect(noteIds(sqlite)).toEqual(['kept', 'nested']);
    expect(published.map(ids)).toEqual([
      [
        [1, 'kept'],
        [2, 'nested'],
      ],
    ]);
    expect(logSeqs(sqlite)).toEqual([1, 2]);
  });

  it('rolls the whole commit back on a throw, publishes nothing, and reuses its seqs', async () => {
    const { sqlite, transactor, published } = setup();
    await expect(
      transactor.commit(async (tx) => {
        await tx.run(insertNote, 'gone', 'x');
        tx.emit(read('gone'), [audience.user('ann')]);
        throw new Error('fault');
      }),
    ).rejects.toThrow('fault');
    expect(noteIds(sqlite)).toEqual([]);
    expect(logSeqs(sqlite)).toEqual([]);
    expect(published).toHaveLength(0);
    expect(sqlite.inTransaction).toBe(false);
    const seq = await transactor.commit(async (tx) => tx.emit(read('next'), [audience.user('ann')]).seq);
    expect(seq).toBe(1);
    expect(published.map(ids)).toEqual([[[1, 'next']]]);
  });

  it('serializes commits: one waits for the other to end, in arrival order', async () => {
    const { transactor, published } = setup();
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = transactor.commit(async (tx) => {
      events.push('first begins');
      tx.emit(read('first'), [audience.user('ann')]);
      // Waits on something outside the transaction: only a test does that.
      await gate;
      events.push('first ends');
    });
    const second = transactor.commit(async (tx) => {
      events.push('second begins');
      tx.emit(read('second'), [audience.user('ann')]);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(['first begins']);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['first begins', 'first ends', 'second begins']);
    expect(published.map(ids)).toEqual([[[1, 'first']], [[2, 'second']]]);
  });

  it('refuses a commit inside a commit (a savepoint is the way), instead of waiting for itself', async () => {
    const { transactor } = setup();
    await transactor.commit(async () => {
      await expect(transactor.commit(async () => undefined)).rejects.toThrow(/savepoint/);
    });
  });

  it('runs a Kysely-compiled query as well as SQL text', async () => {
    const { sqlite, transactor } = setup();
    const { Kysely, SqliteDialect } = await import('kysely');
    const db = new Kysely<{ notes: { id: string; body: string } }>({
      dialect: new SqliteDialect({ database: sqlite }),
    });
    const insert = db.insertInto('notes').values({ id: 'k', body: 'compiled' }).compile();
    const select = db.selectFrom('notes').select(['id', 'body']).where('id', '=', 'k').compile();
    const row = await transactor.commit(async (tx) => {
      expect(await tx.run(insert)).toBe(1);
      return tx.first(select);
    });
    expect(row).toEqual({ id: 'k', body: 'compiled' });
  });

  it('reads under the write lock: after the commit before it, never inside an open one, with the clock', async () => {
    const { transactor } = setup();
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const writing = transactor.commit(async (tx) => {
      await tx.run(insertNote, 'a', 'uncommitted');
      await gate;
      events.push('commit ends');
    });
    const reading = transactor.read(async (tx) => {
      events.push('read begins');
      expect(tx.now).toBe(1000);
      return tx.all(sql<{ id: string }>('SELECT id FROM notes'));
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual([]);
    release();
    await writing;
    expect(await reading).toEqual([{ id: 'a' }]);
    expect(events).toEqual(['commit ends', 'read begins']);
  });

  it('does not see the rows of a commit that rolls back', async () => {
    const { transactor } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const failing = transactor.commit(async (tx) => {
      await tx.run(insertNote, 'ghost', 'x');
      await gate;
      throw new Error('fault');
    });
    const reading = transactor.read((tx) => tx.all(sql<{ id: string }>('SELECT id FROM notes')));
    release();
    await expect(failing).rejects.toThrow('fault');
    expect(await reading).toEqual([]);
  });

  it('reads without BEGIN IMMEDIATE, so an outside writer holding the file lock does not block it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'transactor-'));
    const file = join(dir, 'db.sqlite');
    const { sqlite, transactor } = setup(file);
    sqlite.pragma('busy_timeout = 0');
    await transactor.commit((tx) => tx.run(insertNote, 'a', 'x'));
    const outside = new SQLite(file);
    opened.push(outside);
    outside.exec('BEGIN IMMEDIATE');
    outside.prepare("INSERT INTO notes (id, body) VALUES ('b', 'outside')").run();
    const count = sql<{ n: number }>('SELECT count(*) AS n FROM notes');
    expect(await transactor.read((tx) => tx.first(count))).toEqual({ n: 1 });
    await expect(transactor.commit((tx) => tx.first(count))).rejects.toThrow(/locked|busy/i);
    outside.exec('COMMIT');
    expect(await transactor.read((tx) => tx.first(count))).toEqual({ n: 2 });
    expect(sqlite.inTransaction).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes over the entries another connection appended (the seed CLI beside the server) with its next commit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'transactor-'));
    const { transactor, published } = setup(join(dir, 'db.sqlite'));
    await transactor.commit(async (tx) => void tx.emit(read('own-1'), [audience.user('ann')]));
    const outside = new SQLite(join(dir, 'db.sqlite'));
    opened.push(outside);
    const append = (seq: number, id: string) =>
      outside.transaction(() => {
        outside
          .prepare('INSERT INTO change_log (seq, type, payload, created_ms) VALUES (?, ?, ?, 0)')
          .run(seq, 'notification_read', JSON.stringify({ ...read(id), seq }));
        outside
          .prepare('INSERT INTO change_audience (audience, seq) VALUES (?, ?)')
          .run(audience.user('ann'), seq);
      })();

    // Another connection's commit that appends nothing: nothing is taken over, the seqs go on.
    outside.prepare("INSERT INTO notes (id, body) VALUES ('n', 'outside')").run();
    await transactor.commit(async (tx) => void tx.emit(read('own-2'), [audience.user('ann')]));
    // An appended entry is sent with the next commit, whose own change comes after it.
    append(3, 'seeded-3');
    await transactor.commit(async (tx) => void tx.emit(read('own-4'), [audience.user('ann')]));
    // A commit that fails after taking an entry over drops it with its rollback; the next one takes it again.
    append(5, 'seeded-5');
    await expect(
      transactor.commit(async (tx) => {
        tx.emit(read('lost'), [audience.user('ann')]);
        throw new Error('fault');
      }),
    ).rejects.toThrow('fault');
    await transactor.commit(async (tx) => void tx.emit(read('own-6'), [audience.user('ann')]));

    expect(published.map(ids)).toEqual([
      [[1, 'own-1']],
      [[2, 'own-2']],
      [
        [3, 'seeded-3'],
        [4, 'own-4'],
      ],
      [
        [5, 'seeded-5'],
        [6, 'own-6'],
      ],
    ]);
    expect(logSeqs(outside)).toEqual([1, 2, 3, 4, 5, 6]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a read inside a commit or a read, and a read tx used after its read', async () => {
    const { transactor } = setup();
    await transactor.commit(async () => {
      await expect(transactor.read(async () => undefined)).rejects.toThrow(/inside a commit/);
    });
    const stale = await transactor.read(async (tx) => {
      await expect(transactor.read(async () => undefined)).rejects.toThrow(/inside a commit or read/);
      return tx;
    });
    await expect(stale.all(sql('SELECT 1'))).rejects.toThrow(/transaction is over/);
  });

  it('redacts a logged change in place: same seq and audiences, the replacement pulled instead', async () => {
    const { sqlite, transactor, published } = setup();
    const seq = await transactor.commit(async (tx) => tx.emit(read('secret'), [audience.user('ann')]).seq);
    await transactor.commit(async (tx) => {
      await tx.redact(seq, read('withdrawn'));
    });
    const row = sqlite.prepare('SELECT type, payload FROM change_log WHERE seq = ?').get(seq);
    expect(row).toEqual({
      type: 'notification_read',
      payload: JSON.stringify({ type: 'notification_read', notificationId: 'withdrawn', seq }),
    });
    expect(sqlite.prepare('SELECT audience FROM change_audience WHERE seq = ?').pluck().all(seq)).toEqual([
      'u:ann',
    ]);
    expect(published.map(ids)).toEqual([[[1, 'secret']]]);
  });

  it('publishes a change redacted in its own commit as redacted, and undoes a redaction on rollback', async () => {
    const { sqlite, transactor, published } = setup();
    await transactor.commit(async (tx) => {
      const change = tx.emit(read('draft'), [audience.user('ann')]);
      await tx.redact(change.seq, read('final'));
    });
    expect(published.map(ids)).toEqual([[[1, 'final']]]);
    await expect(
      transactor.commit(async (tx) => {
        await tx.redact(1, read('lost'));
        throw new Error('fault');
      }),
    ).rejects.toThrow('fault');
    expect(sqlite.prepare('SELECT payload FROM change_log WHERE seq = 1').pluck().get()).toContain('final');
  });

  it('hands each commit its own tx: a stray call from an earlier commit throws, not joins the next', async () => {
    const { sqlite, transactor } = setup();
    const stale = await transactor.commit(async (tx) => tx);
    let strayed: Promise<number> | undefined;
    await transactor.commit(async (tx) => {
      strayed = stale.run(insertNote, 'stray', 'x');
      await tx.run(insertNote, 'own', 'x');
    });
    await expect(strayed).rejects.toThrow(/transaction is over/);
    expect(() => stale.emit(read('stray'), [audience.user('ann')])).toThrow(/outside its transaction/);
    expect(noteIds(sqlite)).toEqual(['own']);
  });

  it('resets its seq and pending changes even when ROLLBACK itself fails', async () => {
    const { sqlite, transactor, published } = setup();
    const exec = sqlite.prepare.bind(sqlite);
    await expect(
      transactor.commit(async (tx) => {
        tx.emit(read('gone'), [audience.user('ann')]);
        // The next ROLLBACK fails once (as on a closed or corrupted handle), then works again.
        const original = exec('ROLLBACK');
        const statements = (transactor as unknown as { statements: { get(sql: string): unknown } })
          .statements;
        const get = statements.get.bind(statements);
        statements.get = (text: string) => {
          if (text !== 'ROLLBACK') return get(text);
          statements.get = get;
          return {
            run: () => {
              original.run();
              throw new Error('rollback failed');
            },
          };
        };
        throw new Error('fault');
      }),
    ).rejects.toThrow('rollback failed');
    const seq = await transactor.commit(async (tx) => tx.emit(read('next'), [audience.user('ann')]).seq);
    expect(seq).toBe(1);
    expect(published.map(ids)).toEqual([[[1, 'next']]]);
  });
});
