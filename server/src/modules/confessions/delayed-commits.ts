import type { Transactor, Tx } from '../../realtime/transaction';
import { afterRandomDelay, CONFESSION_PUBLISH_DELAY_MS, type PublishDelay } from './publisher';

/**
 * What an anonymous act tells others (a reaction's or a comment's notice to the author, a deletion's
 * `confession_deleted`), written a random delay after the act in a commit of its own, as the publisher does
 * for posts. In the actor's commit it would sit at the seq after the actor's other writes of that commit (an
 * outbox flushing a group message and a reaction together) and name them; seconds later, other students'
 * writes land in between.
 *
 * Held in memory: a process that stops is flushed first (close); one that crashes loses the live notice,
 * never the act itself (the author's notifications list and the feed are read from the tables).
 */
export class DelayedCommits {
  private readonly waiting = new Map<NodeJS.Timeout, (tx: Tx) => Promise<void>>();
  private committing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly transactor: Transactor,
    private readonly onError: (error: unknown) => void,
    /** Tests change it. */
    public delayMs: PublishDelay = CONFESSION_PUBLISH_DELAY_MS,
  ) {}

  /** Runs `work` in a commit of its own a random delay after `tx` commits (nothing if it rolls back). */
  later(tx: Tx, work: (tx: Tx) => Promise<void>): void {
    tx.afterCommit(() => {
      if (this.closed) return;
      const timer = afterRandomDelay(this.delayMs, () => void this.run([timer]));
      this.waiting.set(timer, work);
    });
  }

  /** Everything waiting, now, in one commit (tests, close). */
  flush(): Promise<void> {
    return this.run([...this.waiting.keys()]);
  }

  /** Server close: what waits goes out now, before the database closes; later acts send nothing. */
  async close(): Promise<void> {
    // First: an act committing during the flush must not arm a timer that fires after the database closed.
    this.closed = true;
    await this.flush();
  }

  private run(timers: readonly NodeJS.Timeout[]): Promise<void> {
    const works = timers.flatMap((timer) => {
      const work = this.waiting.get(timer);
      clearTimeout(timer);
      this.waiting.delete(timer);
      return work ? [work] : [];
    });
    if (!works.length) return this.committing;
    this.committing = this.committing
      .then(() =>
        this.transactor.commit(async (tx) => {
          for (const work of works) await work(tx);
        }),
      )
      .catch(this.onError);
    return this.committing;
  }
}
