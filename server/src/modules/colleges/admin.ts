import {
  COLLEGE_ADMIN_MSG,
  collegeIdSchema,
  indiaStateName,
  type ApproveCollegeFields,
  type CollegeObject,
  type ManualCollegeItem,
  type ManualCollegesQuery,
  type ManualCollegesResponse,
  type MergeCollegeResponse,
} from '@campus/protocol';
import type { AppDeps } from '../../deps';
import { selfUser } from '../../lib/auth/access';
import { dialectOf } from '../../lib/db/portable-sql';
import { HttpError } from '../../lib/http-error';
import { audience } from '../../realtime/audiences';
import type { Tx } from '../../realtime/transaction';
import {
  deleteManual,
  manualCount,
  manualPage,
  markListed,
  replaceProfilesCollege,
  studentCountsOf,
  studentIdsOf,
  usersWithIds,
  type ManualCursor,
} from './admin-repo';
import { collegeKey, type CollegeRecord } from './records';
import { bumpVersion, byKey, selectCollegeById, type College } from './repo';

/**
 * Students told of their new college per commit. The profiles are rewritten in one statement; the
 * `me_updated` changes (one row read and one change-log entry each) go out in commits of this many, so a
 * college named by thousands never holds the write lock for one long transaction. The first batch shares
 * the rewrite's commit, so the usual small merge is one atomic step.
 */
export const ME_UPDATED_BATCH = 200;

function encodeCursor(c: College): string {
  return `${c.createdAt}|${c.id}`;
}

function decodeCursor(raw: string): ManualCursor | null {
  const at = raw.lastIndexOf('|');
  const createdAt = raw.slice(0, at);
  const id = raw.slice(at + 1);
  return at > 0 && collegeIdSchema.safeParse(id).success ? { createdAt, id } : null;
}

function toItem(c: College, students: number): ManualCollegeItem {
  return {
    id: c.id,
    name: c.name,
    country: c.country,
    stateCode: c.stateCode,
    stateName: c.stateName,
    city: c.city,
    createdAt: c.createdAt,
    students,
  };
}

/** The college object a profile stores, the shape the profile service writes for a picked college. */
function profileCollege(c: College): CollegeObject {
  return {
    id: c.id,
    name: c.name,
    country: c.country,
    ...(c.city ? { city: c.city } : {}),
    ...(c.stateName ? { stateName: c.stateName } : {}),
  };
}

/** `me_updated` with each student as shown to themselves, to their own devices only. */
async function emitMe(tx: Tx, deps: AppDeps, ids: readonly string[]): Promise<void> {
  for (const row of await usersWithIds(tx, ids))
    tx.emit({ type: 'me_updated', user: selfUser(row, deps.config.verificationPolicy) }, [
      audience.user(row.id),
    ]);
}

/** The students after the first batch, a commit per batch (each reads the row as it is by then). */
async function emitMeInBatches(deps: AppDeps, ids: readonly string[]): Promise<void> {
  try {
    for (let i = ME_UPDATED_BATCH; i < ids.length; i += ME_UPDATED_BATCH) {
      const batch = ids.slice(i, i + ME_UPDATED_BATCH);
      await deps.transactor.commit((tx) => emitMe(tx, deps, batch));
    }
  } catch (err) {
    // The profiles are already saved; a device that missed the change reads its profile on its next `me`.
    deps.log.error({ err, students: ids.length }, 'colleges: telling students of their new college failed');
  }
}

/** `GET /api/admin/colleges/manual`: a page of manual colleges, oldest first, with their students. */
export async function listManualColleges(
  deps: AppDeps,
  query: ManualCollegesQuery,
): Promise<ManualCollegesResponse> {
  const cursor = query.after === undefined ? null : decodeCursor(query.after);
  if (query.after !== undefined && !cursor) throw new HttpError(400, COLLEGE_ADMIN_MSG.loadFailed);
  return deps.transactor.read(async (tx) => {
    // One more than asked tells whether another page follows.
    const found = await manualPage(tx, cursor, query.limit + 1);
    const page = found.slice(0, query.limit);
    const counts = await studentCountsOf(
      tx,
      page.map((c) => c.id),
      dialectOf(deps.db),
    );
    const last = page.at(-1);
    return {
      colleges: page.map((c) => toItem(c, counts.get(c.id) ?? 0)),
      next: found.length > query.limit && last ? encodeCursor(last) : null,
      total: await manualCount(tx),
    };
  });
}

async function manualOrThrow(tx: Tx, id: string): Promise<College> {
  const college = await selectCollegeById(tx, id);
  if (!college) throw new HttpError(404, COLLEGE_ADMIN_MSG.notFound);
  if (college.status !== 'manual') throw new HttpError(409, COLLEGE_ADMIN_MSG.notManual);
  return college;
}

/**
 * `POST /api/admin/colleges/{id}/approve`: the manual college becomes listed, keeping its source
 * ('manual'), with India's state and a city if given. Its key takes the state, so a later import of the
 * same college in that state updates it instead of adding a twin. The catalog version is bumped: the
 * served lists (`/colleges/*.json`) are rebuilt with new ETags. Students who named it get its place.
 */
export async function approveCollege(
  deps: AppDeps,
  id: string,
  body: ApproveCollegeFields,
): Promise<ManualCollegeItem> {
  const { item, ids } = await deps.transactor.commit(async (tx) => {
    const college = await manualOrThrow(tx, id);
    if (body.stateCode && college.country !== 'IN')
      throw new HttpError(400, COLLEGE_ADMIN_MSG.stateOnlyForIndia);
    const stateCode = body.stateCode ?? null;
    const stateName = stateCode ? (indiaStateName(stateCode) ?? null) : null;
    const city = body.city ?? null;
    const key = collegeKey({
      name: college.name,
      country: college.country as CollegeRecord['country'],
      stateCode,
      stateName,
    });
    const twin = await tx.first(byKey, key);
    if (twin && twin.id !== id) throw new HttpError(409, COLLEGE_ADMIN_MSG.duplicate);
    if (!(await markListed(tx, id, { key, stateCode, stateName, city })))
      throw new HttpError(409, COLLEGE_ADMIN_MSG.notManual);
    await tx.run(bumpVersion);
    const approved: College = { ...college, stateCode, stateName, city, status: 'listed' };
    const dialect = dialectOf(deps.db);
    const students = await studentIdsOf(tx, id, dialect);
    // Without a place the stored object ({id, name, country}) is already what a pick would store.
    if (students.length > 0 && (stateName || city)) {
      await replaceProfilesCollege(tx, id, JSON.stringify(profileCollege(approved)), dialect);
      await emitMe(tx, deps, students.slice(0, ME_UPDATED_BATCH));
      return { item: toItem(approved, students.length), ids: students };
    }
    return { item: toItem(approved, students.length), ids: [] };
  });
  await emitMeInBatches(deps, ids);
  return item;
}

/**
 * `POST /api/admin/colleges/{id}/merge {into}`: every profile naming the manual college names the listed
 * one instead (the object a pick of it stores), and the manual college is deleted, in one commit; each of
 * those students' devices gets `me_updated`.
 */
export async function mergeCollege(deps: AppDeps, id: string, into: string): Promise<MergeCollegeResponse> {
  const { target, ids } = await deps.transactor.commit(async (tx) => {
    await manualOrThrow(tx, id);
    const target = await selectCollegeById(tx, into);
    if (!target) throw new HttpError(404, COLLEGE_ADMIN_MSG.targetNotFound);
    if (target.status !== 'listed') throw new HttpError(409, COLLEGE_ADMIN_MSG.targetNotListed);
    const dialect = dialectOf(deps.db);
    const students = await studentIdsOf(tx, id, dialect);
    if (students.length > 0)
      await replaceProfilesCollege(tx, id, JSON.stringify(profileCollege(target)), dialect);
    await deleteManual(tx, id);
    await emitMe(tx, deps, students.slice(0, ME_UPDATED_BATCH));
    return { target, ids: students };
  });
  await emitMeInBatches(deps, ids);
  return { into: { id: target.id, name: target.name, country: target.country }, students: ids.length };
}
