import { NOTES_FRAME_LIMITS } from '@campus/protocol';
import { NOTES_GROUP_ID } from './store';
import { base64Chars, fromBase64 } from './strict-base64';

/**
 * Awareness on the `notes` Redis channel, beside the document updates of cross-node.ts (`u`, `c`). Internal
 * to the server, so no protocol schema: these types, and a parser that takes nothing on trust.
 * - `a\n<node>\n<group>\n<user>\n<base64 awareness frame>`: states (or removals) of the sending node's own
 *   clients in one group, all announced by one member (`user`; empty for a removal whose owner is gone);
 * - `q\n<node>\n<group>`: the node just opened the group's notes (or got Redis back): each node answers
 *   with an `a` of its own clients' states there;
 * - `h\n<node>`: the node is alive and serving notes. A node silent too long is gone: its states go.
 */
export type AwarenessRelayMessage =
  | { kind: 'states'; nodeId: string; groupId: string; userId: string; frame: Uint8Array }
  | { kind: 'query'; nodeId: string; groupId: string }
  | { kind: 'alive'; nodeId: string };

/** Node ids are UUIDs (redis-bus.ts); user ids server-made ids. Both only ever compared, never queried. */
const NODE_ID = /^[A-Za-z0-9-]{1,64}$/;
const USER_ID = /^[A-Za-z0-9_-]{0,64}$/;

/** The longest valid message: a kind, three ids of at most 64 characters, and a frame (maxFrameBytes) in base64. */
const MAX_CHARS = 2 + 3 * 65 + base64Chars(NOTES_FRAME_LIMITS.maxFrameBytes);

/** Whether a body on the notes channel is one of these (the others are cross-node.ts's). */
export function isAwarenessRelay(body: string): boolean {
  return body.length >= 2 && body[1] === '\n' && 'aqh'.includes(body[0]!);
}

export function relayBody(message: AwarenessRelayMessage): string {
  switch (message.kind) {
    case 'states': {
      const frame = Buffer.from(message.frame).toString('base64');
      return `a\n${message.nodeId}\n${message.groupId}\n${message.userId}\n${frame}`;
    }
    case 'query':
      return `q\n${message.nodeId}\n${message.groupId}`;
    case 'alive':
      return `h\n${message.nodeId}`;
  }
}

/**
 * The message, or why it was dropped. Bounded before anything is split or decoded; the frame inside is
 * only base64-decoded here (the caller decodes it with the client frames' limits, decodeAwarenessFrame).
 */
export function parseRelay(body: string): AwarenessRelayMessage | { dropped: string } {
  if (body.length > MAX_CHARS) return { dropped: 'oversized' };
  const fields = body.split('\n', 6);
  const [kind, nodeId = '', groupId = '', userId = '', base64 = ''] = fields;
  if (!NODE_ID.test(nodeId)) return { dropped: 'no node' };
  if (kind === 'h' && fields.length === 2) return { kind: 'alive', nodeId };
  if (!NOTES_GROUP_ID.test(groupId)) return { dropped: 'no group' };
  if (kind === 'q' && fields.length === 3) return { kind: 'query', nodeId, groupId };
  if (kind !== 'a' || fields.length !== 5) return { dropped: 'unknown message' };
  if (!USER_ID.test(userId)) return { dropped: 'no user' };
  const frame = fromBase64(base64);
  if (!frame || frame.byteLength === 0) return { dropped: 'not base64' };
  return { kind: 'states', nodeId, groupId, userId, frame };
}
