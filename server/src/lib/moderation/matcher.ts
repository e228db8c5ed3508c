import { DataSet, RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity';
import { ALLOW_LIST } from './allow-list';
import { compileWord } from './patterns';
import { ENGLISH_WORDS } from './words/english';
import { HINDI_WORDS } from './words/hindi';
import { INDONESIAN_WORDS } from './words/indonesian';

/** A matched range of the input, start and end inclusive (UTF-16 indices, as obscenity reports them). */
export interface Span {
  start: number;
  end: number;
}

interface PhraseMeta {
  originalWord: string;
  wordStart?: boolean;
  wordEnd?: boolean;
}

function buildDataSet(): DataSet<PhraseMeta> {
  const dataset = new DataSet<PhraseMeta>().addAll(englishDataset);
  for (const entry of [...ENGLISH_WORDS, ...INDONESIAN_WORDS, ...HINDI_WORDS]) {
    const { word, pattern, wordStart, wordEnd } = compileWord(entry);
    dataset.addPhrase((phrase) =>
      phrase.setMetadata({ originalWord: word, wordStart, wordEnd }).addPattern(pattern),
    );
  }
  return dataset;
}

// Built once at module load: compiling a few hundred patterns per call would dominate the cost.
const dataset = buildDataSet();
const built = dataset.build();
const matcher = new RegExpMatcher({
  blacklistedTerms: built.blacklistedTerms,
  whitelistedTerms: [...(built.whitelistedTerms ?? []), ...ALLOW_LIST],
  ...englishRecommendedTransformers,
});

const WORD_CHAR = /[\p{L}\p{N}]/u;
/** The code point just before UTF-16 index `start` (maybe the low half of a surrogate pair). */
function charBefore(text: string, start: number): string {
  return [...text.slice(Math.max(0, start - 2), start)].at(-1) ?? '';
}
/** The code point just after the inclusive UTF-16 index `end`. */
function charAfter(text: string, end: number): string {
  return [...text.slice(end + 1, end + 3)][0] ?? '';
}

/**
 * All blocked spans of `text`, unmerged, each widened to the whole word it sits in ('asshole' is censored
 * whole, not as '***hole'; 'anjinggg' too, which obscenity ends at the first g after collapsing the run).
 * Our whole-word rules are checked here on the original text rather than with obscenity's `|` assertion:
 * its leetspeak transformer turns '!' into 'i', so 'anjing!' would not end a word after transformation.
 */
export function findSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of matcher.getAllMatches(text)) {
    const meta = dataset.getPayloadWithPhraseMetadata(match).phraseMetadata;
    let { startIndex: start, endIndex: end } = match;
    // Collapsing 'ggg' to 'g' reports the match ending at the first g of the run.
    while (end + 1 < text.length && text[end + 1]!.toLowerCase() === text[end]!.toLowerCase()) end++;
    if (meta?.wordStart && WORD_CHAR.test(charBefore(text, start))) continue;
    if (meta?.wordEnd && WORD_CHAR.test(charAfter(text, end))) continue;
    for (let c = charBefore(text, start); WORD_CHAR.test(c); c = charBefore(text, start)) start -= c.length;
    for (let c = charAfter(text, end); WORD_CHAR.test(c); c = charAfter(text, end)) end += c.length;
    spans.push({ start, end });
  }
  return spans;
}
