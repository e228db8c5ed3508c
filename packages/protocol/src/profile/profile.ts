import { z } from 'zod';
import { COLLEGE_MSG } from '../colleges/catalog';
import { BRANCH_OPTIONS, INTEREST_OPTIONS, SKILL_LEVELS, type Interest } from '../random/filters';

/** Profile limits (spec 000, sections 5 and 9; the text lengths are ours, the spec gives none). */
export const PROFILE = {
  /** Largest profile picture accepted, in bytes (2 MB). */
  maxPictureBytes: 2 * 1024 * 1024,
  /** The stored picture: a square WebP of this many pixels a side. */
  pictureSize: 512,
  minYear: 1,
  maxYear: 10,
  maxCourseLength: 100,
  maxBioLength: 500,
  maxCollegeNameLength: 200,
  /** Interests a profile may list (focused talk matches on them). */
  maxInterests: 10,
} as const;

/** The messages of profile saving and the profile picture (spec 000, sections 5 and 8). */
export const PROFILE_MSG = {
  pictureTooLarge: 'Profile picture size exceeds 2MB limit.',
  pictureType: 'Invalid file type. Please upload an image.',
  pictureMissing: 'Please choose a picture to upload.',
  yearRange: 'Year of study must be a number from 1 to 10.',
  courseTooLong: `Course must be at most ${PROFILE.maxCourseLength} characters.`,
  bioTooLong: `Bio must be at most ${PROFILE.maxBioLength} characters.`,
  collegeNameRequired: COLLEGE_MSG.manualNameRequired,
  collegeNameTooLong: `College name must be at most ${PROFILE.maxCollegeNameLength} characters.`,
  collegeUnknown: 'Please choose a college from the list or add it manually.',
  invalidBody: 'Invalid profile.',
  interestsTooMany: `Choose at most ${PROFILE.maxInterests} interests.`,
  interestUnknown: 'Please choose interests from the list.',
  skillLevelUnknown: 'Please choose a skill level from the list.',
  branchUnknown: 'Please choose a branch from the list.',
  /** The client's fallbacks (section 8). */
  updateFailed: 'Update failed',
  unknownError: 'An unknown error occurred',
  tokenMissing: 'Token not found. Log in again.',
} as const;

/** A text field: trimmed, an empty value clears it (null). */
const clearableText = (max: number, message: string) =>
  z
    .string({ message: PROFILE_MSG.invalidBody })
    .transform((s) => s.trim())
    .refine((s) => s.length <= max, { message })
    .transform((s) => (s === '' ? null : s))
    .nullable();

/** Year of Study: 1 to 10, a number or its digits; an empty value (or null) clears it. */
const yearField = z
  .union([z.number(), z.string()], { message: PROFILE_MSG.yearRange })
  .nullable()
  .transform((v, ctx) => {
    if (v === null || (typeof v === 'string' && v.trim() === '')) return null;
    const n = typeof v === 'number' ? v : /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < PROFILE.minYear || n > PROFILE.maxYear) {
      ctx.addIssue({ code: 'custom', message: PROFILE_MSG.yearRange });
      return z.NEVER;
    }
    return n;
  });

const shortList = z.array(z.string().max(200)).max(50).optional();

/** One of the options, or null; an empty string (or null) clears it. */
const clearableOption = <T extends string>(options: readonly T[], message: string) =>
  z
    .string({ message })
    .nullable()
    .transform((v, ctx): T | null => {
      if (v === null || v.trim() === '') return null;
      const found = options.find((o) => o === v.trim());
      if (found !== undefined) return found;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    });

/** Interests: options of the list, at most PROFILE.maxInterests once each (repeats are dropped); [] clears. */
const interestsField = z
  .array(z.string({ message: PROFILE_MSG.interestUnknown }), { message: PROFILE_MSG.interestUnknown })
  .max(INTEREST_OPTIONS.length, { message: PROFILE_MSG.interestsTooMany })
  .transform((list, ctx): Interest[] => {
    const picked: Interest[] = [];
    for (const value of list) {
      const found = INTEREST_OPTIONS.find((o) => o === value.trim());
      if (found === undefined) {
        ctx.addIssue({ code: 'custom', message: PROFILE_MSG.interestUnknown });
        return z.NEVER;
      }
      if (!picked.includes(found)) picked.push(found);
    }
    if (picked.length > PROFILE.maxInterests) {
      ctx.addIssue({ code: 'custom', message: PROFILE_MSG.interestsTooMany });
      return z.NEVER;
    }
    return picked;
  });

/**
 * A college as the profile sends it: from the picker, an option object (id, name, country, city, stateName,
 * aliases, acronyms, types); typed in by hand, its name as the id with country IN (section 7).
 */
export const profileCollegeSchema = z.object({
  id: z.string({ message: PROFILE_MSG.collegeUnknown }).max(PROFILE.maxCollegeNameLength).optional(),
  name: z
    .string({ message: PROFILE_MSG.collegeNameRequired })
    .transform((s) => s.replace(/\s+/g, ' ').trim())
    .refine((s) => s.length > 0, { message: PROFILE_MSG.collegeNameRequired })
    .refine((s) => s.length <= PROFILE.maxCollegeNameLength, { message: PROFILE_MSG.collegeNameTooLong }),
  country: z.string().max(8).optional(),
  city: z.string().max(200).optional(),
  stateName: z.string().max(200).optional(),
  aliases: shortList,
  acronyms: shortList,
  types: shortList,
});
export type ProfileCollege = z.infer<typeof profileCollegeSchema>;

/** A college sent as a plain string: a manually typed name; empty clears the college. */
const collegeNameSchema = z
  .string()
  .transform((s) => s.replace(/\s+/g, ' ').trim())
  .refine((s) => s.length <= PROFILE.maxCollegeNameLength, { message: PROFILE_MSG.collegeNameTooLong });

/**
 * `PUT /api/users/profile`: the edited profile. An omitted field stays as it is; the client also sends the
 * fields it does not edit (names, role, picture URL…), which are ignored. A college given as a plain string
 * is a manually typed name.
 */
export const profileUpdateSchema = z.object(
  {
    course: clearableText(PROFILE.maxCourseLength, PROFILE_MSG.courseTooLong).optional(),
    bio: clearableText(PROFILE.maxBioLength, PROFILE_MSG.bioTooLong).optional(),
    year: yearField.optional(),
    college: z
      .unknown()
      .transform((v, ctx): string | ProfileCollege | null => {
        if (v === null) return null;
        const parsed = (typeof v === 'string' ? collegeNameSchema : profileCollegeSchema).safeParse(v);
        if (parsed.success) return parsed.data;
        ctx.addIssue({
          code: 'custom',
          message:
            typeof v === 'object' || typeof v === 'string'
              ? (parsed.error.issues[0]?.message ?? PROFILE_MSG.collegeUnknown)
              : PROFILE_MSG.collegeUnknown,
        });
        return z.NEVER;
      })
      .optional(),
    /** Focused talk (issue 13): omitted stays, [] / null / '' clears. */
    interests: interestsField.optional(),
    skillLevel: clearableOption(SKILL_LEVELS, PROFILE_MSG.skillLevelUnknown).optional(),
    branch: clearableOption(BRANCH_OPTIONS, PROFILE_MSG.branchUnknown).optional(),
  },
  { message: PROFILE_MSG.invalidBody },
);
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
