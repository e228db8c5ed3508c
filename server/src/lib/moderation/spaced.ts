import { findSpans, type Span } from './matcher';

/** What people put between the letters of a spelled-out word: 'f u c k', 'f.u.c.k', 's-h-i-t'. */
const SEPARATOR = /[\s.\-_,~+]/u;
const MAX_GAP = 3;
const MIN_LETTERS = 3;

interface Single {
  /** UTF-16 index in the original text and the character (one code point). */
  index: number;
  char: string;
}

/** Runs of at least three lone characters, each separated from the next by one to three separators. */
function spelledOutRuns(text: string): Single[][] {
  const chars: Single[] = [];
  let offset = 0;
  for (const char of text) {
    chars.push({ index: offset, char });
    offset += char.length;
  }
  const runs: Single[][] = [];
  let run: Single[] = [];
  let gap = 0;
  const flush = () => {
    if (run.length >= MIN_LETTERS) runs.push(run);
    run = [];
  };
  for (let i = 0; i < chars.length; i++) {
    const { char } = chars[i]!;
    if (SEPARATOR.test(char)) {
      gap++;
      if (gap > MAX_GAP) flush();
      continue;
    }
    const lone =
      (i === 0 || SEPARATOR.test(chars[i - 1]!.char)) &&
      (i === chars.length - 1 || SEPARATOR.test(chars[i + 1]!.char));
    if (!lone) flush();
    else run.push(chars[i]!);
    gap = 0;
  }
  flush();
  return runs;
}

/**
 * obscenity's optional skip-non-alphabetic transformer would catch 'f u c k' but is off in its
 * recommended set because it joins ordinary words ('pen is'). Here only characters that stand alone
 * are joined, and the joined letters go through the same matcher.
 */
export function findSpelledOutSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const run of spelledOutRuns(text)) {
    const compact = run.map((s) => s.char).join('');
    // compact UTF-16 index → original UTF-16 index (a surrogate pair covers two of each).
    const toOriginal: number[] = [];
    for (const { index, char } of run) for (let k = 0; k < char.length; k++) toOriginal.push(index + k);
    for (const span of findSpans(compact)) {
      spans.push({ start: toOriginal[span.start]!, end: toOriginal[span.end]! });
    }
  }
  return spans;
}
