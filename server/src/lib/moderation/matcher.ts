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

/**
 * For every UTF-16 index, where the word (run of letters and digits) around it starts and ends, inclusive;
 * -1 outside words. Built once per text so widening a match costs O(1): walking outwards per match made one
 * long word full of matches quadratic (5,000 characters of repeats took over 250 ms).
 */
interface Words {
  start: Int32Array;
  end: Int32Array;
}

function wordsOf(text: string): Words {
  const start = new Int32Array(text.length).fill(-1);
  const end = new Int32Array(text.length).fill(-1);
  let runStart = -1;
  let offset = 0;
  const close = (runEnd: number) => {
    for (let k = runStart; k <= runEnd; k++) {
      start[k] = runStart;
      end[k] = runEnd;
    }
    runStart = -1;
  };
  for (const char of text) {
    if (WORD_CHAR.test(char)) {
      if (runStart < 0) runStart = offset;
    } else if (runStart >= 0) close(offset - 1);
    offset += char.length;
  }
  if (runStart >= 0) close(text.length - 1);
  return { start, end };
}

/**
 * All blocked spans of `text`, unmerged, each widened to the whole word it sits in ('asshole' is censored
 * whole, not as '***hole'; 'anjinggg' too, which obscenity ends at the first g after collapsing the run).
 * Our whole-word rules are checked here on the original text rather than with obscenity's `|` assertion:
 * its leetspeak transformer turns '!' into 'i', so 'anjing!' would not end a word after transformation.
 */
export function findSpans(text: string): Span[] {
  const matches = matcher.getAllMatches(text);
  if (matches.length === 0) return [];
  const words = wordsOf(text);
  const spans: Span[] = [];
  for (const match of matches) {
    const meta = dataset.getPayloadWithPhraseMetadata(match).phraseMetadata;
    let { startIndex: start, endIndex: end } = match;
    // Collapsing 'ggg' to 'g' reports the match ending at the first g of the run.
    // Inside the whole word(s) an earlier match already censored: nothing to add, no run to walk again.
    const last = spans.at(-1);
    if (last && start >= last.start && end <= last.end) continue;
    while (end + 1 < text.length && text[end + 1]!.toLowerCase() === text[end]!.toLowerCase()) end++;
    const before = start > 0 ? words.end[start - 1]! : -1;
    const after = end + 1 < text.length ? words.start[end + 1]! : -1;
    if (meta?.wordStart && before >= 0) continue;
    if (meta?.wordEnd && after >= 0) continue;
    if (before >= 0) start = words.start[start - 1]!;
    if (after >= 0) end = words.end[end + 1]!;
    spans.push({ start, end });
  }
  return spans;
}
