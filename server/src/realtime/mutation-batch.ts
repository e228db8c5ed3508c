import type { MessageErrorFrame, MutationFrame } from '@campus/protocol';
import type { Logger } from '../lib/logger';
import { Refusal } from '../lib/refusal';
import {
  APPLIED,
  exactlyOnce,
  refusal,
  type MutationOutcome,
  type MutationRefusal,
  type Where,
} from './exactly-once';
import type { MutationSender } from './live-connection';
import type { MutationHandler, MutationHandlers, ParticipationCheck } from './registry';
import type { Transactor, Tx } from './transaction';

interface Queued {
  conn: MutationSender;
  frame: MutationFrame;
  /** Refused before it was queued (over the rate): recorded like any refusal, unless it was seen before. */
  refused?: Refusal;
  /** A resend of this mutation, queued earlier in the same batch (see add): answered with its outcome. */
  joins?: Queued;
}

/**
 * The generic dispatcher, with group commit: the mutations queued together share ONE transaction (each in
 * its own savepoint, so a failure undoes only itself), or as few as the transaction's `maxSavepoints` allows
 * (PostgreSQL: 60 a commit, see pg-transactor.ts). A commit's cost is mostly writing its pages, so a burst
 * of messages pays it once. Each mutation: the exactly-once check, its feature's handler, the
 * device's bookkeeping. Changes go out after the commit, then each mutation's ack or refusal, in arrival
 * order.
 *
 * Batching adapts to the load instead of waiting a fixed window: with no commit in flight the queue is
 * committed on the next check phase (setImmediate: after every frame read in the same poll of the event
 * loop, so those share a commit, but with no timer delay); while a commit is in flight, what arrives waits
 * for it and then goes in one commit right after. An idle server answers at once and a busy one commits
 * in ever larger batches. One batch at a time, so commits and their acks keep arrival order.
 * `windowMs` > 0 holds a batch open that long instead (a deployment that prefers fewer, larger commits;
 * tests that need a mutation still queued).
 */
export class MutationBatch {
  private queue: Queued[] = [];
  /** The queued mutations (not yet in a commit) by device and mid, for add() to join a resend to. */
  private readonly waiting = new Map<string, Queued>();
  /** A flush is due (setImmediate or the window's timer) for what is queued. */
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  /** The batch being committed and answered now: at most one. */
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly transactor: Transactor,
    private readonly handlers: MutationHandlers,
    private readonly participation: ParticipationCheck,
    private readonly log: Logger,
    private readonly windowMs: number,
    private readonly isClosed: () => boolean,
  ) {}

  add(conn: MutationSender, frame: MutationFrame, refused?: Refusal): void {
    // A device resends its whole outbox on every new connection, so behind a slow commit (PostgreSQL: one
    // writer at a time across the deployment) a flaky network queued the same mutations once per connection,
    // each applied again as a duplicate after the socket it would be answered on had closed: the queue grew
    // faster than the commits drained it, and no ack reached a live socket (issue 14's fault test, on
    // PostgreSQL). A resend of a mutation still waiting here joins it instead: applied once, at its first
    // arrival (so a device's mutations keep their order), and answered in the resend's own place with that
    // outcome (so each connection's answers keep its frames' order). Only the same user's: a mutation is
    // applied as its connection's user, whatever device id a frame claims.
    const key = `${frame.deviceId}\u0000${frame.mid}`;
    const first = this.waiting.get(key);
    const joins = first && first.conn.userId === conn.userId ? first : undefined;
    const item: Queued = joins
      ? { conn, frame, joins }
      : refused
        ? { conn, frame, refused }
        : { conn, frame };
    this.queue.push(item);
    if (!first) this.waiting.set(key, item);
    // While a commit is in flight its end starts the next one with everything queued meanwhile.
    if (this.scheduled || this.inFlight) return;
    this.scheduled = true;
    if (this.windowMs > 0) this.timer = setTimeout(() => void this.flush(), this.windowMs);
    else setImmediate(() => void this.flush());
  }

  /** Where a refusal of this frame is shown (its handler may name a group). */
  readonly where = (frame: MutationFrame): Where =>
    this.handler(frame).refusalContext?.(frame) ?? { context: frame.type };

  /**
   * Commits what is queued now, unless a batch is in flight: then it resolves with that batch, whose end
   * starts the next (settle() loops until both are done).
   */
  flush(): Promise<void> {
    this.scheduled = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.inFlight) return this.inFlight;
    const batch = this.queue;
    this.queue = [];
    this.waiting.clear();
    if (!batch.length || this.isClosed()) return Promise.resolve();
    const run = this.run(batch).finally(() => {
      this.inFlight = undefined;
      // Arrived during the commit: they go together, now (a window's timer, if one is set, is overtaken).
      // Not returned: under steady load each batch would wait for the next, a chain without end.
      if (this.queue.length) void this.flush();
    });
    this.inFlight = run;
    return run;
  }

  /**
   * Resolves once nothing is queued or being committed, every ack and refusal handed to its socket: a drain
   * waits for it before it closes the sockets. What is queued is committed now, not after the window.
   */
  async settle(): Promise<void> {
    while (this.queue.length || this.inFlight) await (this.inFlight ?? this.flush());
  }

  private async run(batch: readonly Queued[]): Promise<void> {
    // Each sender's change frame (pushed during the commit) and its ack go out in one write.
    const senders = new Set(batch.map(({ conn }) => conn));
    for (const conn of senders) conn.cork();
    try {
      await this.apply(batch);
    } finally {
      for (const conn of senders) conn.uncork();
    }
  }

  private async apply(batch: readonly Queued[]): Promise<void> {
    // A resend that joined a mutation is not applied: the mutation it joined is, earlier in this batch
    // (add() joins only what is still queued, and a flush takes the whole queue).
    const work = batch.filter((item) => !item.joins);
    let outcomes: MutationOutcome[];
    if (work.length === 1) {
      try {
        outcomes = [await this.applyAlone(work[0]!)];
      } catch (err) {
        outcomes = this.failed(err, work);
      }
    } else outcomes = await this.applyInCommits(work);
    const outcomeOf = new Map(work.map((item, i) => [item, outcomes[i]!]));
    for (const item of batch) {
      const outcome = outcomeOf.get(item.joins ?? item)!;
      const { deviceId, mid } = item.frame;
      if (outcome.ok) item.conn.sendAfterChanges({ type: 'ack', deviceId, mid });
      else item.conn.sendAfterChanges(errorFrame(outcome, deviceId, mid));
    }
  }

  /**
   * The batch's mutations in order, each in its savepoint, in as few commits as the transaction allows
   * (`tx.maxSavepoints`): what does not fit goes in the next commit, before anything queued meanwhile. A
   * commit that fails refuses only its own mutations: those of the commits before it are committed.
   */
  private async applyInCommits(work: readonly Queued[]): Promise<MutationOutcome[]> {
    const outcomes: MutationOutcome[] = [];
    while (outcomes.length < work.length) {
      const from = outcomes.length;
      // Where this commit stops, once its tx tells the limit; if the commit failed before, the rest.
      let end = work.length;
      try {
        const results = await this.transactor.commit(async (tx) => {
          end = Math.min(work.length, from + Math.max(1, tx.maxSavepoints ?? work.length));
          const applied: MutationOutcome[] = [];
          for (let i = from; i < end; i++) applied.push(await this.applyOne(tx, work[i]!));
          return applied;
        });
        outcomes.push(...results);
      } catch (err) {
        outcomes.push(...this.failed(err, work.slice(from, end)));
      }
    }
    return outcomes;
  }

  /** A commit failed as a whole: its mutations were rolled back, each is refused as `internal`. */
  private failed(err: unknown, items: readonly Queued[]): MutationOutcome[] {
    this.log.error({ err }, 'mutation batch failed');
    return items.map(({ frame }) => refusal('internal', undefined, this.where(frame)));
  }

  /**
   * A mutation in a batch of its own (an idle server's usual case) needs no savepoint: a refusal rolls back
   * the whole commit, and the refusal is then remembered in a second one. Refusals are rare; a savepoint is
   * two more statements on every mutation. Same outcomes as applyOne.
   */
  private async applyAlone(item: Queued): Promise<MutationOutcome> {
    try {
      return await this.transactor.commit((tx) => this.applyUnguarded(tx, item));
    } catch (err) {
      const { conn, frame } = item;
      const outcome = this.outcomeOf(err, frame);
      if (err instanceof Refusal)
        await this.transactor.commit((tx) => exactlyOnce.refused(tx, frame, conn.userId, outcome));
      return outcome;
    }
  }

  private async applyOne(tx: Tx, item: Queued): Promise<MutationOutcome> {
    try {
      return await tx.savepoint((sp) => this.applyUnguarded(sp, item));
    } catch (err) {
      const outcome = this.outcomeOf(err, item.frame);
      // The savepoint undid whatever the handler wrote; the refusal itself is remembered for a resend.
      if (err instanceof Refusal) await exactlyOnce.refused(tx, item.frame, item.conn.userId, outcome);
      return outcome;
    }
  }

  /** The exactly-once check, the access policy, the handler and the device's bookkeeping; throws a refusal. */
  private async applyUnguarded(tx: Tx, { conn, frame, refused: preset }: Queued): Promise<MutationOutcome> {
    const userId = conn.userId;
    // The access policy's read is asked together with the exactly-once check (on PostgreSQL the two go in
    // one round trip, and every round trip is spent under the deployment's write lock), but counts only
    // after it: a resend of what was applied before is acknowledged again whatever the user's status now.
    const policy =
      this.handler(frame).access === 'participation'
        ? this.participation(tx, userId).then(
            () => undefined,
            (error: unknown) => ({ error }),
          )
        : undefined;
    const seen = await exactlyOnce.seen(tx, frame, userId, this.where).finally(() => policy);
    if (seen) return seen;
    // Refused over the rate, after the check: a resend of what was applied is acknowledged again, and the
    // refusal is remembered like any other, so a resend after a later mid was applied is not taken as done.
    if (preset) throw preset;
    const refused = await policy;
    if (refused) throw refused.error;
    await this.handler(frame).apply(tx, frame, { userId });
    await exactlyOnce.applied(tx, frame, userId);
    return APPLIED;
  }

  /** What a thrown error answers: a Refusal's code and text, anything else `internal` (and logged). */
  private outcomeOf(err: unknown, frame: MutationFrame): MutationRefusal {
    const where = this.where(frame);
    if (err instanceof Refusal) return refusal(err.code, err.message, where);
    this.log.error({ err, type: frame.type }, 'mutation failed');
    return refusal('internal', undefined, where);
  }

  private handler(frame: MutationFrame): MutationHandler<MutationFrame> {
    return this.handlers[frame.type] as MutationHandler<MutationFrame>;
  }
}

function errorFrame(
  outcome: Exclude<MutationOutcome, { ok: true }>,
  deviceId: string,
  mid: number,
): MessageErrorFrame {
  const { ok: _ok, ...refused } = outcome;
  return { type: 'message_error', ...refused, deviceId, mid };
}
