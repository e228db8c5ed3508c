import { isMutationFrame, REALTIME_ERRORS, type ClientFrame, type MutationFrame } from '@campus/protocol';
import { mutationContext } from '../modules/chat/mutations';
import type { Connection } from './connection';
import { joinChat, joinGroup, typing } from './ephemeral';
import { handlePull } from './sync';

/** Routes one validated frame of an authenticated connection. */
export function handleFrame(conn: Connection, frame: ClientFrame): void {
  if (isMutationFrame(frame)) return mutate(conn, frame);
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
