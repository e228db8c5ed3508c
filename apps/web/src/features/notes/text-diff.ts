/** One contiguous replacement turning one string into another: what a single keystroke or paste did. */
export interface TextChange {
  index: number;
  remove: number;
  insert: string;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The smallest change by common prefix and suffix, so typing one letter sends one letter, not the whole text.
 * Never splits a surrogate pair: a half emoji on each side of an edit would corrupt it for everyone.
 */
export function diffText(before: string, after: string): TextChange | null {
  if (before === after) return null;
  const max = Math.min(before.length, after.length);
  let start = 0;
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let end = 0;
  while (
    end < max - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  ) {
    end++;
  }
  if (end > 0 && isLowSurrogate(before.charCodeAt(before.length - end))) end--;
  return {
    index: start,
    remove: before.length - start - end,
    insert: after.slice(start, after.length - end),
  };
}

/** A Y.Text change as Yjs reports it in `event.delta`. */
export type TextDelta = readonly { retain?: number; insert?: unknown; delete?: number }[];

/**
 * Where a caret at `position` ends up after someone else's change, so a remote edit never throws the local
 * caret around. Text inserted exactly at the caret goes after it: the local writer keeps typing where they were.
 */
export function mapPosition(position: number, delta: TextDelta): number {
  let index = 0;
  let mapped = position;
  for (const op of delta) {
    if (op.retain !== undefined) {
      index += op.retain;
    } else if (op.insert !== undefined) {
      const length = typeof op.insert === 'string' ? op.insert.length : 1;
      if (index < mapped) mapped += length;
      index += length;
    } else if (op.delete !== undefined) {
      if (index < mapped) mapped -= Math.min(op.delete, mapped - index);
    }
    if (index > mapped) break;
  }
  return mapped;
}
