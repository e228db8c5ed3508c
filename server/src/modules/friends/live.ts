import type { AppDeps } from '../../deps';
import type { ReadTx, Tx } from '../../realtime/transaction';
import { orderedPair, sharesSomethingSql } from './repo';

/**
 * What the friends module's commits change on the live connections (deps.realtime): who counts as whose
 * contact, for presence and typing. Each connection keeps its contacts in memory from sign-in on, so a
 * block, an unblock or an unfriend tells the hub, which reaches the connections of both on every node.
 */

/**
 * Whether the two are contacts by something they share: a direct chat with a message, a group or a
 * friendship (chat's rule, modules/chat/contacts.ts, as a connection reads it at sign-in). Three probes.
 */
export async function sharesSomething(tx: Pick<ReadTx, 'first'>, a: string, b: string): Promise<boolean> {
  return (await tx.first(sharesSomethingSql, a, b, b, a, ...orderedPair(a, b))) !== undefined;
}

/**
 * Runs `fn` once the commit has committed (never for one rolled back), outside it. Not a bare setImmediate
 * from inside the commit: on PostgreSQL the commit's statements and COMMIT are still in flight when it
 * fires, and it inherits the commit's async context, so a commit started from `fn` (the call log of a call
 * the block ends) was refused as a commit inside a commit and the call went unlogged. afterCommit alone
 * is not enough either: on SQLite its callbacks run while the transactor's lock is still held, so the
 * setImmediate moves `fn` past the lock's release (a commit from `fn` then queues after it).
 */
export function onceCommitted(tx: Tx, fn: () => void): void {
  tx.afterCommit(() => setImmediate(fn));
}

/**
 * After the friendship between the two was deleted in `tx`: unless they still share a chat with a message
 * or a group (read in the same commit, so the friendship no longer counts), their live connections stop
 * counting each other as contacts once it commits. Without it the friendship, which made them contacts,
 * would go on carrying presence and typing between them until each reconnected.
 */
export async function partUnlessSharing(tx: Tx, deps: AppDeps, a: string, b: string): Promise<void> {
  if (await sharesSomething(tx, a, b)) return;
  onceCommitted(tx, () => deps.realtime.part(a, b));
}
