import { audience } from '../../realtime/audiences';
import type { Transactor, Tx } from '../../realtime/transaction';
import { toCounts } from './mappers';
import { q } from './queries';

/**
 * How long a card's count changes are gathered before one `confession_counts` goes to every student. A
 * popular card liked 200 times in a second costs everyone one frame per window, not 200.
 */
export const CONFESSION_COUNTS_WINDOW_MS = 2000;

/**
 * Coalesces count changes: a reaction or comment write marks its confession; the first mark of a window
 * arms a timer, and when it fires ONE commit emits each marked card's counts as they are then (absolute,
 * so a late or repeated change is harmless). A card deleted meanwhile is skipped: `confession_deleted`
 * already told everyone.
 *
 * The mark is made inside the write's transaction, before it commits; the flush reads in its own commit a
 * window later, by which time the write has long committed (or rolled back, and the flush re-sends
 * unchanged counts, which is harmless). Counts marked but not flushed when the process dies are not sent;
 * the next change to the card carries them.
 */
export class ConfessionCounts {
  private readonly marked = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly transactor: Transactor,
    private readonly onError: (error: unknown) => void,
    /** Tests shorten it. */
    public windowMs = CONFESSION_COUNTS_WINDOW_MS,
  ) {}

  /** The card's reactions or comment count changed (called in the write's transaction). */
  mark(confessionId: string): void {
    if (this.closed) return;
    this.marked.add(confessionId);
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.windowMs);
    // A pending flush must not keep a process alive that has nothing else to do.
    this.timer.unref();
  }

  /** Emits the marked cards' counts now, in one commit (the timer, and close). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.marked.size) return this.flushing;
    const ids = [...this.marked];
    this.marked.clear();
    this.flushing = this.flushing
      .then(() => this.transactor.commit((tx) => emitCounts(tx, ids)))
      .catch(this.onError);
    return this.flushing;
  }

  /** Server close: what is marked goes out now (before the database closes); later marks are ignored. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }
}

async function emitCounts(tx: Tx, confessionIds: readonly string[]): Promise<void> {
  for (const confessionId of confessionIds) {
    const row = await tx.first(q.counts, confessionId);
    if (!row) continue;
    tx.emit(
      { type: 'confession_counts', confessionId, reactions: toCounts(row), commentCount: row.comment_count },
      [audience.allStudents],
    );
  }
}
