import { beforeEach, describe, expect, it } from 'vitest';
import type { AckFrame, MessageErrorFrame, MutationFrame, SendGroupMessageFrame } from '@campus/protocol';
import { createLogger } from '../src/lib/logger';
import { Refusal } from '../src/lib/refusal';
import { audience } from '../src/realtime/audiences';
import type { MutationSender } from '../src/realtime/live-connection';
import { MutationBatch } from '../src/realtime/mutation-batch';
import { PG_MAX_SAVEPOINTS } from '../src/realtime/pg-transactor';
import type { MutationHandler, MutationHandlers } from '../src/realtime/registry';
import { sql, type Transactor } from '../src/realtime/transaction';
import { idOf, pgTransactorKit, range, read } from './support/pg-transactor-kit';

/**
 * The group commit on PostgreSQL: a loaded batch (one mutation per savepoint) must not hold more than
 * PG_MAX_SAVEPOINTS subtransactions in one transaction, or the backend's cache of 64 overflows and every
 * snapshot in the cluster goes to pg_subtrans (pg-transactor.ts). Counted by PostgreSQL itself: a row's
 * xmin is the xid of the savepoint that wrote it, and txid_current() inside it is the top-level one.
 */

const kit = pgTransactorKit();
beforeEach(() => kit.reset());

/** The row carries the top-level transaction's xid; its xmin is the savepoint's own. */
const insertWithTopXid = sql('INSERT INTO test_notes (id, body) VALUES (?, txid_current()::text)');
const handler: MutationHandler<SendGroupMessageFrame> = {
  access: 'open',
  async apply(tx, frame) {
    if (frame.content === 'refuse') throw new Refusal('notGroupMember', 403);
    await tx.run(insertWithTopXid, frame.id);
    tx.emit(read(frame.id), [audience.user('ann')]);
  },
};
const handlers = { send_group_message: handler } as unknown as MutationHandlers;

/** The batch on a real PgTransactor, behind a wrapper that counts commits and can fail the n-th one. */
async function setup(failCommit?: number) {
  const node = await kit.node({ pool: kit.pool });
  let commits = 0;
  const transactor: Transactor = {
    commit: (fn) =>
      node.transactor.commit(async (tx) => {
        const n = ++commits;
        const result = await fn(tx);
        if (n === failCommit) throw new Error(`commit ${n} lost`);
        return result;
      }),
    read: (fn) => node.transactor.read(fn),
  };
  const batch = new MutationBatch(
    transactor,
    handlers,
    async () => undefined,
    createLogger('silent'),
    0,
    () => false,
  );
  return { batch, published: node.published, commits: () => commits };
}

/** A connection of user ann's device: what it was answered, in order. */
function connection(): MutationSender & { answers: (AckFrame | MessageErrorFrame)[] } {
  const answers: (AckFrame | MessageErrorFrame)[] = [];
  return { userId: 'ann', answers, cork() {}, uncork() {}, sendAfterChanges: (frame) => answers.push(frame) };
}

/** Ids that sort as their mids do. */
const idFor = (mid: number) => `m${String(mid).padStart(3, '0')}`;
const message = (mid: number): MutationFrame => ({
  type: 'send_group_message',
  deviceId: 'dev-1',
  mid,
  id: idFor(mid),
  groupId: 'g1',
  content: mid === 100 ? 'refuse' : 'hi',
});
const ack = (mid: number) => ({ type: 'ack', deviceId: 'dev-1', mid });
const answersFor = (mids: number[]) =>
  mids.map((mid) => (mid === 100 ? expect.objectContaining({ type: 'message_error', mid }) : ack(mid)));

/** Per top-level transaction, how many subtransactions wrote (each holds a slot of the backend's cache). */
async function subtransactionsPerCommit(): Promise<number[]> {
  const { rows } = await kit.pool.query<{ n: number }>(
    `SELECT count(DISTINCT xmin::text)::int AS n FROM test_notes GROUP BY body ORDER BY min(id)`,
  );
  return rows.map((row) => row.n);
}

describe('MutationBatch on PostgreSQL', () => {
  it('commits a batch of 200 in transactions of at most PG_MAX_SAVEPOINTS savepoints, in order and exactly once', async () => {
    expect(PG_MAX_SAVEPOINTS).toBeLessThan(64);
    const { batch, published, commits } = await setup();
    const first = connection();
    const again = connection();
    // One event-loop turn: one batch. The device's next connection resends 55..65, across the first cut.
    for (const mid of range(1, 200)) batch.add(first, message(mid));
    for (const mid of range(55, 65)) batch.add(again, message(mid));
    await batch.settle();

    const perCommit = await subtransactionsPerCommit();
    expect(Math.max(...perCommit)).toBeLessThanOrEqual(PG_MAX_SAVEPOINTS);
    expect(perCommit.reduce((a, b) => a + b, 0)).toBe(199);
    expect(commits()).toBe(Math.ceil(200 / PG_MAX_SAVEPOINTS));
    // Applied once each, in arrival order; the refused one left nothing, and the seqs stay contiguous.
    const applied = range(1, 200).filter((mid) => mid !== 100);
    expect(await kit.noteIds()).toEqual(applied.map(idFor));
    expect(await kit.logSeqs()).toEqual(range(1, 199));
    expect(published.flat().map(idOf)).toEqual(applied.map(idFor));
    expect(first.answers).toEqual(answersFor(range(1, 200)));
    expect(again.answers).toEqual(answersFor(range(55, 65)));

    // Everything again on a third connection: answered the same, applied nowhere again.
    const third = connection();
    for (const mid of range(1, 200)) batch.add(third, message(mid));
    await batch.settle();
    expect(third.answers).toEqual(answersFor(range(1, 200)));
    expect(await kit.logSeqs()).toEqual(range(1, 199));
  });

  it("a commit of the batch that fails refuses only its own mutations: the other commits' stand", async () => {
    const { batch, commits } = await setup(2);
    const conn = connection();
    for (const mid of range(1, 150)) batch.add(conn, message(mid));
    await batch.settle();
    expect(commits()).toBe(Math.ceil(150 / PG_MAX_SAVEPOINTS));
    const lost = range(PG_MAX_SAVEPOINTS + 1, 2 * PG_MAX_SAVEPOINTS);
    expect(conn.answers.filter((a) => a.type === 'message_error').map((a) => a.mid)).toEqual(lost);
    expect(conn.answers.filter((a) => a.type === 'ack')).toHaveLength(150 - lost.length);
    expect(await kit.logSeqs()).toHaveLength(150 - lost.length);
  });
});
