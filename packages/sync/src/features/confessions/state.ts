import type { ReactionType } from '@campus/protocol';
import type { LocalConfession } from '../../database';

/** Turns the viewer's reaction of one type on or off; the count moves only when the state changes. */
export function withReaction(row: LocalConfession, type: ReactionType, on: boolean): LocalConfession {
  const had = row.myReactions.includes(type);
  if (had === on) return row;
  const count = Math.max(0, row.reactions[type] + (on ? 1 : -1));
  const myReactions = on ? [...row.myReactions, type] : row.myReactions.filter((t) => t !== type);
  return { ...row, reactions: { ...row.reactions, [type]: count }, myReactions };
}
