import type { AppDeps } from '../../lib/deps';
import { markMessagesDelivered, undeliveredTo } from './receipts';

/** Receipts are gathered this long and written in one transaction. */
const DELIVERY_BATCH_MS = 10;

/**
 * Gathers "this recipient now holds this message" and writes the receipts in one transaction per batch,
 * so a burst of messages costs one commit, not one per message. One per server (`deliveryReceiptsOf`).
 */
export class DeliveryReceipts {
  private pending = new Map<string, Map<string, string[]>>();
  private timer: NodeJS.Timeout | undefined;
  /** After shutdown nothing is gathered: a late add must not arm a timer that writes to a closed database. */
  private closed = false;

  constructor(private readonly deps: AppDeps) {}

  /** A live connection of `recipientId` was handed the message. */
  add(recipientId: string, senderId: string, messageId: string): void {
    if (this.closed) return;
    let bySender = this.pending.get(recipientId);
    if (!bySender) this.pending.set(recipientId, (bySender = new Map()));
    const ids = bySender.get(senderId);
    if (ids) ids.push(messageId);
    else bySender.set(senderId, [messageId]);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), DELIVERY_BATCH_MS);
      this.timer.unref();
    }
  }

  /** A pull or snapshot handed the user everything up to `seq`: what was still 'sent' is now delivered. */
  async caughtUp(recipientId: string, seq: number): Promise<void> {
    const { transactor, log } = this.deps;
    try {
      const bySender = await transactor.read((tx) => undeliveredTo(tx, recipientId, seq));
      for (const [senderId, ids] of bySender) for (const id of ids) this.add(recipientId, senderId, id);
    } catch (err) {
      log.error({ err }, 'delivery receipts failed');
    }
  }

  /** The server is stopping: receipts not yet written are dropped (the next pull hands them over again). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    if (!batch.size) return;
    try {
      await this.deps.transactor.commit(async (tx) => {
        for (const [recipientId, bySender] of batch) await markMessagesDelivered(tx, recipientId, bySender);
      });
    } catch (err) {
      this.deps.log.error({ err }, 'delivery receipts failed');
    }
  }
}

const receipts = new WeakMap<AppDeps, DeliveryReceipts>();

export function deliveryReceiptsOf(deps: AppDeps): DeliveryReceipts {
  let r = receipts.get(deps);
  if (!r) receipts.set(deps, (r = new DeliveryReceipts(deps)));
  return r;
}
