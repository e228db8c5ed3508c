import { z } from 'zod';

/**
 * Focused talk's filters (spec 001 section 3 "Filters object" and "Filter options"), matched for real against
 * what students set on their profile (issue 13): interests, skill level and branch/major are profile fields;
 * college and country come from the profile's college.
 */
export const INTEREST_OPTIONS = [
  'Coding',
  'Photography',
  'Music',
  'Sports',
  'Reading',
  'Gaming',
  'Art',
  'Cooking',
  'Travel',
  'Fitness',
  'Movies',
  'Technology',
  'Science',
  'History',
  'Literature',
  'Mathematics',
  'Languages',
  'Dance',
  'Writing',
  'Design',
  'Business',
  'Psychology',
] as const;
export const SKILL_LEVELS = ['Beginner', 'Intermediate', 'Advanced'] as const;
/** The spec's countries, by name; a college's ISO country maps onto them (anything else is 'Other'). */
export const COUNTRY_OPTIONS = [
  'USA',
  'India',
  'UK',
  'Canada',
  'Australia',
  'Germany',
  'France',
  'Japan',
  'South Korea',
  'Singapore',
  'Other',
] as const;
export const BRANCH_OPTIONS = [
  'CS',
  'ECE',
  'ME',
  'CE',
  'IT',
  'AI/ML',
  'Data Science',
  'Biotechnology',
  'Chemical',
  'Aerospace',
  'Civil',
  'Other',
] as const;

export const interestSchema = z.enum(INTEREST_OPTIONS);
export const skillLevelSchema = z.enum(SKILL_LEVELS);
export const branchSchema = z.enum(BRANCH_OPTIONS);
export type Interest = z.infer<typeof interestSchema>;
export type SkillLevel = z.infer<typeof skillLevelSchema>;
export type Branch = z.infer<typeof branchSchema>;

/** ISO 3166-1 alpha-2 of a college's country → the spec's country option. */
export const COUNTRY_BY_ISO: Readonly<Record<string, (typeof COUNTRY_OPTIONS)[number]>> = {
  US: 'USA',
  IN: 'India',
  GB: 'UK',
  CA: 'Canada',
  AU: 'Australia',
  DE: 'Germany',
  FR: 'France',
  JP: 'Japan',
  KR: 'South Korea',
  SG: 'Singapore',
};

/**
 * The spec's Filters object: each a list of strings. `college` holds college names as the profile stores
 * them (the dialog offers the colleges of students online now, and 'Other'). Bounded: a filter is a
 * question, not a payload.
 */
export const focusedFiltersSchema = z.object({
  interests: z.array(interestSchema).max(INTEREST_OPTIONS.length).default([]),
  college: z.array(z.string().min(1).max(200)).max(20).default([]),
  skillLevel: z.array(skillLevelSchema).max(SKILL_LEVELS.length).default([]),
  country: z.array(z.enum(COUNTRY_OPTIONS)).max(COUNTRY_OPTIONS.length).default([]),
  branch: z.array(branchSchema).max(BRANCH_OPTIONS.length).default([]),
});
export type FocusedFilters = z.infer<typeof focusedFiltersSchema>;
export type FocusedFiltersInput = z.input<typeof focusedFiltersSchema>;

export const EMPTY_FILTERS: FocusedFilters = {
  interests: [],
  college: [],
  skillLevel: [],
  country: [],
  branch: [],
};

export const FILTER_GROUPS = ['interests', 'college', 'skillLevel', 'country', 'branch'] as const;
export type FilterGroup = (typeof FILTER_GROUPS)[number];

export function hasAnyFilter(filters: FocusedFilters): boolean {
  return FILTER_GROUPS.some((group) => filters[group].length > 0);
}

/**
 * `GET /api/random/counts?filters=<JSON>`: real counts of students online now who could be matched (verified,
 * profile complete, not restricted, not blocked either way with the asker, not the asker), overall and per
 * kind of room they would accept; with filters, those who satisfy every chosen group. Cheap: computed from
 * the server's live set, not a table scan per request.
 */
export const randomCountsSchema = z.object({
  /** Students online now who match. */
  total: z.number().int().min(0),
  /** Of those, how many are waiting in each queue right now. */
  waiting: z.object({
    audio: z.number().int().min(0),
    video: z.number().int().min(0),
    chat: z.number().int().min(0),
  }),
});
export type RandomCounts = z.infer<typeof randomCountsSchema>;

/** `GET /api/random/counts` with filters that are not a Filters object. */
export const INVALID_FILTERS_MSG = 'Invalid filters.';

/** `GET /api/random/counts?filters=<JSON of FocusedFilters>`: absent or empty, no filters (all students). */
export const randomCountsQuerySchema = z.object({
  filters: z
    .string()
    .max(4000, INVALID_FILTERS_MSG)
    .optional()
    .transform((raw, ctx): FocusedFilters => {
      if (raw === undefined || raw.trim() === '') return EMPTY_FILTERS;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        value = undefined;
      }
      const parsed = focusedFiltersSchema.safeParse(value);
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: 'custom', message: INVALID_FILTERS_MSG });
      return z.NEVER;
    }),
});
