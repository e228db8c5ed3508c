import type { MessageErrorFrame, MutationFrame } from '@campus/protocol';
import type { Logger } from '../lib/logger';
import { Refusal } from '../lib/refusal';
import { APPLIED, exactlyOnce, refusal, type MutationOutcome, type Where } from './exactly-once';
import type { MutationSender } from './live-connection';
import type { MutationHandler, MutationHandlers, ParticipationCheck } from './registry';
import type { Transactor, Tx } from './transaction';

interface Queued {
  conn: MutationSender;
  frame: MutationFrame;
}

/**
 * The generic dispatcher, with group commit: the mutations that arrive within one short window share ONE
 * transaction (each in its own savepoint, so a failure undoes only itself). A commit's cost is mostly
 * writing its pages, so a burst of messages pays it once. Each mutation: the exactly-once check, its
 * feature's handler, the device's bookkeeping. Changes go out after the commit, then each mutation's ack or
 * refusal, in arrival order.
 */
export class MutationBatch {
  private queue: Queued[] = [];
  private scheduled = false;
  /** Batches being committed and answered now. */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly transactor: Transactor,
    private readonly handlers: MutationHandlers,
    private readonly participation: ParticipationCheck,
    private readonly log: Logger,
    private readonly windowMs: number,
    private readonly isClosed: () => boolean,
  ) {}

  add(conn: MutationSender, frame: MutationFrame): void {
    this.queue.push({ conn, frame });
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.windowMs > 0) setTimeout(() => void this.flush(), this.windowMs);
    else setImmediate(() => void this.flush());
  }

  /** Where a refusal of this frame is shown (its handler may name a group). */
  readonly where = (frame: MutationFrame): Where =>
    this.handler(frame).refusalContext?.(frame) ?? { context: frame.type };

  async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (!batch.length || this.isClosed()) return;
    const run = this.run(batch);
    this.running.add(run);
    try {
      await run;
    } finally {
      this.running.delete(run);
    }
  }

  /**
   * Resolves once nothing is queued or being committed, every ack and refusal handed to its socket: a drain
   * waits for it before it closes the sockets. What is queued is committed now, not after the window.
   */
  async settle(): Promise<void> {
    while (this.queue.length || this.running.size) {
      if (this.queue.length) await this.flush();
      else await Promise.all(this.running);
    }
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
    let outcomes: MutationOutcome[];
    try {
      outcomes = await this.transactor.commit(async (tx) => {
        const results: MutationOutcome[] = [];
        for (const item of batch) results.push(await this.applyOne(tx, item));
        return results;
      });
    } catch (err) {
      this.log.error({ err }, 'mutation batch failed');
      outcomes = batch.map(({ frame }) => refusal('internal', undefined, this.where(frame)));
    }
    for (let i = 0; i < batch.length; i++) {
      const { conn, frame } = batch[i]!;
      const outcome = outcomes[i]!;
      const { deviceId, mid } = frame;
      if (outcome.ok) conn.sendAfterChanges({ type: 'ack', deviceId, mid });
      else conn.sendAfterChanges(errorFrame(outcome, deviceId, mid));
    }
  }

  private async applyOne(tx: Tx, { conn, frame }: Queued): Promise<MutationOutcome> {
    const handler = this.handler(frame);
    const userId = conn.userId;
    try {
      return await tx.savepoint(async (sp) => {
        const seen = await exactlyOnce.seen(sp, frame, userId, this.where);
        if (seen) return seen;
        // After the exactly-once check: a resend of what was applied before is acknowledged again.
        if (handler.access === 'participation') await this.participation(sp, userId);
        await handler.apply(sp, frame, { userId });
        await exactlyOnce.applied(sp, frame, userId);
        return APPLIED;
      });
    } catch (err) {
      const where = this.where(frame);
      if (!(err instanceof Refusal)) {
        this.log.error({ err, type: frame.type }, 'mutation failed');
        return refusal('internal', undefined, where);
      }
      // The savepoint undid whatever the handler wrote; the refusal itself is remembered for a resend.
      const outcome = refusal(err.code, err.message, where);
      await exactlyOnce.refused(tx, frame, userId, outcome);
      return outcome;
    }
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
