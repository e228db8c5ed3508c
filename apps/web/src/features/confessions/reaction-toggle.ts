import type { Confession, ReactionType } from '@campus/protocol';

/** The card as it looks once the viewer's reaction of this type is on (or off): one per user per type. */
export function withReaction(confession: Confession, type: ReactionType, on: boolean): Confession {
  const had = confession.myReactions.includes(type);
  if (had === on) return confession;
  const count = Math.max(0, confession.reactions[type] + (on ? 1 : -1));
  return {
    ...confession,
    reactions: { ...confession.reactions, [type]: count },
    myReactions: on ? [...confession.myReactions, type] : confession.myReactions.filter((t) => t !== type),
  };
}

/**
 * Font size for a card's text: short confessions read big, long ones shrink, within 18–46 px. Logarithmic,
 * so each doubling of the length takes the same step (about 9 px) from 46 px at 20 characters.
 */
export function cardFontPx(length: number, min: number, max: number): number {
  const size = max - 9 * Math.log2(Math.max(length, 20) / 20);
  return Math.round(Math.min(max, Math.max(min, size)));
}
