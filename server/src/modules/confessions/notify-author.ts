import { REACTION_LABELS, type ReactionType } from '@campus/protocol';
import type { AppDeps } from '../../lib/deps';
import type { Tx } from '../../realtime/transaction';
import { notify } from '../notifications';

/** Long comments are cut in the notification body; the panel shows one or two lines. */
const BODY_PREVIEW = 80;

/** Cut by code point, so an emoji at the cut is kept whole or dropped, never split into a lone half. */
function preview(text: string): string {
  const chars = Array.from(text);
  return chars.length > BODY_PREVIEW ? `${chars.slice(0, BODY_PREVIEW - 1).join('')}…` : text;
}

/**
 * Someone else reacted to the author's confession. The body never names the reactor: reactions are
 * anonymous even to the author (only counts are shown).
 */
export async function notifyReaction(
  tx: Tx,
  deps: AppDeps,
  authorId: string,
  confessionId: string,
  reactionType: ReactionType,
): Promise<void> {
  await notify(tx, deps, {
    userId: authorId,
    type: 'confession_reaction',
    title: 'New reaction',
    body: `Someone reacted “${REACTION_LABELS[reactionType]}” to your confession.`,
    data: { confessionId },
  });
}

/** Someone else commented: the comment is public under the commenter's nickname, so the body shows both. */
export async function notifyComment(
  tx: Tx,
  deps: AppDeps,
  authorId: string,
  confessionId: string,
  nickname: string,
  content: string,
): Promise<void> {
  await notify(tx, deps, {
    userId: authorId,
    type: 'confession_comment',
    title: 'New comment',
    body: `${nickname}: ${preview(content)}`,
    data: { confessionId },
  });
}
