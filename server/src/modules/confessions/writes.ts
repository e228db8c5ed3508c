import {
  CONFESSION_SERVER_MSG,
  CONFESSIONS,
  DEFAULT_MOOD,
  MOODS,
  REACTION_TYPES,
  type Confession,
  type ReactionType,
} from '@campus/protocol';
import { moderate } from '../../lib/moderation';
import { audience } from '../../realtime/audiences';
import type { Tx } from '../../realtime/transaction';
import { forgetConfession } from '../notifications';
import type { ConfessionEnv } from './env';
import { refusals } from './errors';
import { storedCollegeName, toConfession, wireTime } from './mappers';
import { claimNickname } from './nicknames';
import { q } from './queries';

/**
 * The confession writes: each runs inside the caller's commit (the REST route's or the outbox's), through
 * the engine's `Tx`, and refuses with a `Refusal` before writing anything. Reactions and comments are in
 * reactions.ts.
 */

export interface PostConfessionInput {
  id: string;
  content: string;
  emotionTag: string;
}

/**
 * Trims, checks the length and censors: the server moderates every stored text again, whatever preview
 * the client showed (or skipped). Frames from the outbox arrive untrimmed, so this is their validation too.
 */
export function censoredText(content: string, max: number, empty: string, tooLong: string): string {
  const text = content.trim();
  if (!text) throw refusals.invalid(empty);
  if (text.length > max) throw refusals.invalid(tooLong);
  return moderate(text).censored_text;
}

export async function requireNickname(tx: Tx, userId: string): Promise<string> {
  const row = await tx.first(q.nicknameOf, userId);
  if (!row) throw refusals.nicknameRequired();
  return row.nickname;
}

/** The author of a confession that exists and is not deleted. */
export async function liveAuthor(tx: Tx, confessionId: string): Promise<string> {
  const owner = await tx.first(q.owner, confessionId);
  if (!owner || owner.deleted_at !== null) throw refusals.notFound();
  return owner.author_id;
}

export async function myReactionsOn(tx: Tx, userId: string, confessionId: string): Promise<ReactionType[]> {
  const mine = new Set((await tx.all(q.myReactionsOn, confessionId, userId)).map((r) => r.reaction_type));
  return REACTION_TYPES.filter((t) => mine.has(t));
}

function knownMood(tag: string): string {
  return MOODS.some((m) => m.tag === tag) ? tag : DEFAULT_MOOD;
}

/** The card as `viewer` sees it, without comments (a post's answer). */
async function confessionFor(tx: Tx, viewer: string, id: string): Promise<Confession> {
  const row = await tx.first(q.card, viewer, id);
  if (!row) throw refusals.notFound();
  return toConfession(row, await myReactionsOn(tx, viewer, id), []);
}

/**
 * Posts a confession under the author's nickname and profile college, with the censored text. Every student
 * hears of it live a few seconds later, from the publisher (publisher.ts), not from this commit: the card
 * as a stranger sees it (never the author's id), and the author's own devices that it is theirs.
 * Idempotent on `id`: a retried post answers the stored confession and schedules nothing again.
 */
export async function postConfession(
  tx: Tx,
  env: Pick<ConfessionEnv, 'publisher'>,
  userId: string,
  input: PostConfessionInput,
): Promise<Confession> {
  const existing = await tx.first(q.owner, input.id);
  if (existing) {
    if (existing.author_id !== userId) throw refusals.idConflict();
    if (existing.deleted_at !== null) throw refusals.notFound();
    return confessionFor(tx, userId, input.id);
  }
  const nickname = await requireNickname(tx, userId);
  const content = censoredText(
    input.content,
    CONFESSIONS.maxConfessionLength,
    CONFESSION_SERVER_MSG.confessionEmpty,
    CONFESSION_SERVER_MSG.confessionTooLong,
  );
  const college = storedCollegeName((await tx.first(q.userCollege, userId))?.college ?? null);
  const createdAt = new Date(tx.now).toISOString();
  const emotionTag = knownMood(input.emotionTag);
  await tx.run(q.insertConfession, input.id, userId, nickname, content, emotionTag, college, createdAt);
  await claimNickname(tx, userId, nickname);
  env.publisher.schedule(input.id);
  return {
    id: input.id,
    content,
    emotionTag,
    college,
    createdAt: wireTime(createdAt),
    imageUrl: null,
    nickname,
    reactions: { relatable: 0, funny: 0, feelYou: 0, shareWorthy: 0 },
    myReactions: [],
    commentCount: 0,
    comments: [],
    isMine: true,
  };
}

/**
 * The author deletes their confession: its text, reactions, comments and notifications go (the id stays
 * used), and every feed drops the card (`confession_deleted`). The change that announced it is redacted
 * too, so a pull from before it gets the deletion there, never the text. Anyone else is refused.
 */
export async function deleteConfession(
  tx: Tx,
  env: ConfessionEnv,
  userId: string,
  confessionId: string,
): Promise<void> {
  const owner = await tx.first(q.owner, confessionId);
  if (!owner || owner.deleted_at !== null) throw refusals.notFound();
  if (owner.author_id !== userId) throw refusals.notAuthor();
  // The tab counts follow by trigger (migration 0005).
  await tx.run(q.softDelete, new Date(tx.now).toISOString(), confessionId);
  await tx.run(q.deleteReactionsOf, confessionId);
  await tx.run(q.deleteNoticesOf, confessionId);
  await tx.run(q.deleteCommentsOf, confessionId);
  await forgetConfession(tx, confessionId);
  // A count change still waiting for its flush is skipped then: the card is gone.
  const deleted = { type: 'confession_deleted', confessionId } as const;
  // Announced seconds later in a commit of its own: beside the author's other writes of this commit (a group
  // message flushed with it) its seq would name the author. The redaction below rewrites an old entry only.
  env.notices.later(tx, async (late) => {
    late.emit(deleted, [audience.allStudents]);
  });
  // NULL: not announced yet (the publisher skips it now); 0: announced before migration 0012, pruned since.
  if (owner.posted_seq) await tx.redact(owner.posted_seq, deleted);
}
