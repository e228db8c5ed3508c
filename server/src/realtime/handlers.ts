import {
  CLOSE_CODES,
  isMutationFrame,
  REALTIME_ERRORS,
  type ClientFrame,
  type MessageErrorFrame,
  type MutationFrame,
  type RealtimeErrorReason,
} from '@campus/protocol';
import { Refusal } from '../lib/refusal';
import type { LiveConnection } from './live-connection';
import type { SessionFrame } from './registry';
import type { Runtime } from './runtime';
import { handlePull } from './sync';

/** Where a refusal of a non-mutation frame is shown: a frame naming a group in that group. */
function refusalOf(code: RealtimeErrorReason, frame: ClientFrame): MessageErrorFrame {
  const groupId = 'groupId' in frame && typeof frame.groupId === 'string' ? frame.groupId : undefined;
  return groupId === undefined
    ? { type: 'message_error', code, error: REALTIME_ERRORS[code], context: frame.type }
    : { type: 'message_error', code, error: REALTIME_ERRORS[code], context: 'group', groupId };
}

/**
 * Frames that cost a query or a write (a pull reads the change log or builds a snapshot; join_group writes the
 * read mark) take from a per-user bucket of their own, so a client spamming them is refused without starving
 * its mutations, and mutations cannot starve its pulls.
 */
function readAllowed(rt: Runtime, conn: LiveConnection, frame: ClientFrame): boolean {
  if (rt.rates.take(`read:${conn.userId}`)) return true;
  conn.send(refusalOf('rateLimited', frame));
  return false;
}

/** Routes one validated frame of a signed-in connection. */
export function handleFrame(rt: Runtime, conn: LiveConnection, frame: ClientFrame): void {
  if (isMutationFrame(frame)) return mutate(rt, conn, frame);
  switch (frame.type) {
    case 'ping':
      return conn.send({ type: 'pong', t: frame.t });
    case 'pull':
      if (!readAllowed(rt, conn, frame)) return;
      return handlePull(
        { transactor: rt.transactor, options: rt.options, session: rt.features.session, log: rt.deps.log },
        conn,
        frame.cursor,
      );
    case 'join_chat':
    case 'join_group':
      if (!readAllowed(rt, conn, frame)) return;
      return sessionFrame(rt, conn, frame);
    case 'typing':
    case 'stop_typing':
      // Typing shares the mutations' bucket: it is the other thing a client sends per keystroke burst.
      if (!rt.rates.take(conn.userId)) return conn.send(refusalOf('rateLimited', frame));
      return sessionFrame(rt, conn, frame);
    case 'call:offer':
    case 'call:answer':
    case 'call:reject':
    case 'call:end':
    case 'call:resume':
      // Call signalling shares the mutations' bucket too (an offer has its own hourly limit besides).
      if (!rt.rates.take(conn.userId)) return conn.send(refusalOf('rateLimited', frame));
      return sessionFrame(rt, conn, frame);
    case 'find-partner':
    case 'join-random':
    case 'leave-random-queue':
    case 'leave-random-room':
    case 'random-resume':
    case 'chat-message':
    case 'random-typing':
    case 'call-user':
    case 'answer-call':
    case 'end-call':
    case 'random-reveal':
    case 'random-action':
      // Random talk too (queueing has its own per-minute limit besides).
      if (!rt.rates.take(conn.userId)) return conn.send(refusalOf('rateLimited', frame));
      return sessionFrame(rt, conn, frame);
    case 'hello':
      return conn.send(refusalOf('badFrame', frame));
  }
}

/** A frame a feature answers; a failure it did not answer itself gets the internal error. */
function sessionFrame(rt: Runtime, conn: LiveConnection, frame: SessionFrame): void {
  const frames = rt.features.session.frames;
  let done: void | Promise<void>;
  switch (frame.type) {
    case 'join_chat':
      done = frames.join_chat(conn, frame);
      break;
    case 'join_group':
      done = frames.join_group(conn, frame);
      break;
    case 'typing':
      done = frames.typing(conn, frame);
      break;
    case 'stop_typing':
      done = frames.stop_typing(conn, frame);
      break;
    case 'call:offer':
      done = frames['call:offer'](conn, frame);
      break;
    case 'call:answer':
      done = frames['call:answer'](conn, frame);
      break;
    case 'call:reject':
      done = frames['call:reject'](conn, frame);
      break;
    case 'call:end':
      done = frames['call:end'](conn, frame);
      break;
    case 'call:resume':
      done = frames['call:resume'](conn, frame);
      break;
    case 'find-partner':
      done = frames['find-partner'](conn, frame);
      break;
    case 'join-random':
      done = frames['join-random'](conn, frame);
      break;
    case 'leave-random-queue':
      done = frames['leave-random-queue'](conn, frame);
      break;
    case 'leave-random-room':
      done = frames['leave-random-room'](conn, frame);
      break;
    case 'random-resume':
      done = frames['random-resume'](conn, frame);
      break;
    case 'chat-message':
      done = frames['chat-message'](conn, frame);
      break;
    case 'random-typing':
      done = frames['random-typing'](conn, frame);
      break;
    case 'call-user':
      done = frames['call-user'](conn, frame);
      break;
    case 'answer-call':
      done = frames['answer-call'](conn, frame);
      break;
    case 'end-call':
      done = frames['end-call'](conn, frame);
      break;
    case 'random-reveal':
      done = frames['random-reveal'](conn, frame);
      break;
    case 'random-action':
      done = frames['random-action'](conn, frame);
      break;
  }
  if (done)
    done.catch((err: unknown) => {
      rt.deps.log.error({ err, type: frame.type }, 'realtime frame failed');
      if (!conn.closed) conn.send(refusalOf('internal', frame));
    });
}

/**
 * Queues a mutation for the next group commit; its ack follows the change frames the commit pushed. Over
 * the user's rate it is refused, through the commit too: the refusal is stored, so a resend of it after
 * the device's next mutation was applied gets the refusal again, not an ack of what was never stored (the
 * exactly-once check takes a mid at or below the device's last as done unless a refusal is stored). Far
 * over the rate, where storing each refusal would be the flood's price, the connection reads nothing more
 * and closes (4529): the client comes back after its backoff and sends its unanswered outbox again.
 */
function mutate(rt: Runtime, conn: LiveConnection, frame: MutationFrame): void {
  if (rt.rates.take(conn.userId)) return rt.mutations.add(conn, frame);
  // Closed once the mutations read before are committed and answered: their acks and refusals reach the
  // client, which would otherwise send them all again on its next connection, and again.
  if (!rt.rates.take(`over:${conn.userId}`))
    return conn.stopReading(CLOSE_CODES.rateLimited, 'rate limited', rt.mutations.settle());
  rt.mutations.add(conn, frame, new Refusal('rateLimited', 429));
}
