import {
  COLLEGE_MSG,
  PROFILE,
  PROFILE_MSG,
  type Branch,
  type CollegeOption,
  type Interest,
  type ProfileCollege,
  type SkillLevel,
  type User,
} from '@campus/protocol';

/** A college chosen in the picker: an option of a list (or the e-mail suggestion), or a typed name. */
export type CollegeChoice = { kind: 'option'; option: CollegeOption } | { kind: 'manual'; name: string };

/** What the edit form holds, as typed. `college` null: left as it is. '' for no skill level or branch. */
export interface ProfileDraft {
  course: string;
  year: string;
  bio: string;
  college: CollegeChoice | null;
  /** Focused talk matches on these (issue 13). */
  interests: Interest[];
  skillLevel: SkillLevel | '';
  branch: Branch | '';
}

export function draftOf(user: User): ProfileDraft {
  return {
    course: user.course ?? '',
    year: user.year === null ? '' : String(user.year),
    bio: user.bio ?? '',
    college: null,
    interests: user.interests ?? [],
    skillLevel: user.skillLevel ?? '',
    branch: user.branch ?? '',
  };
}

/** The fields the body never carries (spec 000, section 7), and the two the server adds for its owner. */
const NOT_SENT = new Set([
  'id',
  '_id',
  'email',
  'documentStatus',
  'documentDeadline',
  'documentUrl',
  'documentSubmittedAt',
  'lastActiveAt',
  'access',
  'rejectionReason',
]);

const collapse = (name: string) => name.replace(/\s+/g, ' ').trim();

/** A picker option as an object; a typed name with itself as the id and country IN (section 7). */
export function collegeBody(choice: CollegeChoice): ProfileCollege {
  if (choice.kind === 'manual') {
    const name = collapse(choice.name);
    return { id: name, name, country: 'IN' };
  }
  const { id, name, country, city, stateName, aliases, acronyms, types } = choice.option;
  return {
    id,
    name,
    country,
    city,
    stateName,
    ...(aliases ? { aliases } : {}),
    ...(acronyms ? { acronyms } : {}),
    ...(types ? { types } : {}),
  };
}

export type DraftField = 'year' | 'college' | 'course' | 'bio' | 'interests';

/** The first problem of a draft, checked before sending (the server checks again). */
export function draftProblem(draft: ProfileDraft): { field: DraftField; message: string } | null {
  const year = draft.year.trim();
  if (
    year !== '' &&
    !(/^\d+$/.test(year) && Number(year) >= PROFILE.minYear && Number(year) <= PROFILE.maxYear)
  )
    return { field: 'year', message: PROFILE_MSG.yearRange };
  if (draft.college?.kind === 'manual') {
    const name = collapse(draft.college.name);
    if (!name) return { field: 'college', message: COLLEGE_MSG.manualNameRequired };
    if (name.length > PROFILE.maxCollegeNameLength)
      return { field: 'college', message: PROFILE_MSG.collegeNameTooLong };
  }
  if (draft.course.trim().length > PROFILE.maxCourseLength)
    return { field: 'course', message: PROFILE_MSG.courseTooLong };
  if (draft.bio.trim().length > PROFILE.maxBioLength)
    return { field: 'bio', message: PROFILE_MSG.bioTooLong };
  if (draft.interests.length > PROFILE.maxInterests)
    return { field: 'interests', message: PROFILE_MSG.interestsTooMany };
  return null;
}

/**
 * The body of `PUT /api/users/profile` (section 7): the edited profile without the fields above and without
 * null fields. An emptied course, bio or year is sent as '' so that it clears (a null would be left out and
 * so kept). The college goes only when a new one was chosen: an omitted field is kept, and sending the
 * stored one back would make the server look it up again for nothing. Interests, skill level and branch go
 * only when changed ('' clears a skill level or branch, [] the interests).
 */
export function profileBody(user: User, draft: ProfileDraft): Record<string, unknown> {
  const year = draft.year.trim();
  const edited: Record<string, unknown> = {
    ...user,
    course: draft.course.trim(),
    year: year === '' ? '' : Number(year),
    bio: draft.bio.trim(),
  };
  delete edited.college;
  if (draft.college) edited.college = collegeBody(draft.college);
  delete edited.interests;
  delete edited.skillLevel;
  delete edited.branch;
  const interests = user.interests ?? [];
  const sameInterests =
    interests.length === draft.interests.length && draft.interests.every((i) => interests.includes(i));
  if (!sameInterests) edited.interests = draft.interests;
  if (draft.skillLevel !== (user.skillLevel ?? '')) edited.skillLevel = draft.skillLevel;
  if (draft.branch !== (user.branch ?? '')) edited.branch = draft.branch;
  return Object.fromEntries(
    Object.entries(edited).filter(
      ([key, value]) => value !== null && value !== undefined && !NOT_SENT.has(key),
    ),
  );
}
