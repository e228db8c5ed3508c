import { parseRawPattern, type ParsedPattern } from 'obscenity';

/**
 * obscenity's recommended transformers collapse a run of the same character to one, except b, e, o, l,
 * s and g which keep two (ab-ee-d, b-oo-nga, a-ss). A pattern only matches text as it looks after that,
 * so our words are rewritten the same way here, and each single b/e/o/l/s/g may also appear doubled.
 */
const KEEPS_TWO = new Set(['b', 'e', 'o', 'l', 's', 'g']);

export interface WordPattern {
  /** The entry without its `|` markers: reported as the phrase that matched. */
  word: string;
  pattern: ParsedPattern;
  /** The match must start (end) a word, checked on the original text (see matcher.ts for why). */
  wordStart: boolean;
  wordEnd: boolean;
}

function collapseRuns(word: string): string {
  let out = '';
  let run = 0;
  for (const ch of word) {
    run = out.endsWith(ch) ? run + 1 : 1;
    if (run <= (KEEPS_TWO.has(ch) ? 2 : 1)) out += ch;
  }
  return out;
}

/** `|kontol` → pattern `ko[o]nto[o]l[l]` with wordStart. Entries are lower-case letters and spaces. */
export function compileWord(entry: string): WordPattern {
  const wordStart = entry.startsWith('|');
  const wordEnd = entry.endsWith('|');
  const word = entry.slice(wordStart ? 1 : 0, wordEnd ? -1 : undefined);
  if (!/^[a-z]+(?: [a-z]+)*$/.test(word)) throw new Error(`Invalid moderation word entry: ${entry}`);
  const collapsed = collapseRuns(word);
  let source = '';
  for (let i = 0; i < collapsed.length; i++) {
    const ch = collapsed[i]!;
    const single = collapsed[i - 1] !== ch && collapsed[i + 1] !== ch;
    source += KEEPS_TWO.has(ch) && single ? `${ch}[${ch}]` : ch;
  }
  return { word, pattern: parseRawPattern(source), wordStart, wordEnd };
}
