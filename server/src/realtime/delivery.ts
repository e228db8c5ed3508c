import type { AppDeps } from '../lib/deps';
import { markMessagesDelivered } from '../modules/chat/mutations-receipts';

/**
 * Gathers "this recipient now holds this message" and writes the receipts in one transaction per batch,
 * so a burst of messages costs one commit, not one per message.
 */
export class DeliveryReceipts {
  private pending = new Map<string, Map<string, string[]>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: AppDeps,
    private readonly batchMs: number,
  ) {}

  add(recipientId: string, senderId: string, messageId: string): void {
    let bySender = this.pending.get(recipientId);
    if (!bySender) this.pending.set(recipientId, (bySender = new Map()));
    const ids = bySender.get(senderId);
    if (ids) ids.push(messageId);
    else bySender.set(senderId, [messageId]);
    this.timer ??= setTimeout(() => this.flush(), this.batchMs);
  }

  addAll(recipientId: string, bySender: ReadonlyMap<string, string[]>): void {
    for (const [senderId, ids] of bySender) for (const id of ids) this.add(recipientId, senderId, id);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    for (const [recipientId, bySender] of batch) {
      try {
        markMessagesDelivered(this.deps, recipientId, bySender);
      } catch (err) {
        this.deps.log.error({ err }, 'delivery receipts failed');
      }
    }
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
