import type { z } from 'zod';
import { REALTIME_ERRORS, type MessageErrorFrame } from '@campus/protocol';

/**
 * The `message_error` for a frame that failed its schema, with the most useful context we can read from it:
 * a frame naming a group is shown in that group, a too-long `content` says so, and a broken mutation still
 * names its (deviceId, mid) so the client can roll it back.
 */
export function invalidFrameError(raw: unknown, error?: z.ZodError): MessageErrorFrame {
  const obj = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const type = typeof obj.type === 'string' ? obj.type.slice(0, 64) : 'unknown';
  const groupId = typeof obj.groupId === 'string' && obj.groupId.length <= 64 ? obj.groupId : undefined;
  const isGroup = type === 'join_group' || groupId !== undefined;
  const tooLong = error?.issues.some(
    (i) => i.code === 'too_big' && i.path.length === 1 && i.path[0] === 'content',
  );
  const frame: MessageErrorFrame = {
    type: 'message_error',
    code: tooLong ? 'messageTooLong' : 'badFrame',
    error: tooLong ? REALTIME_ERRORS.messageTooLong : REALTIME_ERRORS.badFrame,
    context: isGroup ? 'group' : type,
  };
  if (typeof obj.deviceId === 'string' && obj.deviceId.length <= 64) frame.deviceId = obj.deviceId;
  if (typeof obj.mid === 'number' && Number.isInteger(obj.mid)) frame.mid = obj.mid;
  if (isGroup && groupId !== undefined) frame.groupId = groupId;
  return frame;
}
