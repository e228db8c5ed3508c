import type { Reaction } from '@campus/protocol';

export interface ReactionSummary {
  emoji: string;
  count: number;
  mine: boolean;
}

/** Emoji with their counts, in order of first use; `mine` marks the one the user chose. */
export function summarizeReactions(reactions: readonly Reaction[], userId: string): ReactionSummary[] {
  const byEmoji = new Map<string, ReactionSummary>();
  for (const { emoji, userId: by } of reactions) {
    if (!emoji) continue;
    const entry = byEmoji.get(emoji) ?? { emoji, count: 0, mine: false };
    entry.count += 1;
    entry.mine ||= by === userId;
    byEmoji.set(emoji, entry);
  }
  return [...byEmoji.values()];
}

export function myReaction(reactions: readonly Reaction[], userId: string): string | null {
  return reactions.find((reaction) => reaction.userId === userId)?.emoji || null;
}

/** One reaction per user: choosing the one already chosen takes it back (sent as ''). */
export function nextReaction(current: string | null, chosen: string): string {
  return current === chosen ? '' : chosen;
}
