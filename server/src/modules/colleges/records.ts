import { createHash } from 'node:crypto';
import { indiaStateName, type CollegeCountryCode } from '@campus/protocol';

/** A college as a data source gives it, before it is stored. */
export interface CollegeRecord {
  name: string;
  country: CollegeCountryCode;
  /** India: an ISO 3166-2:IN code without `IN-`; NULL when unknown (and for other countries). */
  stateCode: string | null;
  /** The state or province as the source names it (filled from the code for India). */
  stateName: string | null;
  city: string | null;
  domains: string[];
  aliases?: string[];
}

export const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Same country, state and name (case and spacing aside): the same college. */
export function collegeKey(r: Pick<CollegeRecord, 'name' | 'country' | 'stateCode' | 'stateName'>): string {
  const state = r.stateCode ?? r.stateName ?? '';
  return `${r.country}|${collapse(state).toLowerCase()}|${collapse(r.name).toLowerCase()}`;
}

/** Derived from the key, so a college keeps its id across databases and reloads. */
export function collegeId(key: string): string {
  return 'col_' + createHash('sha256').update(key).digest('base64url').slice(0, 20);
}

const DOMAIN = /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export function normalizeDomain(raw: string): string | null {
  const d = raw
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[/:].*$/, '')
    .replace(/\.$/, '');
  return DOMAIN.test(d) ? d : null;
}

/** Trims, fills India's state name from its code, normalizes and dedupes the domains. */
export function cleanRecord(r: CollegeRecord): CollegeRecord | null {
  const name = collapse(r.name);
  if (!name) return null;
  const stateName = r.stateCode
    ? (indiaStateName(r.stateCode) ?? null)
    : r.stateName
      ? collapse(r.stateName)
      : null;
  const domains = [...new Set(r.domains.map(normalizeDomain).filter((d): d is string => d !== null))];
  const aliases = [...new Set((r.aliases ?? []).map(collapse))].filter(
    (a) => a && a.toLowerCase() !== name.toLowerCase(),
  );
  return {
    name,
    country: r.country,
    stateCode: r.stateCode,
    stateName: stateName || null,
    city: r.city ? collapse(r.city) || null : null,
    domains,
    ...(aliases.length ? { aliases } : {}),
  };
}

/** Records of one source merged by key: domains and aliases united, the first city kept. */
export function mergeRecords(records: Iterable<CollegeRecord>): CollegeRecord[] {
  const byKey = new Map<string, CollegeRecord>();
  for (const raw of records) {
    const r = cleanRecord(raw);
    if (!r) continue;
    const key = collegeKey(r);
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, r);
      continue;
    }
    seen.domains = [...new Set([...seen.domains, ...r.domains])];
    const aliases = [...new Set([...(seen.aliases ?? []), ...(r.aliases ?? [])])];
    if (aliases.length) seen.aliases = aliases;
    seen.city ??= r.city;
  }
  return [...byKey.values()];
}
