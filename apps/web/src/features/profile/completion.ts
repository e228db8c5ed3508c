import type { User } from '@campus/protocol';

/** The three items of a complete profile (spec 000, sections 2 and 5), in the modal's order. */
export const PROFILE_ITEMS = ['College', 'Branch / Course', 'Year of Study'] as const;
export type ProfileItem = (typeof PROFILE_ITEMS)[number];

export interface ProfileCompletion {
  completed: ProfileItem[];
  missing: ProfileItem[];
  /** round(completed / 3 * 100). */
  percent: number;
}

type CompletionFields = Pick<User, 'college' | 'course' | 'year'>;

/** The college's name, whether the profile holds a plain string or a picker object. */
export function collegeName(college: User['college']): string {
  return (typeof college === 'string' ? college : (college?.name ?? '')).trim();
}

function present(user: CompletionFields): Record<ProfileItem, boolean> {
  return {
    College: collegeName(user.college) !== '',
    'Branch / Course': Boolean(user.course?.trim()),
    'Year of Study': user.year !== null && user.year !== undefined,
  };
}

/** Which items are there and which are missing; Random Talk needs all three. */
export function profileCompletion(user: CompletionFields): ProfileCompletion {
  const has = present(user);
  const completed = PROFILE_ITEMS.filter((item) => has[item]);
  const missing = PROFILE_ITEMS.filter((item) => !has[item]);
  return { completed, missing, percent: Math.round((completed.length / PROFILE_ITEMS.length) * 100) };
}

export function isProfileComplete(user: CompletionFields): boolean {
  return profileCompletion(user).missing.length === 0;
}
