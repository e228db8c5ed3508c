import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AckFrame, MessageErrorFrame, MutationFrame, SendGroupMessageFrame } from '@campus/protocol';
import { createLogger } from '../src/lib/logger';
import { Refusal } from '../src/lib/refusal';
import { audience } from '../src/realtime/audiences';
import { inProcessChangeBus, type CommittedChange } from '../src/realtime/bus';
import type { MutationSender } from '../src/realtime/live-connection';
import { MutationBatch } from '../src/realtime/mutation-batch';
import { DEFAULT_REALTIME_OPTIONS } from '../src/realtime/options';
import type { MutationHandler, MutationHandlers } from '../src/realtime/registry';
import { SqliteTransactor } from '../src/realtime/sqlite-transactor';
import { sql, type Transactor, type Tx } from '../src/realtime/transaction';

/**
 * The group commit on its own: a real SqliteTransactor (exactly-once tables, change log) behind a counter of
 * commits, one handler (send_group_message writes a row and emits a change), fake timers. Batching is
 * checked by counting commits and reading their order, never by measuring time.
 */

type Answer = AckFrame | MessageErrorFrame;

class FakeSender implements MutationSender {
  readonly answers: Answer[] = [];
  constructor(readonly userId: string) {}
  cork(): void {}
  uncork(): void {}
  sendAfterChanges(frame: Answer): void {
    this.answers.push(frame);
  }
}

const insertRow = sql('INSERT INTO rows (id, commit_no) VALUES (?, ?)');

function setup(options: { windowMs?: number } = {}) {
  const sqlite = new SQLite(':memory:');
  sqlite.exec(`CREATE TABLE change_log (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL,
                 created_ms INTEGER NOT NULL);
               CREATE TABLE change_audience (audience TEXT NOT NULL, seq INTEGER NOT NULL,
                 PRIMARY KEY (audience, seq)) WITHOUT ROWID;
               CREATE TABLE device_mutations (device_id TEXT PRIMARY KEY, user_id TEXT NOT NULL,
                 last_mid INTEGER NOT NULL, updated_ms INTEGER NOT NULL) WITHOUT ROWID;
               CREATE TABLE mutation_rejects (device_id TEXT NOT NULL, mid INTEGER NOT NULL, code TEXT NOT NULL,
                 error TEXT NOT NULL, context TEXT NOT NULL, created_ms INTEGER NOT NULL,
                 PRIMARY KEY (device_id, mid)) WITHOUT ROWID;
               CREATE TABLE rows (id TEXT PRIMARY KEY, commit_no INTEGER NOT NULL);`);
  opened.push(sqlite);
  const published: CommittedChange[] = [];
  const bus = inProcessChangeBus((err) => {
    throw err;
  });
  bus.subscribe((changes) => published.push(...changes));
  const inner = new SqliteTransactor(sqlite, { now: () => 1000, bus });

  // Counts commits; a commit can be held open (a commit in flight, as on a slower database) until released.
  let commits = 0;
  let gate: Promise<void> | undefined;
  let release: (() => void) | undefined;
  const transactor: Transactor = {
    commit: (fn) =>
      inner.commit(async (tx) => {
        commits++;
        if (gate) await gate;
        return fn(tx);
      }),
    read: (fn) => inner.read(fn),
  };
  const holdNextCommit = () => {
    gate = new Promise((resolve) => (release = resolve));
    return () => {
      gate = undefined;
      release?.();
    };
  };

  const handler: MutationHandler<SendGroupMessageFrame> = {
    access: 'open',
    async apply(tx: Tx, frame) {
      if (frame.content === 'refuse') throw new Refusal('notGroupMember', 403);
      await tx.run(insertRow, frame.id, commits);
      // Any change will do: the engine publishes what the handler emits.
      tx.emit({ type: 'notification_read', notificationId: frame.id }, [audience.group(frame.groupId)]);
    },
    refusalContext: (frame) => ({ context: 'group', groupId: frame.groupId }),
  };
  // Only send_group_message is sent here; the table's other entries are never looked up.
  const handlers = { send_group_message: handler } as unknown as MutationHandlers;
  const batch = new MutationBatch(
    transactor,
    handlers,
    async () => undefined,
    createLogger('silent'),
    options.windowMs ?? DEFAULT_REALTIME_OPTIONS.commitWindowMs,
    () => false,
  );
  const rowsByCommit = () =>
    sqlite.prepare('SELECT id, commit_no FROM rows ORDER BY rowid').all() as {
      id: string;
      commit_no: number;
    }[];
  return { batch, published, rowsByCommit, holdNextCommit, commits: () => commits };
}

const opened: SQLite.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

let mid = 0;
function message(id: string, content = 'hi', deviceId = 'dev-1'): MutationFrame {
  return { type: 'send_group_message', deviceId, mid: ++mid, id, groupId: 'g1', content };
}

/** Lets settled promises and their continuations run (the SQLite commit resolves within microtasks). */
async function microtasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe('MutationBatch (adaptive group commit)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
    mid = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('by default commits an idle mutation on the next check phase, without waiting for any window', async () => {
    const { batch, commits } = setup();
    const ann = new FakeSender('u1');
    batch.add(ann, message('m1'));
    expect(commits()).toBe(0);
    // setImmediate only: no setTimeout is pending, so no window is waited for.
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    await microtasks();
    expect(commits()).toBe(1);
    expect(ann.answers).toEqual([{ type: 'ack', deviceId: 'dev-1', mid: 1 }]);
  });

  it('puts the mutations read in one event-loop turn into one commit', async () => {
    const { batch, commits, rowsByCommit } = setup();
    const ann = new FakeSender('u1');
    for (const id of ['a', 'b', 'c']) batch.add(ann, message(id));
    await vi.advanceTimersByTimeAsync(0);
    await microtasks();
    expect(commits()).toBe(1);
    expect(rowsByCommit()).toEqual([
      { id: 'a', commit_no: 1 },
      { id: 'b', commit_no: 1 },
      { id: 'c', commit_no: 1 },
    ]);
  });

  it('under load, mutations arriving during a commit share the next commit, in order and exactly once', async () => {
    const { batch, commits, rowsByCommit, holdNextCommit, published } = setup();
    const ann = new FakeSender('u1');
    const ben = new FakeSender('u2');
    const release = holdNextCommit();
    batch.add(ann, message('first', 'hi', 'dev-a'));
    await vi.advanceTimersByTimeAsync(0);
    expect(commits()).toBe(1);
    // The first commit is still in flight: these queue and schedule nothing of their own.
    batch.add(ben, message('second', 'hi', 'dev-b'));
    batch.add(ann, message('third', 'hi', 'dev-a'));
    batch.add(ben, message('fourth', 'refuse', 'dev-b'));
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(0);
    expect(commits()).toBe(1);

    release();
    await microtasks();
    await vi.advanceTimersByTimeAsync(0);
    await microtasks();
    expect(commits()).toBe(2);
    expect(rowsByCommit()).toEqual([
      { id: 'first', commit_no: 1 },
      { id: 'second', commit_no: 2 },
      { id: 'third', commit_no: 2 },
    ]);
    expect(published.map((c) => c.change.seq)).toEqual([1, 2, 3]);
    expect(ann.answers).toEqual([
      { type: 'ack', deviceId: 'dev-a', mid: 1 },
      { type: 'ack', deviceId: 'dev-a', mid: 3 },
    ]);
    expect(ben.answers).toEqual([
      { type: 'ack', deviceId: 'dev-b', mid: 2 },
      expect.objectContaining({ type: 'message_error', code: 'notGroupMember', deviceId: 'dev-b', mid: 4 }),
    ]);

    // A resend of everything (a client that lost the answers) is answered the same and applied nowhere again.
    mid = 0;
    batch.add(ann, message('first', 'hi', 'dev-a'));
    batch.add(ben, message('second', 'hi', 'dev-b'));
    batch.add(ann, message('third', 'hi', 'dev-a'));
    batch.add(ben, message('fourth', 'refuse', 'dev-b'));
    await batch.settle();
    expect(commits()).toBe(3);
    expect(rowsByCommit()).toHaveLength(3);
    expect(published).toHaveLength(3);
    expect(ann.answers.slice(2)).toEqual([
      { type: 'ack', deviceId: 'dev-a', mid: 1 },
      { type: 'ack', deviceId: 'dev-a', mid: 3 },
    ]);
    expect(ben.answers.slice(2)).toEqual([
      { type: 'ack', deviceId: 'dev-b', mid: 2 },
      expect.objectContaining({ type: 'message_error', code: 'notGroupMember', deviceId: 'dev-b', mid: 4 }),
    ]);
  });

  it('a resend of a mutation still queued joins it: applied once, answered on each connection in its order', async () => {
    const { batch, commits, rowsByCommit, holdNextCommit } = setup();
    const first = new FakeSender('u1');
    const again = new FakeSender('u1');
    const other = new FakeSender('u2');
    const release = holdNextCommit();
    batch.add(first, message('busy', 'hi', 'dev-x'));
    await vi.advanceTimersByTimeAsync(0);
    // Behind the commit in flight: the device's outbox, then all of it again on its next connection (the
    // first one was cut) with the busy one first, and another user's frame claiming the same device and mid
    // (queued on its own).
    batch.add(first, message('a', 'hi', 'dev-a'));
    batch.add(first, message('b', 'hi', 'dev-a'));
    mid = 0;
    batch.add(again, message('busy', 'hi', 'dev-x'));
    batch.add(again, message('a', 'hi', 'dev-a'));
    batch.add(again, message('b', 'hi', 'dev-a'));
    mid = 1;
    batch.add(other, message('a', 'hi', 'dev-a'));
    release();
    await batch.settle();
    expect(commits()).toBe(2);
    expect(rowsByCommit().map((r) => r.id)).toEqual(['busy', 'a', 'b']);
    const ack = (deviceId: string, n: number) => ({ type: 'ack', deviceId, mid: n });
    expect(first.answers).toEqual([ack('dev-x', 1), ack('dev-a', 2), ack('dev-a', 3)]);
    // In the order sent, the resend of the committed one (answered by the exactly-once check) included.
    expect(again.answers).toEqual([ack('dev-x', 1), ack('dev-a', 2), ack('dev-a', 3)]);
    // Not joined to u1's: refused by the exactly-once check, as another user's device.
    expect(other.answers).toEqual([
      expect.objectContaining({ type: 'message_error', code: 'badFrame', deviceId: 'dev-a', mid: 2 }),
    ]);
  });

  it('a mutation refused on its own (no savepoint) leaves nothing behind and is answered the same again', async () => {
    const { batch, commits, rowsByCommit, published } = setup();
    const ann = new FakeSender('u1');
    batch.add(ann, message('bad', 'refuse'));
    await batch.settle();
    // The refused commit rolled back; the refusal was remembered in a second one.
    expect(commits()).toBe(2);
    expect(rowsByCommit()).toEqual([]);
    expect(published).toEqual([]);
    const refused = expect.objectContaining({ type: 'message_error', code: 'notGroupMember', mid: 1 });
    expect(ann.answers).toEqual([refused]);
    mid = 0;
    batch.add(ann, message('bad', 'refuse'));
    await batch.settle();
    expect(ann.answers).toEqual([refused, refused]);
    expect(rowsByCommit()).toEqual([]);
  });

  it('settle() commits what is queued and waits for the commit in flight and the one after it', async () => {
    const { batch, commits, rowsByCommit, holdNextCommit } = setup();
    const ann = new FakeSender('u1');
    const release = holdNextCommit();
    batch.add(ann, message('a'));
    await vi.advanceTimersByTimeAsync(0);
    batch.add(ann, message('b'));
    let settled = false;
    const done = batch.settle().then(() => (settled = true));
    await microtasks();
    expect(settled).toBe(false);
    release();
    await done;
    expect(commits()).toBe(2);
    expect(rowsByCommit().map((r) => r.id)).toEqual(['a', 'b']);
    expect(ann.answers.map((a) => a.mid)).toEqual([1, 2]);
  });

  it('with a window set, holds the batch open that long; settle() commits it at once', async () => {
    const { batch, commits } = setup({ windowMs: 2000 });
    const ann = new FakeSender('u1');
    batch.add(ann, message('a'));
    await vi.advanceTimersByTimeAsync(1999);
    expect(commits()).toBe(0);
    batch.add(ann, message('b'));
    await vi.advanceTimersByTimeAsync(1);
    await microtasks();
    expect(commits()).toBe(1);
    expect(ann.answers.map((a) => a.mid)).toEqual([1, 2]);

    batch.add(ann, message('c'));
    await batch.settle();
    expect(commits()).toBe(2);
    // The window's timer was cleared with the early flush: nothing is left to fire.
    expect(vi.getTimerCount()).toBe(0);
  });
});
