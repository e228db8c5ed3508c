import type { Confession } from '@campus/protocol';
import { audience } from '../../realtime/audiences';
import type { Transactor, Tx } from '../../realtime/transaction';
import { toConfession } from './mappers';
import { q } from './queries';
import type { UnpublishedRow } from './rows';

/**
 * How long after its post a confession is announced live, drawn uniformly for each post. A post made in one
 * commit with the author's other writes (an outbox flushing a group message and a confession together)
 * would otherwise reach the group's members at the next seq; a few seconds later, in a commit of its own,
 * other students' writes land in between and its seq says nothing about who wrote it.
 */
export const CONFESSION_PUBLISH_DELAY_MS = { min: 1000, max: 4000 } as const;

export interface PublishDelay {
  min: number;
  max: number;
}

/** Runs `fn` after a delay drawn uniformly from `delay`, without keeping an idle process alive. */
export function afterRandomDelay(delay: PublishDelay, fn: () => void): NodeJS.Timeout {
  const timer = setTimeout(fn, delay.min + Math.random() * (delay.max - delay.min));
  timer.unref();
  return timer;
}

/**
 * Announces posted confessions: `confession_posted` (the card as a stranger sees it) to every student and
 * `confession_mine` to the author's devices, in one commit of their own a random delay after the post,
 * storing the posted change's seq on the row (a deletion redacts it, writes.ts).
 *
 * The post's commit leaves `posted_seq` NULL and schedules its id (inside the transaction; a post that then
 * rolls back has no row and is skipped). Whatever the process stops before sending stays NULL and is sent
 * by the next publication after a restart (confessions_unpublished_idx finds them); `markPublished` only
 * changes a NULL, so two processes never announce one card twice. A card deleted first is never announced.
 */
export class ConfessionPublisher {
  /** Ids waiting for their own delay, with its timer. */
  private readonly waiting = new Map<string, NodeJS.Timeout>();
  private publishing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly transactor: Transactor,
    private readonly onError: (error: unknown) => void,
    /** Tests change it. */
    public delayMs: PublishDelay = CONFESSION_PUBLISH_DELAY_MS,
  ) {}

  /** The confession was posted (called in the post's transaction). */
  schedule(confessionId: string): void {
    if (this.closed || this.waiting.has(confessionId)) return;
    this.waiting.set(
      confessionId,
      afterRandomDelay(this.delayMs, () => void this.publish([confessionId])),
    );
  }

  /** Announces every waiting confession now, in one commit (tests, the seed, close). */
  flush(): Promise<void> {
    return this.publish([...this.waiting.keys()]);
  }

  /** Server close: what waits goes out now (before the database closes); later posts wait for a restart. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private publish(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      clearTimeout(this.waiting.get(id));
      this.waiting.delete(id);
    }
    this.publishing = this.publishing
      .then(() => this.transactor.commit((tx) => this.announce(tx, new Set(ids))))
      .catch(this.onError);
    return this.publishing;
  }

  /** The due ones, and any left unsent by a process that stopped (not waiting here for their delay). */
  private async announce(tx: Tx, due: ReadonlySet<string>): Promise<void> {
    for (const row of await tx.all(q.unpublished)) {
      if (!due.has(row.id) && this.waiting.has(row.id)) continue;
      const seq = tx.nextSeq();
      if ((await tx.run(q.markPublished, seq, row.id)) === 0) continue;
      tx.emit({ type: 'confession_posted', confession: strangersCard(row) }, [audience.allStudents]);
      tx.emit({ type: 'confession_mine', confessionId: row.id }, [audience.user(row.author_id)]);
    }
  }
}

/** The card as everyone but its author sees it: never the author's id; counts as they are by now. */
function strangersCard(row: UnpublishedRow): Confession {
  return toConfession({ ...row, is_mine: 0 }, [], []);
}
