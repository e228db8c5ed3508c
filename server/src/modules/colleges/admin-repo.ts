import { inList, perDialect, type Dialect } from '../../lib/db/portable-sql';
import { sql, type ReadTx, type Tx } from '../../realtime/transaction';
import type { UserRow } from '../users';
import { COLUMNS, toCollege, type College, type CollegeRow } from './repo';

/*
 * The admins' review of manual colleges. Profiles keep their college as JSON text in users.college
 * (`{"id":…,"name":…,…}`, or a JSON string for a plain name), so finding the students of a college reads
 * its `id` over the users table: one scan per query, acceptable for an admin page and an admin's merge
 * (never a per-request path). SQLite skips text that is not valid JSON (none is written today);
 * PostgreSQL 15 has no such test, so there a malformed value fails the query instead.
 */
const profileCollegeId = (dialect: Dialect) =>
  dialect === 'postgres'
    ? `(college::jsonb ->> 'id')`
    : `CASE WHEN json_valid(college) THEN json_extract(college, '$.id') END`;

const firstPage = sql<CollegeRow>(
  `SELECT ${COLUMNS} FROM colleges WHERE status = 'manual' ORDER BY created_at, id LIMIT ?`,
);
const pageAfter = sql<CollegeRow>(
  `SELECT ${COLUMNS} FROM colleges
    WHERE status = 'manual' AND (created_at > ? OR (created_at = ? AND id > ?))
    ORDER BY created_at, id LIMIT ?`,
);
const manualTotal = sql<{ n: number }>(`SELECT COUNT(*) AS n FROM colleges WHERE status = 'manual'`);
const byProfile = perDialect((dialect) => ({
  /** One grouped query for a whole page. Parameters: ...college ids. */
  studentCounts: inList((ids) =>
    sql<{ college_id: string; n: number }>(
      `SELECT college_id, COUNT(*) AS n
         FROM (SELECT ${profileCollegeId(dialect)} AS college_id FROM users WHERE college IS NOT NULL) p
        WHERE college_id IN (${ids})
        GROUP BY college_id`,
    ),
  ),
  studentsOf: sql<{ id: string }>(
    `SELECT id FROM users WHERE college IS NOT NULL AND ${profileCollegeId(dialect)} = ? ORDER BY id`,
  ),
  setStudentsCollege: sql(
    `UPDATE users SET college = ? WHERE college IS NOT NULL AND ${profileCollegeId(dialect)} = ?`,
  ),
}));
const usersByIds = inList((ids) => sql<UserRow>(`SELECT * FROM users WHERE id IN (${ids})`));
const approve = sql(
  `UPDATE colleges SET key = ?, state_code = ?, state_name = ?, city = ?, status = 'listed'
    WHERE id = ? AND status = 'manual'`,
);
const remove = sql(`DELETE FROM colleges WHERE id = ? AND status = 'manual'`);

export interface ManualCursor {
  createdAt: string;
  id: string;
}

/** The manual colleges after `cursor`, oldest first (index colleges_status_created_idx). */
export async function manualPage(tx: ReadTx, cursor: ManualCursor | null, limit: number): Promise<College[]> {
  const rows = cursor
    ? await tx.all(pageAfter, cursor.createdAt, cursor.createdAt, cursor.id, limit)
    : await tx.all(firstPage, limit);
  return rows.map(toCollege);
}

export async function manualCount(tx: ReadTx): Promise<number> {
  return Number((await tx.first(manualTotal))?.n ?? 0);
}

/** How many profiles name each of `ids` (absent ids: none). `dialect`: the database's (`dialectOf(deps.db)`). */
export async function studentCountsOf(
  tx: ReadTx,
  ids: readonly string[],
  dialect: Dialect,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const { text, params } = byProfile[dialect].studentCounts(ids);
  for (const row of await tx.all(text, ...params)) counts.set(row.college_id, Number(row.n));
  return counts;
}

/** The ids of the students whose profile names the college. */
export async function studentIdsOf(tx: ReadTx, collegeId: string, dialect: Dialect): Promise<string[]> {
  return (await tx.all(byProfile[dialect].studentsOf, collegeId)).map((r) => r.id);
}

/** Every profile naming `collegeId` gets `college` (its JSON text) instead; answers how many changed. */
export function replaceProfilesCollege(
  tx: Tx,
  collegeId: string,
  college: string,
  dialect: Dialect,
): Promise<number> {
  return tx.run(byProfile[dialect].setStudentsCollege, college, collegeId);
}

export function usersWithIds(tx: ReadTx, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  const { text, params } = usersByIds(ids);
  return tx.all(text, ...params);
}

/** Makes a manual college listed with its new key and place; false when it was not manual any more. */
export async function markListed(
  tx: Tx,
  id: string,
  place: { key: string; stateCode: string | null; stateName: string | null; city: string | null },
): Promise<boolean> {
  return (await tx.run(approve, place.key, place.stateCode, place.stateName, place.city, id)) === 1;
}

export async function deleteManual(tx: Tx, id: string): Promise<boolean> {
  return (await tx.run(remove, id)) === 1;
}
