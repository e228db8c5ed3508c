import { COLLEGE_SUGGESTIONS_MAX, type CollegeOption } from '@campus/protocol';

/** Lower case without accents, so 'universite' finds 'Université' and 'munchen' finds 'München'. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

interface Entry {
  option: CollegeOption;
  name: string;
  /** Name, city, state name, aliases and acronyms, one per line (so no match spans two of them). */
  all: string;
}

export interface CollegeIndex {
  readonly size: number;
  /** At most `max` colleges matching every word of the query in their name, city or state name. */
  search(query: string, max?: number): CollegeOption[];
}

/**
 * A country's or state's list made searchable once, when it loads: each keystroke then only scans
 * precomputed lower-case strings (the largest list, the United States', has under 3,000 colleges).
 *
 * Ranking, then the list's order (by name): the name starts with the query; the name contains it; every
 * word is in the name; the words are found in the city, state or other names.
 */
export function indexColleges(options: readonly CollegeOption[]): CollegeIndex {
  const entries: Entry[] = options.map((option) => {
    const name = fold(option.name);
    const others = [option.city, option.stateName, ...(option.aliases ?? []), ...(option.acronyms ?? [])];
    return { option, name, all: [name, ...others.map(fold)].join('\n') };
  });

  return {
    size: entries.length,
    search(query, max = COLLEGE_SUGGESTIONS_MAX) {
      const phrase = fold(query).replace(/\s+/g, ' ').trim();
      if (!phrase || max <= 0) return [];
      const words = phrase.split(' ');
      const ranks: CollegeOption[][] = [[], [], [], []];
      for (const entry of entries) {
        if (!words.every((word) => entry.all.includes(word))) continue;
        const rank = entry.name.startsWith(phrase)
          ? 0
          : entry.name.includes(phrase)
            ? 1
            : words.every((word) => entry.name.includes(word))
              ? 2
              : 3;
        ranks[rank]!.push(entry.option);
        if (rank === 0 && ranks[0]!.length >= max) break;
      }
      return ranks.flat().slice(0, max);
    },
  };
}

export const EMPTY_INDEX: CollegeIndex = indexColleges([]);
