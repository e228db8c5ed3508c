import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollegeCountryCode } from '@campus/protocol';
import { migrateToLatest, openDatabase } from '../src/lib/db/database';
import { rowBatches } from '../src/lib/db/portable-sql';
import { markListed } from '../src/modules/colleges/admin-repo';
import { collegeId, collegeKey, mergeRecords, type CollegeRecord } from '../src/modules/colleges/records';
import {
  bumpVersion,
  insertManualCollege,
  writeRecords,
  type CollegeRow,
  type WriteSummary,
} from '../src/modules/colleges/repo';
import { inProcessChangeBus } from '../src/realtime/bus';
import { PgTransactor } from '../src/realtime/pg-transactor';
import { SqliteTransactor } from '../src/realtime/sqlite-transactor';
import { sql, type Transactor, type Tx } from '../src/realtime/transaction';
import { createTestSchema, type TestSchema } from './support/postgres';

/**
 * writeRecords (the default data set's load, the admin import, colleges:import) writes a batch in a few
 * statements; it must leave exactly what the one-record-at-a-time version it replaced left, counts
 * included. That version is kept below as the reference: every scenario runs on a database written by each,
 * on SQLite and on PostgreSQL (without PostgreSQL the suite fails, never skips: support/postgres.ts), and
 * the summaries and the tables must be the same everywhere. The data crosses the batch sizes (512 keys a
 * read, 512 colleges and 2,048 domains an insert) and has repeated keys, shared domains, manual colleges
 * and one approved with a new key (its id no longer derived from its key).
 */

const NOW = Date.parse('2026-03-01T10:00:00.000Z');

// ---- the reference: writeRecords as it was, one statement (a round trip on PostgreSQL) at a time ----

const COLUMNS = 'id, name, country, state_code, state_name, city, aliases, source, status, created_at';
const byKey = sql<CollegeRow>(`SELECT ${COLUMNS} FROM colleges WHERE key = ?`);
const insertCollege = sql(
  `INSERT INTO colleges (id, key, name, country, state_code, state_name, city, aliases, source, status, created_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const updateCollege = sql(
  'UPDATE colleges SET city = ?, state_name = ?, aliases = ?, status = ?, source = ? WHERE id = ?',
);
const domainOwner = sql<{ college_id: string }>('SELECT college_id FROM college_domains WHERE domain = ?');
const insertDomain = sql('INSERT INTO college_domains (domain, college_id) VALUES (?, ?)');

async function referenceWrite(
  tx: Tx,
  records: readonly CollegeRecord[],
  source: string,
): Promise<WriteSummary> {
  const summary: WriteSummary = { added: 0, updated: 0, unchanged: 0, domainsAdded: 0, domainConflicts: 0 };
  const createdAt = new Date(tx.now).toISOString();
  for (const r of records) {
    const key = collegeKey(r);
    const row = await tx.first(byKey, key);
    let id: string;
    let changed = false;
    if (!row) {
      id = collegeId(key);
      await tx.run(
        insertCollege,
        id,
        key,
        r.name,
        r.country,
        r.stateCode,
        r.stateName,
        r.city,
        r.aliases?.length ? JSON.stringify(r.aliases) : null,
        source,
        'listed',
        createdAt,
      );
      summary.added++;
    } else {
      id = row.id;
      const aliases = [
        ...new Set([...(row.aliases ? (JSON.parse(row.aliases) as string[]) : []), ...(r.aliases ?? [])]),
      ];
      const next = {
        city: row.city ?? r.city,
        stateName: row.state_name ?? r.stateName,
        aliases: aliases.length ? JSON.stringify(aliases) : null,
        status: 'listed' as const,
        source: row.status === 'manual' ? source : row.source,
      };
      if (
        next.city !== row.city ||
        next.stateName !== row.state_name ||
        next.aliases !== row.aliases ||
        next.status !== row.status
      ) {
        await tx.run(updateCollege, next.city, next.stateName, next.aliases, next.status, next.source, id);
        changed = true;
      }
    }
    for (const domain of r.domains) {
      const owner = await tx.first(domainOwner, domain);
      if (!owner) {
        await tx.run(insertDomain, domain, id);
        summary.domainsAdded++;
        if (row) changed = true;
      } else if (owner.college_id !== id) {
        summary.domainConflicts++;
      }
    }
    if (row) {
      if (changed) summary.updated++;
      else summary.unchanged++;
    }
  }
  if (summary.added || summary.updated) await tx.run(bumpVersion);
  return summary;
}

// ---- data: deterministic, with every case the merge rules have ----

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COUNTRIES: CollegeCountryCode[] = ['US', 'IN', 'GB', 'CA'];
const INDIA_STATES = ['MH', 'DL', 'KA', null];

/**
 * `count` records over `names` distinct colleges (so keys repeat, in other case and spacing), their domains
 * drawn from `domainPool` names (so colleges share some: a conflict for the later one), cities and aliases
 * present or not.
 */
function dataSet(seed: number, count: number, names: number, domainPool: number): CollegeRecord[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, () => {
    const n = Math.floor(next() * names);
    const country = COUNTRIES[n % COUNTRIES.length]!;
    const stateCode = country === 'IN' ? INDIA_STATES[n % INDIA_STATES.length]! : null;
    const name = `College  ${n}`.replace('College', next() < 0.2 ? 'COLLEGE' : 'College');
    const domains = Array.from(
      { length: Math.floor(next() * 4) },
      () => `d${Math.floor(next() * domainPool)}.edu`,
    );
    const aliases = next() < 0.4 ? [pick(['Alpha', 'Beta', 'Gamma', 'Delta'])] : undefined;
    return {
      name,
      country,
      stateCode,
      stateName: stateCode ? `State ${stateCode}` : country === 'CA' && next() < 0.5 ? 'Ontario' : null,
      city: next() < 0.3 ? pick(['Pune', 'Delhi', 'Leeds', 'Boston']) : null,
      domains,
      ...(aliases ? { aliases } : {}),
    };
  });
}

// ---- the databases: one written by the reference and one by writeRecords, on each engine ----

type Write = (tx: Tx, records: readonly CollegeRecord[], source: string) => Promise<WriteSummary>;
interface Store {
  name: string;
  transactor: Transactor;
  write: Write;
}

const bus = () =>
  inProcessChangeBus((err) => {
    throw err;
  });
const stores: Store[] = [];
const closers: (() => Promise<void>)[] = [];
const schemas: TestSchema[] = [];

/** writeRecords, counting its statements. */
let statements = 0;
const counted: Write = (tx, records, source) => {
  const countingTx: Tx = {
    ...tx,
    now: tx.now,
    all: (query, ...params) => (statements++, tx.all(query, ...params)),
    first: (query, ...params) => (statements++, tx.first(query, ...params)),
    run: (query, ...params) => (statements++, tx.run(query, ...params)),
  };
  return writeRecords(countingTx, records, source);
};

beforeAll(async () => {
  for (const [name, write] of [
    ['reference', referenceWrite],
    ['writeRecords', counted],
  ] as const) {
    const lite = openDatabase(':memory:');
    await migrateToLatest(lite.db);
    closers.push(() => lite.close());
    stores.push({
      name: `${name} on SQLite`,
      transactor: new SqliteTransactor(lite.sqlite, { now: () => NOW, bus: bus() }),
      write,
    });
    const schema = await createTestSchema();
    schemas.push(schema);
    const pg = schema.open();
    await migrateToLatest(pg.db);
    stores.push({
      name: `${name} on PostgreSQL`,
      transactor: await PgTransactor.open(pg.pool, { now: () => NOW, bus: bus() }),
      write,
    });
  }
}, 60_000);

afterAll(async () => {
  for (const close of closers) await close();
  for (const schema of schemas) await schema.drop();
});

/** Everything the catalog holds, sorted here (the two databases' collations may differ). */
async function dump(transactor: Transactor) {
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return transactor.read(async (tx) => ({
    colleges: (await tx.all(sql<CollegeRow & { key: string }>(`SELECT key, ${COLUMNS} FROM colleges`))).sort(
      (a, b) => byText(a.key, b.key),
    ),
    domains: (
      await tx.all(
        sql<{ domain: string; college_id: string }>('SELECT domain, college_id FROM college_domains'),
      )
    ).sort((a, b) => byText(a.domain, b.domain)),
    version: (await tx.first(sql<{ version: number }>('SELECT version FROM college_catalog_version')))
      ?.version,
  }));
}

/**
 * Runs `records` through each store's write and expects the same summary and the same tables from all;
 * answers the summary.
 */
async function writeEverywhere(records: readonly CollegeRecord[], source: string): Promise<WriteSummary> {
  const results = [];
  for (const store of stores) {
    const summary = await store.transactor.commit((tx) => store.write(tx, records, source));
    results.push({ name: store.name, summary, tables: await dump(store.transactor) });
  }
  const [first, ...others] = results;
  for (const other of others) {
    expect(other.summary, `${other.name}: summary`).toEqual(first!.summary);
    expect(other.tables, `${other.name}: tables`).toEqual(first!.tables);
  }
  return first!.summary;
}

describe('writeRecords in batches', () => {
  it('writes a data set, the same data set again, and an import over it as one record at a time did', async () => {
    // Before: manual colleges students typed in (some the data set lists, one an admin approved with a
    // state, so its key no longer gives its id), and an import that took some domains.
    for (const store of stores) {
      await store.transactor.commit(async (tx) => {
        for (const n of [0, 1, 2, 3, 6, 8, 13, 2001]) {
          const country = COUNTRIES[n % COUNTRIES.length]!;
          await insertManualCollege(tx, { name: `College ${n}`, country });
        }
        const approved = await insertManualCollege(tx, { name: 'College 9', country: 'IN' });
        await markListed(tx, approved.id, {
          key: collegeKey({ name: 'College 9', country: 'IN', stateCode: 'DL', stateName: null }),
          stateCode: 'DL',
          stateName: 'State DL',
          city: null,
        });
      });
    }
    const early = await writeEverywhere(mergeRecords(dataSet(7, 60, 40, 200)), 'import:early.csv');
    expect(early.added).toBeGreaterThan(0);

    // The default data set: merged by key as the catalog does, over more than a batch of everything.
    const records = mergeRecords(dataSet(1, 3000, 1400, 5000));
    expect(records.length).toBeGreaterThan(1024);
    expect(records.flatMap((r) => r.domains).length).toBeGreaterThan(2048);
    statements = 0;
    const load = await writeEverywhere(records, 'swot-fixture@1');
    // A statement per batch, not per record (on each of the two engines).
    expect(statements).toBeLessThan(2 * 40);
    expect(load.added).toBeGreaterThan(1000);
    expect(load.updated).toBeGreaterThan(0);
    expect(load.domainConflicts).toBeGreaterThan(0);

    // The cases were there: a manual college listed by the load, the approved one updated by its new key.
    const { colleges } = await dump(stores[1]!.transactor);
    const ofKey = (key: string) => colleges.find((c) => c.key === key);
    expect(ofKey('US||college 0')).toMatchObject({ status: 'listed', source: 'import:early.csv' });
    expect(ofKey('IN|dl|college 9')).toMatchObject({
      id: collegeId('IN||college 9'),
      status: 'listed',
      source: 'manual',
      aliases: expect.any(String),
    });

    // Again: nothing changes, and the catalog version stays.
    const again = await writeEverywhere(records, 'swot-fixture@1');
    expect(again).toEqual({
      added: 0,
      updated: 0,
      unchanged: records.length,
      domainsAdded: 0,
      domainConflicts: again.domainConflicts,
    });

    // An import over existing rows (cities, aliases and domains to add, manual ones to list), not merged
    // first: a key repeated in one batch updates the row the batch itself added.
    const imported = await writeEverywhere(dataSet(2, 2500, 2200, 6000), 'import:more.csv');
    expect(imported.updated).toBeGreaterThan(0);
    expect(imported.unchanged).toBeGreaterThan(0);
    expect(imported.added).toBeGreaterThan(0);

    // Nothing at all, and a batch of one.
    expect(await writeEverywhere([], 'import:empty.csv')).toEqual({
      added: 0,
      updated: 0,
      unchanged: 0,
      domainsAdded: 0,
      domainConflicts: 0,
    });
    await writeEverywhere(dataSet(3, 1, 1, 1), 'import:one.csv');
  }, 180_000);
});

describe('rowBatches', () => {
  it('splits rows into full statements and power-of-two pieces, in order, within the parameter limit', () => {
    const batches = rowBatches(2, 8, (rows) => `VALUES ${rows}`);
    const rows = Array.from({ length: 21 }, (_, i) => [`k${i}`, i]);
    const statements = batches(rows);
    expect(statements.map((s) => s.params.length / 2)).toEqual([8, 8, 4, 1]);
    expect(statements.flatMap((s) => s.params)).toEqual(rows.flat());
    expect(statements[2]!.text).toBe('VALUES (?, ?), (?, ?), (?, ?), (?, ?)');
    // One text per size, built once.
    expect(batches(rows.slice(0, 8))[0]!.text).toBe(statements[0]!.text);
    expect(batches([])).toEqual([]);
    expect(() => batches([['only one value']])).toThrow(RangeError);
    expect(() => rowBatches(2, 12, String)).toThrow(RangeError);
    expect(() => rowBatches(11, 4096, String)).toThrow(RangeError);
  });
});
