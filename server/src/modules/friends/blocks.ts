import { FRIEND_SERVER_MSG, type UserRef } from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { Refusal } from '../../lib/refusal';
import { audience } from '../../realtime/audiences';
import type { ReadTx, Tx } from '../../realtime/transaction';
import { userRefsOf } from '../users';
import {
  blockedBySql,
  blockedEitherWaySql,
  blockedWithAnySql,
  decideRequestSql,
  deleteBlockSql,
  deleteFriendshipSql,
  deleteHeldRequestSql,
  heldRequestSql,
  insertBlockSql,
  insertHeldRequestSql,
  orderedPair,
  pendingEitherWaySql,
  pendingRequestSql,
} from './repo';
import { onceCommitted, sharesSomething } from './live';
import { deliverRequest } from './requests';

/**
 * Whether either of the two blocked the other. One statement of two primary-key probes, cheap enough for
 * every direct message and friend request.
 */
export async function isBlockedEitherWay(tx: Pick<ReadTx, 'first'>, a: string, b: string): Promise<boolean> {
  return (await tx.first(blockedEitherWaySql, a, b, b, a)) !== undefined;
}

/** Whether `blockerId` blocked `blockedId` (that way only): one primary-key probe. */
export async function hasBlocked(tx: Pick<ReadTx, 'first'>, blockerId: string, blockedId: string) {
  return (await tx.first(blockedBySql, blockerId, blockedId)) !== undefined;
}

/** Whether `userId` and any of `others` blocked one another, either way (a new group's members). */
export async function isBlockedWithAny(
  tx: Pick<ReadTx, 'first'>,
  userId: string,
  others: readonly string[],
): Promise<boolean> {
  const { text, params } = blockedWithAnySql(others);
  return (await tx.first(text, userId, ...params, userId, ...params)) !== undefined;
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
 * commit, live presence and typing between the two stop (their connections are separated). Blocking again
 * is a no-op.
 *
 * The blocked user's pending request is withdrawn from the blocker's view but held (migration 0017): to
 * its sender it is still pending, as it would be had the blocker just not answered, so asking again
 * answers `alreadySent` as before. The blocker's own held request (sent while the other had blocked them)
 * is withdrawn, as a block withdraws the blocker's pending requests.
 */
export async function blockUser(tx: Tx, deps: AppDeps, blockerId: string, blockedId: string): Promise<void> {
  if (blockerId === blockedId) throw new Refusal('invalid', 400, FRIEND_SERVER_MSG.blockSelf);
  const user = await requireRef(tx, deps, blockedId);
  const at = new Date(tx.now).toISOString();
  if (!(await tx.run(insertBlockSql, blockerId, blockedId, at))) return;
  const mine = [audience.user(blockerId)];
  for (const row of await tx.all(pendingEitherWaySql, blockerId, blockedId, blockedId, blockerId)) {
    if (!(await tx.run(decideRequestSql, 'cancelled', at, row.id))) continue;
    tx.emit({ type: 'friend_request_updated', requestId: row.id, status: 'cancelled' }, mine);
    if (row.from_id === blockedId) await tx.run(insertHeldRequestSql, blockedId, blockerId, row.created_at);
  }
  await tx.run(deleteHeldRequestSql, blockerId, blockedId);
  if (await tx.run(deleteFriendshipSql, ...orderedPair(blockerId, blockedId)))
    tx.emit({ type: 'friendship_changed', friend: user, added: false }, mine);
  tx.emit({ type: 'block_changed', user, blocked: true, at }, mine);
  // Its listeners end a call or a random room between the two and log it in commits of their own.
  onceCommitted(tx, () => deps.realtime.separate(blockerId, blockedId));
}

/**
 * Lifts a block: told to the blocker's devices only. Unless the other still blocks them, after the commit
 * their live connections are no longer separated (typing in a shared group reaches both again), and if the
 * two are contacts (a chat, a group or a friendship) they hear each other's presence and typing again
 * without reconnecting. A request the blocked user sent meanwhile (held) now reaches the blocker, as it
 * would have had there been no block: to its sender it was pending all along.
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
  if (await hasBlocked(tx, blockedId, blockerId)) return;
  await releaseHeldRequest(tx, deps, blockedId, blockerId);
  const shares = await sharesSomething(tx, blockerId, blockedId);
  onceCommitted(tx, () => deps.realtime.reunite(blockerId, blockedId, shares));
}

/**
 * The block between the two is gone: the request `fromId` sent across it becomes a real pending one, with
 * its notification. While the block stood, neither could have a pending request to the other (the block
 * withdrew them, and later ones were held), so it is always new.
 */
async function releaseHeldRequest(tx: Tx, deps: AppDeps, fromId: string, toId: string): Promise<void> {
  const held = await tx.first(heldRequestSql, fromId, toId);
  if (!held) return;
  await tx.run(deleteHeldRequestSql, fromId, toId);
  if (await tx.first(pendingRequestSql, fromId, toId)) return;
  const from = await userRefsOf(deps).get(tx, fromId);
  if (from) await deliverRequest(tx, deps, from, toId, held.created_at);
}
