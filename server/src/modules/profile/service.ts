import {
  DEFAULT_COLLEGE_COUNTRY,
  PROFILE_MSG,
  SERVER_MSG,
  type CollegeObject,
  type ProfileCollege,
  type ProfileUpdate,
} from '@campus/protocol';
import type { Tx } from '../../realtime/transaction';
import { HttpError } from '../../lib/http-error';
import { addManualCollege, findCollegeById } from '../colleges';
import type { UserRow } from '../users';
import {
  setBio,
  setBranch,
  setCollege,
  setCourse,
  setInterests,
  setSkillLevel,
  setYear,
  userById,
} from './repo';

/**
 * The college to store for what the profile sent:
 * - a plain string, or an object whose id is its name (or has no id): typed in by hand, stored through the
 *   catalog as a manual college (country IN unless another of the picker's countries is given);
 * - any other object: a picker option, which must be a college of the catalog by its id. It is stored as
 *   sent, except that id, name, country, city and state come from the catalog, so a name cannot be forged
 *   onto a real college's id.
 */
/** The college typed in by hand, if that is what was sent (see resolveCollege). */
export function manualCollegeOf(sent: string | ProfileCollege): { name: string } | null {
  if (typeof sent === 'string') return { name: sent };
  return !sent.id || sent.id.replace(/\s+/g, ' ').trim() === sent.name ? sent : null;
}

async function resolveCollege(tx: Tx, sent: string | ProfileCollege): Promise<CollegeObject | null> {
  const manual = manualCollegeOf(sent);
  if (manual) {
    if (!manual.name) return null;
    const country = (typeof sent === 'string' ? undefined : sent.country) || DEFAULT_COLLEGE_COUNTRY;
    const college = await addManualCollege(tx, { name: manual.name, country });
    return { id: college.id, name: college.name, country: college.country };
  }
  const picked = sent as ProfileCollege & { id: string };
  const row = await findCollegeById(tx, picked.id);
  if (!row) throw new HttpError(400, PROFILE_MSG.collegeUnknown);
  return {
    id: row.id,
    name: row.name,
    country: row.country,
    ...(row.city ? { city: row.city } : {}),
    ...(row.stateName ? { stateName: row.stateName } : {}),
    ...(picked.aliases ? { aliases: picked.aliases } : {}),
    ...(picked.acronyms ? { acronyms: picked.acronyms } : {}),
    ...(picked.types ? { types: picked.types } : {}),
  };
}

/** Applies the fields that were sent (omitted ones stay) and answers the saved row. */
export async function updateProfile(tx: Tx, userId: string, update: ProfileUpdate): Promise<UserRow> {
  if (update.course !== undefined) await tx.run(setCourse, update.course, userId);
  if (update.bio !== undefined) await tx.run(setBio, update.bio, userId);
  if (update.year !== undefined) await tx.run(setYear, update.year, userId);
  if (update.college !== undefined) {
    const college = update.college === null ? null : await resolveCollege(tx, update.college);
    await tx.run(setCollege, college === null ? null : JSON.stringify(college), userId);
  }
  // Focused talk's fields (issue 13): already options of their lists (the schema checked them).
  if (update.interests !== undefined) await tx.run(setInterests, JSON.stringify(update.interests), userId);
  if (update.skillLevel !== undefined) await tx.run(setSkillLevel, update.skillLevel, userId);
  if (update.branch !== undefined) await tx.run(setBranch, update.branch, userId);
  const row = await tx.first(userById, userId);
  if (!row) throw new HttpError(401, SERVER_MSG.unauthorized);
  return row;
}
