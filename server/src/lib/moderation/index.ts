import type { ModerationResult } from '@campus/protocol';
import { censorSpans, mergeSpans } from './censor';
import { findSpans } from './matcher';
import { findSpelledOutSpans } from './spaced';

/**
 * Censors profanity and slurs (English, Indonesian, Hindi/Hinglish) in `text`: obscenity's English
 * dataset and our word lists, seen through leetspeak ('sh1t'), repeated letters ('fuuuck'), look-alike
 * characters and spelled-out letters ('f u c k'), minus an allow-list ('Scunthorpe'). Pure and
 * synchronous: the confession and comment writers call it inside their transactions.
 *
 * `blocked_words` are the distinct censored stretches as written, lower-cased.
 */
export function moderate(text: string): ModerationResult {
  const spans = mergeSpans([...findSpans(text), ...findSpelledOutSpans(text)]);
  const blocked = new Set(spans.map(({ start, end }) => text.slice(start, end + 1).toLowerCase()));
  return {
    original_text: text,
    censored_text: spans.length === 0 ? text : censorSpans(text, spans),
    has_blocked_words: spans.length > 0,
    blocked_words: [...blocked],
  };
}
