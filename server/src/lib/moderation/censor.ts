import type { Span } from './matcher';

/** Sorted, with overlapping or touching spans joined, so each censored stretch is reported once. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.start <= last.end + 1) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/**
 * Replaces each span with one asterisk per character (code point, so an emoji look-alike becomes one
 * '*'), leaving every other character of the text as it was.
 */
export function censorSpans(text: string, merged: readonly Span[]): string {
  let out = '';
  let from = 0;
  for (const { start, end } of merged) {
    out += text.slice(from, start) + '*'.repeat([...text.slice(start, end + 1)].length);
    from = end + 1;
  }
  return out + text.slice(from);
}
