import unhomoglyph from 'unhomoglyph';

/**
 * What a nickname looks like, for uniqueness beside the case-insensitive `nicknameKey`: two names with one
 * skeleton would read the same on a confession card, so only one user may hold it.
 *
 * unhomoglyph (the confusables table Matrix clients use for display names) maps each look-alike to a base
 * character. It is case-sensitive and its output may hold capitals ('0' → 'O'), so it alternates with
 * lower-casing until nothing changes: 'M' → 'm' → 'rn', 'О' (Cyrillic) → 'O' → 'o'. Folding before lower-
 * casing keeps what only capitals look like: 'night_owI' (capital I) → 'night_owl'.
 *
 * Then 'i' and 'l' are one letter: a capital I looks like 'l' and is the same letter as 'i', so without this
 * 'NIGHT_OWL' (→ 'nlght_owl') and 'night_owl' would differ, and a name could not be one look in any case.
 * The cost is that 'ali' and 'all' clash; a nickname picker can live with that.
 *
 * Stored (nicknames.skeleton, nickname_claims.skeleton): migration 0007 repeats this fold and 0010 the
 * space rule, and the package is pinned to an exact version, since a new confusables table needs a
 * migration that recomputes them.
 */
export function nicknameSkeleton(nickname: string): string {
  let folded = nickname.normalize('NFKC');
  // Two or three rounds settle every character of the table; the bound only guards against a future cycle.
  for (let round = 0; round < 8; round++) {
    const next = unhomoglyph(folded).toLowerCase();
    if (next === folded) break;
    folded = next;
  }
  return collapseSkeletonSpaces(folded.replaceAll('i', 'l'));
}

/**
 * Runs of white space as one space, the ends dropped: 'night  owl' reads as 'night owl'. The nickname rule
 * collapses them too, but names set before it may hold runs (migration 0010 collapsed their stored
 * skeletons the same way, so a look check still finds them).
 */
export function collapseSkeletonSpaces(skeleton: string): string {
  return skeleton.replace(/\s+/gu, ' ').trim();
}
