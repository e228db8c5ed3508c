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
