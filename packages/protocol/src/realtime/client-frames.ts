import { z } from 'zod';
import { callClientFrameSchemas } from '../calls/frames';
import { randomClientFrameSchemas } from '../random/frames';
import { frameId } from './frame-parts';
import { mutationSchemas } from './mutations';

/**
 * Frames a client sends on `/ws`. The first frame must be `hello`; every frame is validated against this
 * union on the server, and a frame that fails answers `message_error` and changes nothing. The engine's
 * own frames are here; the mutations come from the features (realtime/mutations.ts).
 */

export const helloFrameSchema = z.object({
  type: z.literal('hello'),
  v: z.number().int(),
  token: z.string().min(16).max(128),
});

export const pingFrameSchema = z.object({ type: z.literal('ping'), t: z.number() });

/** Asks for the changes after `cursor` (0 on a fresh device: answered with `sync_reset`). */
export const pullFrameSchema = z.object({ type: z.literal('pull'), cursor: z.number().int().min(0) });

export const joinChatFrameSchema = z.object({ type: z.literal('join_chat'), peerId: frameId });
export const joinGroupFrameSchema = z.object({ type: z.literal('join_group'), groupId: frameId });

/** Direct typing names the partner as `roomId`; group typing names `groupId`. */
const typingTarget = { roomId: frameId.optional(), groupId: frameId.optional() };
export const typingFrameSchema = z
  .object({ type: z.literal('typing'), ...typingTarget })
  .refine((f) => !!f.roomId !== !!f.groupId, 'typing needs roomId or groupId');
export const stopTypingFrameSchema = z
  .object({ type: z.literal('stop_typing'), ...typingTarget })
  .refine((f) => !!f.roomId !== !!f.groupId, 'stop_typing needs roomId or groupId');

export const clientFrameSchema = z.discriminatedUnion('type', [
  helloFrameSchema,
  pingFrameSchema,
  pullFrameSchema,
  joinChatFrameSchema,
  joinGroupFrameSchema,
  typingFrameSchema,
  stopTypingFrameSchema,
  ...callClientFrameSchemas,
  ...randomClientFrameSchemas,
  ...mutationSchemas,
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;
export type HelloFrame = z.infer<typeof helloFrameSchema>;
export type PullFrame = z.infer<typeof pullFrameSchema>;
export type TypingFrame = z.infer<typeof typingFrameSchema>;
export type StopTypingFrame = z.infer<typeof stopTypingFrameSchema>;
