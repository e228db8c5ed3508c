import {
  CONFESSION_SERVER_MSG,
  CONFESSIONS,
  DEFAULT_MOOD,
  MOODS,
  REACTION_TYPES,
  type Confession,
  type ConfessionComment,
  type ReactionCounts,
  type ReactionType,
} from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import { moderate } from '../../lib/moderation';
import { ConfessionRefusal, refusals } from './errors';
import { storedCollegeName, toComment, toConfession, toCounts } from './mappers';
import { claimNickname } from './nicknames';
import { forgetConfession } from '../notifications/service';
import { notifyComment, notifyReaction } from './notify-author';
import { confessionStatements, type ConfessionStatements } from './statements';

export interface PostConfessionInput {
  id: string;
  content: string;
  emotionTag: string;
}

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
 * Trims, checks the length and censors: the server moderates every stored text again, whatever preview
 * the client showed (or skipped). Frames from the outbox arrive untrimmed, so this is their validation too.
 */
function censoredText(content: string, max: number, empty: string, tooLong: string): string {
  const text = content.trim();
  if (!text) throw new ConfessionRefusal(400, empty);
  if (text.length > max) throw new ConfessionRefusal(400, tooLong);
  return moderate(text).censored_text;
}

function requireNickname(s: ConfessionStatements, userId: string): string {
  const row = s.nicknameOf.get(userId);
  if (!row) throw refusals.nicknameRequired();
  return row.nickname;
}

/** The author of a confession that exists and is not deleted. */
function liveAuthor(s: ConfessionStatements, confessionId: string): string {
  const owner = s.owner.get(confessionId);
  if (!owner || owner.deleted_at !== null) throw refusals.notFound();
  return owner.author_id;
}

function knownMood(tag: string): string {
  return MOODS.some((m) => m.tag === tag) ? tag : DEFAULT_MOOD;
}

function confessionFor(s: ConfessionStatements, viewer: string, id: string): Confession {
  const row = s.card.get({ viewer, id });
  if (!row) throw refusals.notFound();
  const mine = new Set(s.myReactionsOn.all(id, viewer).map((r) => r.reaction_type));
  return toConfession(
    row,
    REACTION_TYPES.filter((t) => mine.has(t)),
    [],
  );
}

/**
 * Posts a confession under the author's nickname and profile college, with the censored text.
 * Idempotent on `id`: a retried post answers the stored confession.
 */
export function postConfession(deps: AppDeps, userId: string, input: PostConfessionInput): Confession {
  const s = confessionStatements(deps.sqlite);
  return deps.realtime.commit(() => {
    const existing = s.owner.get(input.id);
    if (existing) {
      if (existing.author_id !== userId) throw refusals.idConflict();
      if (existing.deleted_at !== null) throw refusals.notFound();
      return confessionFor(s, userId, input.id);
    }
    const nickname = requireNickname(s, userId);
    const content = censoredText(
      input.content,
      CONFESSIONS.maxConfessionLength,
      CONFESSION_SERVER_MSG.confessionEmpty,
      CONFESSION_SERVER_MSG.confessionTooLong,
    );
    const college = storedCollegeName(s.userCollege.get(userId)?.college ?? null);
    const createdAt = new Date(deps.now()).toISOString();
    s.insertConfession.run(
      input.id,
      userId,
      nickname,
      content,
      knownMood(input.emotionTag),
      college,
      createdAt,
    );
    claimNickname(s, userId, nickname);
    return confessionFor(s, userId, input.id);
  });
}

/**
 * Sets or takes back the user's reaction of one type. The reaction row and the counter change in one
 * transaction, and only when the row really changed, so counts stay exact however requests interleave.
 * A newly added reaction on someone else's confession notifies its author.
 */
export function setConfessionReaction(
  deps: AppDeps,
  userId: string,
  input: ConfessionReactionInput,
): ReactionState {
  const s = confessionStatements(deps.sqlite);
  return deps.realtime.commit((tx) => {
    const authorId = liveAuthor(s, input.confessionId);
    requireNickname(s, userId);
    const { confessionId, reactionType } = input;
    if (input.on) {
      const createdAt = new Date(deps.now()).toISOString();
      if (s.addReaction.run(confessionId, userId, reactionType, createdAt).changes > 0) {
        s.bump[reactionType].run(1, confessionId);
        // Once per reactor and type: taking a reaction back and adding it again tells nobody twice.
        if (authorId !== userId && s.noteReactionNotice.run(confessionId, userId, reactionType).changes > 0)
          notifyReaction(deps, tx, authorId, confessionId, reactionType);
      }
    } else if (s.removeReaction.run(confessionId, userId, reactionType).changes > 0) {
      s.bump[reactionType].run(-1, confessionId);
    }
    return reactionState(s, userId, confessionId);
  });
}

/** `POST /:id/react`: the opposite of the user's current reaction of that type, decided inside the write. */
export function toggleConfessionReaction(
  deps: AppDeps,
  userId: string,
  input: Omit<ConfessionReactionInput, 'on'>,
): ReactionState {
  const s = confessionStatements(deps.sqlite);
  return deps.realtime.commit(() => {
    const has = s.myReactionsOn
      .all(input.confessionId, userId)
      .some((r) => r.reaction_type === input.reactionType);
    return setConfessionReaction(deps, userId, { ...input, on: !has });
  });
}

function reactionState(s: ConfessionStatements, userId: string, confessionId: string): ReactionState {
  const row = s.card.get({ viewer: userId, id: confessionId });
  if (!row) throw refusals.notFound();
  const mine = new Set(s.myReactionsOn.all(confessionId, userId).map((r) => r.reaction_type));
  return { reactions: toCounts(row), myReactions: REACTION_TYPES.filter((t) => mine.has(t)) };
}

/**
 * Adds a comment under the commenter's current nickname, censored. Idempotent on `id`. A comment on
 * someone else's confession notifies its author.
 */
export function addComment(deps: AppDeps, userId: string, input: CommentInput): ConfessionComment {
  const s = confessionStatements(deps.sqlite);
  return deps.realtime.commit((tx) => {
    const existing = s.commentAuthor.get(input.id);
    if (existing) {
      if (existing.author_id !== userId || existing.confession_id !== input.confessionId)
        throw refusals.idConflict();
      return toComment(s.comment.get({ viewer: userId, id: input.id })!);
    }
    const authorId = liveAuthor(s, input.confessionId);
    const nickname = requireNickname(s, userId);
    const content = censoredText(
      input.content,
      CONFESSIONS.maxCommentLength,
      CONFESSION_SERVER_MSG.commentEmpty,
      CONFESSION_SERVER_MSG.commentTooLong,
    );
    const createdAt = new Date(deps.now()).toISOString();
    s.insertComment.run(input.id, input.confessionId, userId, nickname, content, createdAt);
    claimNickname(s, userId, nickname);
    s.bumpComments.run(input.confessionId);
    if (authorId !== userId) notifyComment(deps, tx, authorId, input.confessionId, nickname, content);
    return { id: input.id, confessionId: input.confessionId, nickname, content, createdAt, isMine: true };
  });
}

/**
 * The author deletes their confession: its text, reactions, comments and notifications go; the id stays
 * used.
 */
export function deleteConfession(deps: AppDeps, userId: string, confessionId: string): void {
  const s = confessionStatements(deps.sqlite);
  deps.realtime.commit((tx) => {
    const owner = s.owner.get(confessionId);
    if (!owner || owner.deleted_at !== null) throw refusals.notFound();
    if (owner.author_id !== userId) throw refusals.notAuthor();
    // The tab counts follow by trigger (migration 0005).
    s.softDelete.run(new Date(deps.now()).toISOString(), confessionId);
    s.deleteReactionsOf.run(confessionId);
    s.deleteNoticesOf.run(confessionId);
    s.deleteCommentsOf.run(confessionId);
    forgetConfession(deps, tx, confessionId);
  });
}
