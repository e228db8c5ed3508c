/** The colleges module's public surface: the picker's lists, the catalog's writes and lookups. */
import type { ReadTx, Tx, Transactor } from '../../realtime/transaction';
import { COLLEGE_MSG, isCollegeCountry } from '@campus/protocol';
import { HttpError } from '../../lib/http-error';
import { collegeCatalog } from './catalog';
import { mergeRecords, type CollegeRecord } from './records';
import {
  insertManualCollege,
  selectCollegeById,
  selectCollegeForDomain,
  selectCollegesForDomains,
  selectManualColleges,
  writeRecords,
  type College,
  type WriteSummary,
} from './repo';

export { collegeRoutes } from './routes';
export { collegeAdminRoutes } from './admin-routes';
export { collegeCatalog, type CollegeFile, type DefaultLoad } from './catalog';
export { swotSource, readSwotTree, installedSwot, type CollegeSource } from './swot-source';
export { parseCollegeFile } from './import-formats';
export type { College, CollegeRecord, WriteSummary };

/**
 * A college typed in by a student (the profile's "Add manually"): stored with status and source 'manual',
 * out of the picker's lists until an admin approves or merges it. The name is trimmed and must not be
 * empty (400). The same name again is the same college; a listed one of that name is returned instead.
 */
export async function addManualCollege(tx: Tx, input: { name: string; country: string }): Promise<College> {
  if (!input.name.trim()) throw new HttpError(400, COLLEGE_MSG.manualNameRequired);
  if (!isCollegeCountry(input.country.trim().toUpperCase()))
    throw new HttpError(400, COLLEGE_MSG.unknownList);
  return insertManualCollege(tx, input);
}

/** A college of the catalog by id, listed or manual (a profile sends back the object it was given). */
export function findCollegeById(tx: ReadTx, id: string): Promise<College | undefined> {
  return selectCollegeById(tx, id);
}

/** The manually added colleges, oldest first, for the admins' view. */
export function listManualColleges(transactor: Transactor): Promise<College[]> {
  return transactor.read((tx) => selectManualColleges(tx));
}

/**
 * The college of an e-mail address's domain or its nearest parent domain (`x@cs.iitb.ac.in` → iitb.ac.in),
 * for the sign-up suggestion and the academic-e-mail flag. Loads the default data set first if needed.
 */
export async function collegeForEmailDomain(
  transactor: Transactor,
  email: string,
): Promise<College | undefined> {
  const at = email.lastIndexOf('@');
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  if (at < 0 || !domain.includes('.')) return undefined;
  await collegeCatalog(transactor).ensureDefault();
  return transactor.read((tx) => selectCollegeForDomain(tx, domain));
}

/**
 * The colleges of many e-mail domains at once (the admin review's academic-e-mail flags), in a few
 * statements rather than one lookup per domain.
 */
export async function collegesForDomains(
  transactor: Transactor,
  domains: Iterable<string>,
): Promise<Map<string, College | undefined>> {
  const list = [...domains];
  if (!list.length) return new Map();
  await collegeCatalog(transactor).ensureDefault();
  return transactor.read((tx) => selectCollegesForDomains(tx, list));
}

/** Imports records as listed colleges of `source` ('import:<file name>') in one transaction, idempotently. */
export function importColleges(
  transactor: Transactor,
  records: readonly CollegeRecord[],
  source: string,
): Promise<WriteSummary> {
  const merged = mergeRecords(records);
  return transactor.commit((tx) => writeRecords(tx, merged, source));
}
