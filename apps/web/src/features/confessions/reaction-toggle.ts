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

/** Font size for a card's text: short confessions read big, long ones shrink, within 18–46 px. */
export function cardFontPx(length: number, min: number, max: number): number {
  if (length <= 40) return max;
  if (length >= 400) return min;
  // Linear between 40 and 400 characters.
  const t = (length - 40) / (400 - 40);
  return Math.round(max - t * (max - min));
}
