import { FILTER_GROUPS, type FilterGroup, type FocusedFilters } from '@campus/protocol';

/** Each group's name in a summary, singular and plural. */
const GROUP_WORDS: Record<FilterGroup, [string, string]> = {
  interests: ['interest', 'interests'],
  college: ['college', 'colleges'],
  skillLevel: ['skill level', 'skill levels'],
  country: ['country', 'countries'],
  branch: ['branch', 'branches'],
};

/** The chosen filters in a few words: '2 interests, 1 college', or 'All students' with none. */
export function filtersSummary(filters: FocusedFilters | null): string {
  if (!filters) return 'All students';
  const parts = FILTER_GROUPS.filter((group) => filters[group].length > 0).map((group) => {
    const count = filters[group].length;
    const [one, many] = GROUP_WORDS[group];
    return `${count} ${count === 1 ? one : many}`;
  });
  return parts.length > 0 ? parts.join(', ') : 'All students';
}

/** Every chosen value, for the 'Your Active Filters' chips. */
export function activeFilterValues(filters: FocusedFilters | null): { group: FilterGroup; value: string }[] {
  if (!filters) return [];
  return FILTER_GROUPS.flatMap((group) => filters[group].map((value) => ({ group, value })));
}
