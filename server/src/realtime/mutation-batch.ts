import { REALTIME_ERRORS, type MutationFrame } from '@campus/protocol';
import { applyMutation, mutationContext, type MutationOutcome } from '../modules/chat/mutations';
import type { Connection } from './connection';
import type { AppDeps } from '../lib/deps';
import type { RealtimeHubInternals } from './hub';

interface Queued {
  conn: Connection;
  frame: MutationFrame;
}

/**
 * Group commit: the mutations that arrive within one short window share ONE SQLite transaction (each in
 * its own savepoint, so a failure undoes only itself). A commit's cost is mostly writing its pages, so a
 * burst of messages pays it once. Changes go out after the commit, then each mutation's ack or refusal,
 * in arrival order.
 */
export class MutationBatch {
  private queue: Queued[] = [];
  private scheduled = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly hub: RealtimeHubInternals,
    private readonly windowMs: number,
  ) {}

  add(conn: Connection, frame: MutationFrame): void {
    this.queue.push({ conn, frame });
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.windowMs > 0) setTimeout(() => this.flush(), this.windowMs);
    else setImmediate(() => this.flush());
  }

  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (!batch.length || this.hub.closed) return;
    // Each sender's change frame (pushed during the commit) and its ack go out in one write.
    const senders = new Set(batch.map(({ conn }) => conn));
    for (const conn of senders) conn.cork();
    try {
      this.apply(batch);
    } finally {
      for (const conn of senders) conn.uncork();
    }
  }

  private apply(batch: readonly Queued[]): void {
    const { deps, hub } = this;
    let outcomes: MutationOutcome[];
    try {
      outcomes = hub.commit(() =>
        batch.map(({ conn, frame }) => {
          try {
            return applyMutation(deps, conn.userId, frame);
          } catch (err) {
            deps.log.error({ err, type: frame.type }, 'mutation failed');
            return { ok: false, error: REALTIME_ERRORS.internal, context: mutationContext(frame) };
          }
        }),
      );
    } catch (err) {
      deps.log.error({ err }, 'mutation batch failed');
      outcomes = batch.map(({ frame }) => ({
        ok: false,
        error: REALTIME_ERRORS.internal,
        context: mutationContext(frame),
      }));
    }
    batch.forEach(({ conn, frame }, i) => {
      const outcome = outcomes[i]!;
      const { deviceId, mid } = frame;
      if (outcome.ok) conn.sendAfterChanges({ type: 'ack', deviceId, mid });
      else {
        const { ok: _ok, ...refusal } = outcome;
        conn.sendAfterChanges({ type: 'message_error', ...refusal, deviceId, mid });
      }
    });
  }
}
