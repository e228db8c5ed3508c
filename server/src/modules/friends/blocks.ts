import { FRIEND_SERVER_MSG, type UserRef } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { Refusal } from '../../lib/refusal';
import { audience } from '../../realtime/audiences';
import type { ReadTx, Tx } from '../../realtime/transaction';
import { userRefsOf } from '../users';
import {
  blockedEitherWaySql,
  decideRequestSql,
  deleteBlockSql,
  deleteFriendshipSql,
  insertBlockSql,
  orderedPair,
  pendingEitherWaySql,
  sharesSomethingSql,
} from './repo';

/**
 * Whether either of the two blocked the other. One statement of two primary-key probes, cheap enough for
 * every direct message and friend request.
 */
export async function isBlockedEitherWay(tx: Pick<ReadTx, 'first'>, a: string, b: string): Promise<boolean> {
  return (await tx.first(blockedEitherWaySql, a, b, b, a)) !== undefined;
}

async function requireRef(tx: Tx, deps: AppDeps, userId: string): Promise<UserRef> {
  const ref = await userRefsOf(deps).get(tx, userId);
  if (!ref) throw new Refusal('unknownUser', 404, FRIEND_SERVER_MSG.userNotFound);
  return ref;
}

/**
 * `blockerId` blocks `blockedId`. Everything it changes is told to the blocker's devices only; the blocked
 * user is never told (their cached friend row and request go stale until their next load, which no longer
 * has them). A friendship between them ends and pending requests either way are withdrawn. After the
 * commit, live presence between the two stops (their connections forget each other as contacts). Blocking
 * again is a no-op.
 */
export async function blockUser(tx: Tx, deps: AppDeps, blockerId: string, blockedId: string): Promise<void> {
  if (blockerId === blockedId) throw new Refusal('invalid', 400, FRIEND_SERVER_MSG.blockSelf);
  const user = await requireRef(tx, deps, blockedId);
  const at = new Date(tx.now).toISOString();
  if (!(await tx.run(insertBlockSql, blockerId, blockedId, at))) return;
  const mine = [audience.user(blockerId)];
  for (const row of await tx.all(pendingEitherWaySql, blockerId, blockedId, blockedId, blockerId)) {
    if (await tx.run(decideRequestSql, 'cancelled', at, row.id))
      tx.emit({ type: 'friend_request_updated', requestId: row.id, status: 'cancelled' }, mine);
  }
  if (await tx.run(deleteFriendshipSql, ...orderedPair(blockerId, blockedId)))
    tx.emit({ type: 'friendship_changed', friend: user, added: false }, mine);
  tx.emit({ type: 'block_changed', user, blocked: true, at }, mine);
  // After the commit (a commit awaits only its statements); a rolled-back block only costs the two their
  // live presence until they reconnect.
  setImmediate(() => deps.realtime.separate(blockerId, blockedId));
}

/**
 * Lifts a block: told to the blocker's devices only. If the two are contacts again (a chat, a group or a
 * friendship, and no block the other way), after the commit their live connections hear each other's
 * presence and typing again without reconnecting.
 */
export async function unblockUser(
  tx: Tx,
  deps: AppDeps,
  blockerId: string,
  blockedId: string,
): Promise<void> {
  if (!(await tx.run(deleteBlockSql, blockerId, blockedId))) return;
  const user = await requireRef(tx, deps, blockedId);
  tx.emit({ type: 'block_changed', user, blocked: false, at: new Date(tx.now).toISOString() }, [
    audience.user(blockerId),
  ]);
  const pair = orderedPair(blockerId, blockedId);
  const shares = await tx.first(sharesSomethingSql, blockerId, blockedId, blockedId, blockerId, ...pair);
  if (shares && !(await isBlockedEitherWay(tx, blockerId, blockedId)))
    setImmediate(() => deps.realtime.reunite(blockerId, blockedId));
}
