import { isMutationFrame, REALTIME_ERRORS, type ClientFrame, type MutationFrame } from '@campus/protocol';
import { mutationContext } from '../modules/chat/mutations';
import type { Connection } from './connection';
import { joinChat, joinGroup, typing } from './ephemeral';
import { handlePull } from './sync';

/**
 * Frames that cost a query or a write (a pull reads the change log or builds a snapshot; join_group writes the
 * read mark) take from a per-user bucket of their own, so a client spamming them is refused without starving
 * its mutations, and mutations cannot starve its pulls.
 */
function readAllowed(conn: Connection, frame: ClientFrame & { type: 'pull' | 'join_chat' | 'join_group' }) {
  if (conn.rt.rates.take(`read:${conn.userId}`)) return true;
  const group = frame.type === 'join_group' ? { context: 'group', groupId: frame.groupId } : {};
  conn.send({ type: 'message_error', error: REALTIME_ERRORS.rateLimited, context: frame.type, ...group });
  return false;
}

/** Routes one validated frame of an authenticated connection. */
export function handleFrame(conn: Connection, frame: ClientFrame): void {
  if (isMutationFrame(frame)) return mutate(conn, frame);
  if (
    (frame.type === 'pull' || frame.type === 'join_chat' || frame.type === 'join_group') &&
    !readAllowed(conn, frame)
  )
    return;
  switch (frame.type) {
    case 'ping':
      return conn.send({ type: 'pong', t: frame.t });
    case 'pull':
      return handlePull(conn, frame.cursor);
    case 'join_chat':
      return joinChat(conn, frame.peerId);
    case 'join_group':
      return joinGroup(conn, frame.groupId);
    case 'typing':
    case 'stop_typing':
      return typing(conn, frame);
    case 'hello':
      return conn.send({ type: 'message_error', error: REALTIME_ERRORS.badFrame, context: 'hello' });
  }
}

/** Queues a mutation for the next group commit; its ack follows the change frames the commit pushed. */
function mutate(conn: Connection, frame: MutationFrame): void {
  const { deviceId, mid } = frame;
  if (!conn.rt.rates.take(conn.userId)) {
    const groupId = frame.type === 'send_group_message' ? { groupId: frame.groupId } : {};
    return conn.send({
      type: 'message_error',
      error: REALTIME_ERRORS.rateLimited,
      context: mutationContext(frame),
      deviceId,
      mid,
      ...groupId,
    });
  }
  conn.rt.mutations.add(conn, frame);
}
