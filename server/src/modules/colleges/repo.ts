import type { CollegeOption } from '@campus/protocol';
import { inList, perDialect, rowBatches, type Dialect, type ListQuery } from '../../lib/db/portable-sql';
import { sql, type ReadTx, type Sql, type Tx } from '../../realtime/transaction';
import { collegeId, collegeKey, type CollegeRecord } from './records';

/** A stored college as the module hands it out. */
export interface College {
  id: string;
  name: string;
  country: string;
  stateCode: string | null;
  stateName: string | null;
  city: string | null;
  aliases: string[];
  source: string;
  status: 'listed' | 'manual';
  createdAt: string;
}

export interface CollegeRow {
  id: string;
  name: string;
  country: string;
  state_code: string | null;
  state_name: string | null;
  city: string | null;
  aliases: string | null;
  source: string;
  status: 'listed' | 'manual';
  created_at: string;
}
export const COLUMNS = 'id, name, country, state_code, state_name, city, aliases, source, status, created_at';

export function toCollege(r: CollegeRow): College {
  return {
    id: r.id,
    name: r.name,
    country: r.country,
    stateCode: r.state_code,
    stateName: r.state_name,
    city: r.city,
    aliases: r.aliases ? (JSON.parse(r.aliases) as string[]) : [],
    source: r.source,
    status: r.status,
    createdAt: r.created_at,
  };
}

export function toOption(r: CollegeRow): CollegeOption {
  return {
    id: r.id,
    name: r.name,
    country: r.country,
    city: r.city ?? '',
    stateName: r.state_name ?? '',
    ...(r.aliases ? { aliases: JSON.parse(r.aliases) as string[] } : {}),
  };
}

export const byKey = sql<CollegeRow>(`SELECT ${COLUMNS} FROM colleges WHERE key = ?`);
const insertCollege = sql(
  `INSERT INTO colleges (id, key, name, country, state_code, state_name, city, aliases, source, status, created_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);

/*
 * writeRecords' statements, each over a whole batch: a data set is thousands of records, and on PostgreSQL
 * every statement is a round trip made while the commit holds the deployment's write lock
 * (pg-transactor.ts), so one statement per record kept every other write waiting for seconds. The lists
 * and row batches have a few texts each (size classes), for SQLite's statement cache and PostgreSQL's named
 * statements.
 */
/** Keys or domains one read takes; the last read's list is padded to its power of two (inList). */
const PER_READ = 512;
type KeyedRow = CollegeRow & { key: string };
/** Parameters: keys. */
const collegesByKeys = inList((keys) =>
  sql<KeyedRow>(`SELECT key, ${COLUMNS} FROM colleges WHERE key IN (${keys})`),
);
/** Parameters: domains. */
const ownersOfDomains = inList((domains) =>
  sql<{ domain: string; college_id: string }>(
    `SELECT domain, college_id FROM college_domains WHERE domain IN (${domains})`,
  ),
);
/** Rows: id, key, name, country, state code, state name, city, aliases, source, status, created at. */
const insertColleges = rowBatches(11, 512, (rows) =>
  sql(
    `INSERT INTO colleges (id, key, name, country, state_code, state_name, city, aliases, source, status, created_at)
     VALUES ${rows}`,
  ),
);
/** Rows: id, then the columns a record may change: city, state name, aliases, status, source. */
const updateColleges = rowBatches(6, 512, (rows) =>
  sql(
    `UPDATE colleges SET city = v.column2, state_name = v.column3, aliases = v.column4, status = v.column5,
       source = v.column6
     FROM (VALUES ${rows}) AS v WHERE colleges.id = v.column1`,
  ),
);
/** Rows: domain, college id. */
const insertDomains = rowBatches(2, 2048, (rows) =>
  sql(`INSERT INTO college_domains (domain, college_id) VALUES ${rows}`),
);

export const bumpVersion = sql('UPDATE college_catalog_version SET version = version + 1 WHERE id = 1');
export const catalogVersion = sql<{ version: number }>(
  'SELECT version FROM college_catalog_version WHERE id = 1',
);
/**
 * Names in any case, as the picker lists them: along colleges_country_idx / colleges_state_idx (migration
 * 0013), which SQLite keys by `name COLLATE NOCASE` and PostgreSQL by `lower(name)`. Both fold ASCII to lower
 * case and then compare bytes, so the two orders agree. SQLite walks its index in name order (only equal
 * names are sorted by id); PostgreSQL's planner may prefer a bitmap scan and a sort on a large country.
 */
const byNameNoCase = (dialect: Dialect) => (dialect === 'postgres' ? 'lower(name)' : 'name COLLATE NOCASE');
export const listedIn = perDialect((dialect) => ({
  /** Parameters: country. */
  country: sql<CollegeRow>(
    `SELECT ${COLUMNS} FROM colleges WHERE status = 'listed' AND country = ?
      ORDER BY ${byNameNoCase(dialect)}, id`,
  ),
  /** Parameters: country, state code. */
  state: sql<CollegeRow>(
    `SELECT ${COLUMNS} FROM colleges WHERE status = 'listed' AND country = ? AND state_code = ?
      ORDER BY ${byNameNoCase(dialect)}, id`,
  ),
}));
const manualColleges = sql<CollegeRow>(
  `SELECT ${COLUMNS} FROM colleges WHERE status = 'manual' ORDER BY created_at, id`,
);
const collegeByDomain = sql<CollegeRow>(
  `SELECT ${COLUMNS.split(', ')
    .map((c) => 'c.' + c)
    .join(', ')} FROM college_domains d JOIN colleges c ON c.id = d.college_id WHERE d.domain = ?`,
);
export const loadOf = sql<{ source: string }>('SELECT source FROM college_loads WHERE source = ?');
export const recordLoad = sql(
  'INSERT INTO college_loads (source, loaded_at, colleges, took_ms) VALUES (?, ?, ?, ?)',
);

export interface WriteSummary {
  added: number;
  updated: number;
  unchanged: number;
  domainsAdded: number;
  /** Domains already kept by another college: left with it. */
  domainConflicts: number;
}

/** Every row of `list`'s statement for `values`, PER_READ values a statement. */
async function readInChunks<Row>(
  tx: ReadTx,
  list: (values: readonly string[]) => ListQuery<Sql<Row>, string>,
  values: readonly string[],
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let i = 0; i < values.length; i += PER_READ) {
    const { text, params } = list(values.slice(i, i + PER_READ));
    rows.push(...(await tx.all(text, ...params)));
  }
  return rows;
}

/**
 * Stores records as listed colleges of `source`, idempotently: a record whose key is known fills in what
 * the row lacks (city, state name, aliases), adds its new domains, and makes a manual college listed; the
 * same records again change nothing. Bumps the catalog version when anything changed.
 *
 * In a few statements whatever the number of records: the rows of the records' keys and the owners of
 * their domains are read first, the records are applied in order to those in memory (so a record sees
 * what the ones before it did, as if each were written at once: a repeated key updates the row the first
 * added, a domain the first took is the second's conflict), then the new rows, the changed ones and the new
 * domains are written in batches. The commit holds the write lock throughout (SQLite's, or PostgreSQL's
 * advisory lock), so nothing else writes between the reads and the writes.
 */
export async function writeRecords(
  tx: Tx,
  records: readonly CollegeRecord[],
  source: string,
): Promise<WriteSummary> {
  const summary: WriteSummary = { added: 0, updated: 0, unchanged: 0, domainsAdded: 0, domainConflicts: 0 };
  const createdAt = new Date(tx.now).toISOString();
  const keys = records.map(collegeKey);
  /** The rows by key as they stand after the records so far. */
  const rows = new Map<string, KeyedRow>();
  for (const row of await readInChunks(tx, collegesByKeys, [...new Set(keys)])) rows.set(row.key, row);
  /** Each domain's college as it stands after the records so far. */
  const owners = new Map<string, string>();
  const domains = [...new Set(records.flatMap((r) => r.domains))];
  for (const row of await readInChunks(tx, ownersOfDomains, domains)) owners.set(row.domain, row.college_id);
  /** Keys of the rows to insert, and of the stored rows to update (their values are in `rows`). */
  const toInsert = new Set<string>();
  const toUpdate = new Set<string>();
  const newDomains: string[][] = [];

  records.forEach((r, i) => {
    const key = keys[i]!;
    const row = rows.get(key);
    let id: string;
    let changed = false;
    if (!row) {
      id = collegeId(key);
      rows.set(key, {
        id,
        key,
        name: r.name,
        country: r.country,
        state_code: r.stateCode,
        state_name: r.stateName,
        city: r.city,
        aliases: r.aliases?.length ? JSON.stringify(r.aliases) : null,
        source,
        status: 'listed',
        created_at: createdAt,
      });
      toInsert.add(key);
      summary.added++;
    } else {
      id = row.id;
      const aliases = [
        ...new Set([...(row.aliases ? (JSON.parse(row.aliases) as string[]) : []), ...(r.aliases ?? [])]),
      ];
      const next = {
        city: row.city ?? r.city,
        state_name: row.state_name ?? r.stateName,
        aliases: aliases.length ? JSON.stringify(aliases) : null,
        status: 'listed' as const,
        source: row.status === 'manual' ? source : row.source,
      };
      if (
        next.city !== row.city ||
        next.state_name !== row.state_name ||
        next.aliases !== row.aliases ||
        next.status !== row.status
      ) {
        rows.set(key, { ...row, ...next });
        // A row this call adds is inserted with its final values instead.
        if (!toInsert.has(key)) toUpdate.add(key);
        changed = true;
      }
    }
    for (const domain of r.domains) {
      const owner = owners.get(domain);
      if (owner === undefined) {
        owners.set(domain, id);
        newDomains.push([domain, id]);
        summary.domainsAdded++;
        if (row) changed = true;
      } else if (owner !== id) {
        summary.domainConflicts++;
      }
    }
    if (row) {
      if (changed) summary.updated++;
      else summary.unchanged++;
    }
  });

  const stored = (key: string) => rows.get(key)!;
  const inserts = [...toInsert]
    .map(stored)
    .map((c) => [
      c.id,
      c.key,
      c.name,
      c.country,
      c.state_code,
      c.state_name,
      c.city,
      c.aliases,
      c.source,
      c.status,
      c.created_at,
    ]);
  // The colleges before their domains (college_domains references them).
  for (const { text, params } of insertColleges(inserts)) await tx.run(text, ...params);
  const updates = [...toUpdate]
    .map(stored)
    .map((c) => [c.id, c.city, c.state_name, c.aliases, c.status, c.source]);
  for (const { text, params } of updateColleges(updates)) await tx.run(text, ...params);
  for (const { text, params } of insertDomains(newDomains)) await tx.run(text, ...params);
  if (summary.added || summary.updated) await tx.run(bumpVersion);
  return summary;
}

/**
 * A college a student typed in (spec 000: the name trimmed, non-empty). Stored as 'manual' for an admin to
 * merge or approve, and kept out of the picker's files until then. The same name again (in any case and
 * spacing) is the same college; a listed college of that name is returned as it is.
 */
export async function insertManualCollege(
  tx: Tx,
  input: { name: string; country: string },
): Promise<College> {
  const name = input.name.replace(/\s+/g, ' ').trim();
  const country = input.country.trim().toUpperCase();
  const key = collegeKey({
    name,
    country: country as CollegeRecord['country'],
    stateCode: null,
    stateName: null,
  });
  const existing = await tx.first(byKey, key);
  if (existing) return toCollege(existing);
  const id = collegeId(key);
  const createdAt = new Date(tx.now).toISOString();
  await tx.run(insertCollege, id, key, name, country, null, null, null, null, 'manual', 'manual', createdAt);
  return toCollege((await tx.first(byKey, key))!);
}

export async function selectManualColleges(tx: ReadTx): Promise<College[]> {
  return (await tx.all(manualColleges)).map(toCollege);
}

/** The college of a domain, or of its nearest parent domain that has one (a.b.ac.in → b.ac.in). */
export async function selectCollegeForDomain(tx: ReadTx, domain: string): Promise<College | undefined> {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const row = await tx.first(collegeByDomain, labels.slice(i).join('.'));
    if (row) return toCollege(row);
  }
  return undefined;
}

/** How many domains one lookup statement takes; a shorter list is padded with NULLs (never equal). */
const DOMAINS_PER_LOOKUP = 64;
const collegesByDomains = sql<CollegeRow & { domain: string }>(
  `SELECT d.domain, ${COLUMNS.split(', ')
    .map((c) => 'c.' + c)
    .join(', ')} FROM college_domains d JOIN colleges c ON c.id = d.college_id
   WHERE d.domain IN (${Array.from({ length: DOMAINS_PER_LOOKUP }, () => '?').join(', ')})`,
);

/**
 * The college of each domain (or of its nearest parent domain that has one), for a whole list in a few
 * statements: every domain and its parents looked up together, DOMAINS_PER_LOOKUP at a time.
 */
export async function selectCollegesForDomains(
  tx: ReadTx,
  domains: Iterable<string>,
): Promise<Map<string, College | undefined>> {
  const suffixesOf = (domain: string) => {
    const labels = domain.split('.');
    return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
  };
  const wanted = [...new Set(domains)];
  const candidates = [...new Set(wanted.flatMap(suffixesOf))];
  const found = new Map<string, College>();
  for (let i = 0; i < candidates.length; i += DOMAINS_PER_LOOKUP) {
    const chunk = candidates.slice(i, i + DOMAINS_PER_LOOKUP);
    const padded = [...chunk, ...Array<null>(DOMAINS_PER_LOOKUP - chunk.length).fill(null)];
    for (const row of await tx.all(collegesByDomains, ...padded)) found.set(row.domain, toCollege(row));
  }
  return new Map(
    wanted.map((domain) => [
      domain,
      suffixesOf(domain)
        .map((s) => found.get(s))
        .find(Boolean),
    ]),
  );
}

export const byId = sql<CollegeRow>(`SELECT ${COLUMNS} FROM colleges WHERE id = ?`);

export async function selectCollegeById(tx: ReadTx, id: string): Promise<College | undefined> {
  const row = await tx.first(byId, id);
  return row && toCollege(row);
}
