import { randomUUID } from 'node:crypto';
import {
  FRIEND_MSG,
  FRIEND_SERVER_MSG,
  type FriendRequest,
  type SendFriendRequestResponse,
  type UserRef,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { Refusal } from '../../lib/refusal';
import { audience } from '../../realtime/audiences';
import type { Tx } from '../../realtime/transaction';
import { notify } from '../notifications';
import { userRefsOf } from '../users';
import { partUnlessSharing } from './live';
import {
  blockedBySql,
  decideRequestSql,
  deleteFriendshipSql,
  friendshipSql,
  insertFriendshipSql,
  insertHeldRequestSql,
  insertRequestSql,
  orderedPair,
  pendingRequestSql,
  requestByIdSql,
  type RequestRow,
} from './repo';

export function toFriendRequest(row: RequestRow, from: UserRef): FriendRequest {
  return { _id: row.id, id: row.id, status: row.status, from, createdAt: row.created_at };
}

async function requireRef(tx: Tx, deps: AppDeps, userId: string): Promise<UserRef> {
  const ref = await userRefsOf(deps).get(tx, userId);
  if (!ref) throw new Refusal('unknownUser', 404, FRIEND_SERVER_MSG.userNotFound);
  return ref;
}

export async function areFriends(tx: Pick<Tx, 'first'>, a: string, b: string): Promise<boolean> {
  return (await tx.first(friendshipSql, ...orderedPair(a, b))) !== undefined;
}

/** Both become friends: the row, and each one's devices learn the other's card. */
async function befriend(tx: Tx, a: UserRef, b: UserRef): Promise<void> {
  await tx.run(insertFriendshipSql, ...orderedPair(a.id, b.id), new Date(tx.now).toISOString());
  tx.emit({ type: 'friendship_changed', friend: b, added: true }, [audience.user(a.id)]);
  tx.emit({ type: 'friendship_changed', friend: a, added: true }, [audience.user(b.id)]);
}

/** Moves a pending request to `status` and tells both users' devices; false when it was not pending. */
async function settle(
  tx: Tx,
  row: RequestRow,
  status: 'accepted' | 'rejected' | 'cancelled',
): Promise<boolean> {
  if (!(await tx.run(decideRequestSql, status, new Date(tx.now).toISOString(), row.id))) return false;
  tx.emit({ type: 'friend_request_updated', requestId: row.id, status }, [
    audience.user(row.from_id),
    audience.user(row.to_id),
  ]);
  return true;
}

/**
 * `POST /api/users/friends/requests {to}`. Rules, in order: to oneself 400; an unknown user 404; friends
 * already 409; then, if the sender blocked the recipient, answered as sent and nothing written (they know of
 * their own block); if the recipient blocked the sender, answered exactly as an unblocked pair would be,
 * `sent` and then `alreadySent`, through a request held apart where the blocker never sees it (migration
 * 0017), so the blocked sender cannot tell the block from a request left unanswered; a request they already
 * sent us is accepted (crossed requests make friends); our own pending one is answered again, not
 * duplicated. A new request and its `friend_request` notification are written in one transaction.
 */
export async function sendFriendRequest(
  tx: Tx,
  deps: AppDeps,
  fromId: string,
  toId: string,
): Promise<SendFriendRequestResponse> {
  if (fromId === toId) throw new Refusal('invalid', 400, FRIEND_SERVER_MSG.toSelf);
  const to = await requireRef(tx, deps, toId);
  const from = await requireRef(tx, deps, fromId);
  if (await areFriends(tx, fromId, toId))
    throw new Refusal('conflict', 409, FRIEND_SERVER_MSG.alreadyFriends);
  const sent: SendFriendRequestResponse = { message: FRIEND_MSG.sent, outcome: 'sent' };
  const alreadySent: SendFriendRequestResponse = {
    message: FRIEND_SERVER_MSG.alreadySent,
    outcome: 'alreadySent',
  };
  if (await tx.first(blockedBySql, fromId, toId)) return sent;
  // Whatever the recipient sent before blocking was withdrawn then, so nothing is crossed here.
  if (await tx.first(blockedBySql, toId, fromId))
    return (await tx.run(insertHeldRequestSql, fromId, toId, new Date(tx.now).toISOString()))
      ? sent
      : alreadySent;
  const theirs = await tx.first(pendingRequestSql, toId, fromId);
  if (theirs) {
    await settle(tx, theirs, 'accepted');
    await befriend(tx, from, to);
    return { message: FRIEND_SERVER_MSG.acceptedTheirs, outcome: 'accepted' };
  }
  if (await tx.first(pendingRequestSql, fromId, toId)) return alreadySent;
  await deliverRequest(tx, deps, from, to.id, new Date(tx.now).toISOString());
  return sent;
}

/**
 * Writes a pending request from `from` to `toId` made at `createdAt` and tells the recipient: the change to
 * their devices and the `friend_request` notification, in the caller's transaction. A new request, or one
 * held by a block that has just been lifted (blocks.ts).
 */
export async function deliverRequest(
  tx: Tx,
  deps: AppDeps,
  from: UserRef,
  toId: string,
  createdAt: string,
): Promise<void> {
  const row: RequestRow = {
    id: randomUUID(),
    from_id: from.id,
    to_id: toId,
    status: 'pending',
    created_at: createdAt,
  };
  await tx.run(insertRequestSql, row.id, row.from_id, row.to_id, row.created_at);
  tx.emit({ type: 'friend_request_received', request: toFriendRequest(row, from) }, [audience.user(toId)]);
  await notify(tx, deps, {
    userId: toId,
    type: 'friend_request',
    title: 'New friend request',
    body: `${`${from.firstName} ${from.lastName}`.trim() || 'Someone'} sent you a friend request.`,
    data: {},
  });
}

/**
 * Accept or reject, by the recipient only: anyone else's id (or an unknown one) is 404, so a request's
 * existence is not revealed. Deciding one already decided the same way is acknowledged (another device, a
 * resend); the other way is 409.
 */
export async function decideFriendRequest(
  tx: Tx,
  deps: AppDeps,
  userId: string,
  requestId: string,
  decision: 'accept' | 'reject',
): Promise<void> {
  const row = await tx.first(requestByIdSql, requestId);
  if (!row || row.to_id !== userId) throw new Refusal('notFound', 404, FRIEND_SERVER_MSG.requestNotFound);
  const status = decision === 'accept' ? 'accepted' : 'rejected';
  if (row.status !== 'pending') {
    if (row.status === status) return;
    // Withdrawn by a block: the recipient was never told, so it reads as gone, not as decided (a 409 would
    // hint at the block and keep the request on their device after the rollback).
    if (row.status === 'cancelled') throw new Refusal('notFound', 404, FRIEND_SERVER_MSG.requestNotFound);
    throw new Refusal('conflict', 409, FRIEND_SERVER_MSG.requestDecided);
  }
  // Accepting needs both cards; the sender may have been deleted since (cascade removes the row, but check).
  const from = decision === 'accept' ? await requireRef(tx, deps, row.from_id) : undefined;
  await settle(tx, row, status);
  if (from) await befriend(tx, await requireRef(tx, deps, userId), from);
}

/**
 * `DELETE /api/users/friends/{userId}`: both users' devices drop the other; not friends is 404. Unless the
 * two share something else, their live connections stop hearing each other's presence and typing too.
 */
export async function unfriend(tx: Tx, deps: AppDeps, userId: string, friendId: string): Promise<void> {
  if (!(await tx.run(deleteFriendshipSql, ...orderedPair(userId, friendId))))
    throw new Refusal('notFound', 404, FRIEND_SERVER_MSG.notFriends);
  const [me, friend] = [await requireRef(tx, deps, userId), await requireRef(tx, deps, friendId)];
  tx.emit({ type: 'friendship_changed', friend, added: false }, [audience.user(userId)]);
  tx.emit({ type: 'friendship_changed', friend: me, added: false }, [audience.user(friendId)]);
  await partUnlessSharing(tx, deps, userId, friendId);
}
