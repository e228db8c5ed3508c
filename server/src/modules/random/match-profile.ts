import {
  COUNTRY_BY_ISO,
  FILTER_GROUPS,
  type Branch,
  type FocusedFilters,
  type Interest,
  type SkillLevel,
} from '@campus/protocol';

/** A country option of the spec ('USA', 'India', …, 'Other'). */
export type CountryOption = FocusedFilters['country'][number];

/** What focused talk's filters look at in a student's profile. Pure data: no I/O reads it. */
export interface MatchProfile {
  readonly userId: string;
  /** The college's name as the profile stores it. */
  readonly college: string | null;
  /** The college's country as one of the spec's options (a country the list lacks is 'Other'). */
  readonly country: CountryOption | null;
  readonly skillLevel: SkillLevel | null;
  readonly branch: Branch | null;
  readonly interests: readonly Interest[];
}

/** The college as the profile stores it: a plain name (typed in long ago) or a catalog object. */
export type StoredCollege = string | { name: string; country?: string } | null;

export function collegeName(college: StoredCollege): string | null {
  if (college === null) return null;
  const name = typeof college === 'string' ? college : college.name;
  return name.trim() || null;
}

/** A college's ISO country as the spec's option; a plain name carries no country. */
export function countryOf(college: StoredCollege): CountryOption | null {
  if (college === null || typeof college === 'string' || !college.country) return null;
  return COUNTRY_BY_ISO[college.country.toUpperCase()] ?? 'Other';
}

/** How many filter groups the seeker chose (a group with at least one value). */
export function chosenGroups(filters: FocusedFilters): number {
  let n = 0;
  for (const group of FILTER_GROUPS) if (filters[group].length > 0) n++;
  return n;
}

/** Whether `profile` satisfies one chosen group: its value is in the list (interests: any in common). */
function satisfies(filters: FocusedFilters, group: (typeof FILTER_GROUPS)[number], p: MatchProfile) {
  switch (group) {
    case 'interests':
      return p.interests.some((i) => filters.interests.includes(i));
    case 'college':
      return p.college !== null && filters.college.includes(p.college);
    case 'skillLevel':
      return p.skillLevel !== null && filters.skillLevel.includes(p.skillLevel);
    case 'country':
      return p.country !== null && filters.country.includes(p.country);
    case 'branch':
      return p.branch !== null && filters.branch.includes(p.branch);
  }
}

/** A candidate's score for a seeker: how many of the seeker's chosen groups the candidate satisfies. */
export function scoreOf(filters: FocusedFilters, candidate: MatchProfile): number {
  let n = 0;
  for (const group of FILTER_GROUPS)
    if (filters[group].length > 0 && satisfies(filters, group, candidate)) n++;
  return n;
}

/** Whether the candidate satisfies every chosen group (no filters: everyone does). */
export function satisfiesAll(filters: FocusedFilters, candidate: MatchProfile): boolean {
  return scoreOf(filters, candidate) === chosenGroups(filters);
}
