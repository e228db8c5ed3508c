import type { MessageStatus } from '@campus/protocol';

/**
 * Statuses only move forward: a late `receive_message` (status 'sent') must not undo a 'read' the
 * device already learnt. 'failed' ranks lowest so that a message the server did store wins over it.
 */
const RANK: Record<MessageStatus, number> = { failed: 0, sending: 1, sent: 2, delivered: 3, read: 4 };

export function laterStatus(
  a: MessageStatus | undefined,
  b: MessageStatus | undefined,
): MessageStatus | undefined {
  if (!a) return b;
  if (!b) return a;
  return RANK[b] > RANK[a] ? b : a;
}

export function isUpgrade(from: MessageStatus | undefined, to: MessageStatus): boolean {
  return !from || RANK[to] > RANK[from];
}
