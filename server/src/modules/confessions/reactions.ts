import {
  CONFESSION_SERVER_MSG,
  CONFESSIONS,
  type ConfessionComment,
  type ReactionCounts,
  type ReactionType,
} from '@campus/protocol';
import type { Tx } from '../../realtime/transaction';
import type { ConfessionEnv } from './env';
import { refusals } from './errors';
import { toComment, toCounts, wireTime } from './mappers';
import { claimNickname } from './nicknames';
import { notifyComment, notifyReaction } from './notify-author';
import { q } from './queries';
import { censoredText, liveAuthor, myReactionsOn, requireNickname } from './writes';

/**
 * Reactions and comments. Each changes a card's counts: the write marks the card and every student gets
 * its counts coalesced (counts.ts), not one change per like.
 */

export interface ConfessionReactionInput {
  confessionId: string;
  reactionType: ReactionType;
  /** The state wanted: set (true) or taken back (false). Setting twice changes nothing. */
  on: boolean;
}

export interface CommentInput {
  id: string;
  confessionId: string;
  content: string;
}

export interface ReactionState {
  reactions: ReactionCounts;
  myReactions: ReactionType[];
}

/**
 * Sets or takes back the user's reaction of one type. The reaction row and the counter change in one
 * transaction, and only when the row really changed, so counts stay exact however requests interleave.
 * A newly added reaction on someone else's confession notifies its author.
 */
export async function setConfessionReaction(
  tx: Tx,
  env: ConfessionEnv,
  userId: string,
  input: ConfessionReactionInput,
): Promise<ReactionState> {
  const authorId = await liveAuthor(tx, input.confessionId);
  await requireNickname(tx, userId);
  const { confessionId, reactionType } = input;
  if (input.on) {
    const createdAt = new Date(tx.now).toISOString();
    if ((await tx.run(q.addReaction, confessionId, userId, reactionType, createdAt)) > 0) {
      await tx.run(q.countUp[reactionType], confessionId);
      env.counts.mark(confessionId);
      // Once per reactor and type: taking a reaction back and adding it again tells nobody twice.
      // Seconds later in a commit of its own: beside the reactor's other writes it would name them.
      if (authorId !== userId && (await tx.run(q.noteReactionNotice, confessionId, userId, reactionType)) > 0)
        env.notices.later(tx, async (late) => {
          if (await stillPosted(late, confessionId))
            await notifyReaction(late, env.deps, authorId, confessionId, reactionType);
        });
    }
  } else if ((await tx.run(q.removeReaction, confessionId, userId, reactionType)) > 0) {
    await tx.run(q.countDown[reactionType], confessionId);
    env.counts.mark(confessionId);
  }
  return reactionState(tx, userId, confessionId);
}

/** `POST /:id/react`: the opposite of the user's current reaction of that type, decided inside the write. */
export async function toggleConfessionReaction(
  tx: Tx,
  env: ConfessionEnv,
  userId: string,
  input: Omit<ConfessionReactionInput, 'on'>,
): Promise<ReactionState> {
  const has = (await myReactionsOn(tx, userId, input.confessionId)).includes(input.reactionType);
  return setConfessionReaction(tx, env, userId, { ...input, on: !has });
}

async function reactionState(tx: Tx, userId: string, confessionId: string): Promise<ReactionState> {
  const row = await tx.first(q.counts, confessionId);
  if (!row) throw refusals.notFound();
  return { reactions: toCounts(row), myReactions: await myReactionsOn(tx, userId, confessionId) };
}

/**
 * Adds a comment under the commenter's current nickname, censored. Idempotent on `id`. A comment on
 * someone else's confession notifies its author.
 */
export async function addComment(
  tx: Tx,
  env: ConfessionEnv,
  userId: string,
  input: CommentInput,
): Promise<ConfessionComment> {
  const existing = await tx.first(q.commentAuthor, input.id);
  if (existing) {
    if (existing.author_id !== userId || existing.confession_id !== input.confessionId)
      throw refusals.idConflict();
    const stored = await tx.first(q.comment, userId, input.id);
    if (!stored) throw refusals.notFound();
    return toComment(stored);
  }
  const authorId = await liveAuthor(tx, input.confessionId);
  const nickname = await requireNickname(tx, userId);
  const content = censoredText(
    input.content,
    CONFESSIONS.maxCommentLength,
    CONFESSION_SERVER_MSG.commentEmpty,
    CONFESSION_SERVER_MSG.commentTooLong,
  );
  const createdAt = new Date(tx.now).toISOString();
  await tx.run(q.insertComment, input.id, input.confessionId, userId, nickname, content, createdAt);
  await claimNickname(tx, userId, nickname);
  await tx.run(q.bumpComments, input.confessionId);
  env.counts.mark(input.confessionId);
  // Seconds later in a commit of its own, as a reaction's notice.
  if (authorId !== userId)
    env.notices.later(tx, async (late) => {
      if (await stillPosted(late, input.confessionId))
        await notifyComment(late, env.deps, authorId, input.confessionId, nickname, content);
    });
  const comment = { id: input.id, confessionId: input.confessionId, nickname, content };
  return { ...comment, createdAt: wireTime(createdAt), isMine: true };
}

/** The confession was not deleted while its notice waited (the deletion took the notices there were then). */
async function stillPosted(tx: Tx, confessionId: string): Promise<boolean> {
  const owner = await tx.first(q.owner, confessionId);
  return owner !== undefined && owner.deleted_at === null;
}
