import type { MessageErrorFrame } from '@campus/protocol';
import type { SyncClient } from '@campus/sync';

/** The outbox writes of the confessions screen whose refusals it shows (useWriteRefusals). */
const CONFESSION_WRITES: ReadonlySet<string> = new Set([
  'confession_react',
  'confession_comment',
  'confession_post',
  'confession_delete',
]);
/** Refusals kept while the feed is not open: far more than one student queues offline. */
const MAX_KEPT = 20;

type Listener = (refusal: MessageErrorFrame) => void;

/**
 * Refusals of confession writes, for the feed: handed to it at once while it is open, and kept for it while
 * it is not (a post queued offline may be refused after the student went to Talk), so its red line shows
 * when it opens again instead of the card vanishing without a word.
 */
class ConfessionRefusals {
  private readonly listeners = new Set<Listener>();
  private kept: MessageErrorFrame[] = [];

  constructor(client: SyncClient) {
    client.onMessageError((refusal) => {
      if (!CONFESSION_WRITES.has(refusal.context ?? '')) return;
      if (this.listeners.size) for (const listener of this.listeners) listener(refusal);
      else this.kept = [...this.kept, refusal].slice(-MAX_KEPT);
    });
  }

  /** The feed opened: what was refused meanwhile first, then each refusal as it comes. */
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    const kept = this.kept;
    this.kept = [];
    for (const refusal of kept) listener(refusal);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

const inboxes = new WeakMap<SyncClient, ConfessionRefusals>();

/** The client's inbox, listening from the first call on: SyncProvider calls it as the client starts. */
export function confessionRefusalsOf(client: SyncClient): ConfessionRefusals {
  let inbox = inboxes.get(client);
  if (!inbox) inboxes.set(client, (inbox = new ConfessionRefusals(client)));
  return inbox;
}
