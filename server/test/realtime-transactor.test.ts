import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Change } from '@campus/protocol';
import { audience } from '../src/realtime/audiences';
import { inProcessChangeBus, type CommittedChange } from '../src/realtime/bus';
import { SqliteTransactor } from '../src/realtime/sqlite-transactor';
import { sql } from '../src/realtime/transaction';

/** A transactor on an in-memory database with the change log's tables and one table to write. */
function setup() {
  const sqlite = new SQLite(':memory:');
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
});
