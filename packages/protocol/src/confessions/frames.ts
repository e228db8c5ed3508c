import { z } from 'zod';
import { changeFields, frameId, mutationFields } from '../realtime/frame-parts';
import { CONFESSIONS, REACTION_TYPES } from './constants';
import { confessionSchema, reactionCountsSchema } from './entities';

/**
 * The confessions feature's mutations (every confession write goes through the outbox, so it survives
 * offline) and changes (new cards, deletions and counts reach every signed-in student live).
 */

/** A reaction names the state wanted (`on`), not a toggle, so it means the same however late it arrives. */
export const confessionReactFrameSchema = z.object({
  type: z.literal('confession_react'),
  ...mutationFields,
  confessionId: frameId,
  reactionType: z.enum(REACTION_TYPES),
  on: z.boolean(),
});
export const confessionCommentFrameSchema = z.object({
  type: z.literal('confession_comment'),
  ...mutationFields,
  id: z.uuid(),
  confessionId: frameId,
  content: z.string().max(CONFESSIONS.maxCommentLength),
});
export const confessionPostFrameSchema = z.object({
  type: z.literal('confession_post'),
  ...mutationFields,
  id: z.uuid(),
  content: z.string().max(CONFESSIONS.maxConfessionLength),
  emotionTag: z.string().min(1).max(16),
});
/** The author deletes their confession (refused for anyone else). */
export const confessionDeleteFrameSchema = z.object({
  type: z.literal('confession_delete'),
  ...mutationFields,
  confessionId: frameId,
});

export const confessionMutationSchemas = [
  confessionReactFrameSchema,
  confessionCommentFrameSchema,
  confessionPostFrameSchema,
  confessionDeleteFrameSchema,
] as const;

/**
 * A new confession, to every student. The card is as a stranger sees it (`isMine` false, no reactions of
 * the viewer, no comments): no author id ever leaves the server. The author's own devices learn that it
 * is theirs from `confession_mine`.
 */
export const confessionPostedChangeSchema = z.object({
  type: z.literal('confession_posted'),
  ...changeFields,
  confession: confessionSchema,
});
/** To the author only (their `u:` audience): this confession is theirs (the Delete menu, on every device). */
export const confessionMineChangeSchema = z.object({
  type: z.literal('confession_mine'),
  ...changeFields,
  confessionId: z.string(),
});
/** A confession was deleted: every feed drops the card. */
export const confessionDeletedChangeSchema = z.object({
  type: z.literal('confession_deleted'),
  ...changeFields,
  confessionId: z.string(),
});
/**
 * A card's counts now (absolute, so a late or repeated one is harmless). The server coalesces: a popular
 * card gets at most one of these per window, not one per like.
 */
export const confessionCountsChangeSchema = z.object({
  type: z.literal('confession_counts'),
  ...changeFields,
  confessionId: z.string(),
  reactions: reactionCountsSchema,
  commentCount: z.number().int().min(0),
});

export const confessionChangeSchemas = [
  confessionPostedChangeSchema,
  confessionMineChangeSchema,
  confessionDeletedChangeSchema,
  confessionCountsChangeSchema,
] as const;

export type ConfessionReactFrame = z.infer<typeof confessionReactFrameSchema>;
export type ConfessionCommentFrame = z.infer<typeof confessionCommentFrameSchema>;
export type ConfessionPostFrame = z.infer<typeof confessionPostFrameSchema>;
export type ConfessionDeleteFrame = z.infer<typeof confessionDeleteFrameSchema>;
export type ConfessionPostedChange = z.infer<typeof confessionPostedChangeSchema>;
export type ConfessionMineChange = z.infer<typeof confessionMineChangeSchema>;
export type ConfessionDeletedChange = z.infer<typeof confessionDeletedChangeSchema>;
export type ConfessionCountsChange = z.infer<typeof confessionCountsChangeSchema>;
