import type { User } from '@campus/protocol';

/** What Random Talk needs on the profile (spec: college, course or branch, and year), in that order. */
export function missingRandomTalkFields(user: Pick<User, 'college' | 'course' | 'year'>): string[] {
  const missing: string[] = [];
  const college = typeof user.college === 'string' ? user.college : user.college?.name;
  if (!college?.trim()) missing.push('College');
  if (!user.course?.trim()) missing.push('Course (branch)');
  if (user.year === null || user.year === undefined) missing.push('Year');
  return missing;
}
