import { CHAT, REALTIME_ERRORS } from '@campus/protocol';

/** The `message_error` for a frame that failed its schema, with the most useful context we can read from it. */
export function invalidFrameError(raw: unknown): Record<string, unknown> {
  const obj = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const type = typeof obj.type === 'string' ? obj.type.slice(0, 64) : 'unknown';
  const isGroup = type === 'send_group_message' || type === 'join_group' || typeof obj.groupId === 'string';
  const tooLong = typeof obj.content === 'string' && obj.content.length > CHAT.maxMessageLength;
  const frame: Record<string, unknown> = {
    type: 'message_error',
    error: tooLong ? REALTIME_ERRORS.messageTooLong : REALTIME_ERRORS.badFrame,
    context: isGroup ? 'group' : type,
  };
  // A broken mutation still names its (deviceId, mid) so the client can roll it back.
  if (typeof obj.deviceId === 'string' && obj.deviceId.length <= 64) frame.deviceId = obj.deviceId;
  if (typeof obj.mid === 'number' && Number.isInteger(obj.mid)) frame.mid = obj.mid;
  if (isGroup && typeof obj.groupId === 'string' && obj.groupId.length <= 64) frame.groupId = obj.groupId;
  return frame;
}
