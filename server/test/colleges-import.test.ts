import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCollegeFile } from '../src/modules/colleges';
import { rowsOf } from './support/sql';
import { cliEnvFor, startTestServer } from './support/test-server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-colleges-import-'));
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = path.join(serverDir, 'node_modules/.bin/tsx');
/** DATA_DIR, and under TEST_DATABASE=postgres the DATABASE_URL of the schema servers on it use. */
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  env = { ...process.env, ...(await cliEnvFor(dataDir)), NODE_ENV: 'test' };
});
const importFile = (file: string) =>
  execFileSync(tsx, ['src/cli/colleges-import.ts', file], {
    cwd: serverDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
    encoding: 'utf8',
  });
/** What the imports stored, read by a server started on the same data (sorted here, not by collation). */
const rows = async () => {
  const server = await startTestServer({ config: { dataDir } });
  try {
    const colleges = await rowsOf<{ name: string }>(
      server,
      'SELECT name, country, state_code, state_name, city, source, status FROM colleges',
    );
    const domains = await rowsOf<{ domain: string }>(server, 'SELECT domain FROM college_domains');
    return {
      colleges: colleges.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      domains: domains.map((d) => d.domain).sort(),
    };
  } finally {
    await server.close();
  }
};

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const universityDomains = [
  {
    name: 'Indian Institute of Technology Delhi',
    country: 'India',
    alpha_two_code: 'IN',
    'state-province': 'Delhi',
    domains: ['iitd.ac.in'],
    web_pages: ['https://home.iitd.ac.in/'],
  },
  {
    name: 'Savitribai Phule Pune University',
    country: 'India',
    alpha_two_code: 'IN',
    'state-province': null,
    domains: ['unipune.ac.in'],
    web_pages: ['http://www.unipune.ac.in/'],
  },
  {
    name: 'Universitas Gadjah Mada',
    country: 'Indonesia',
    alpha_two_code: 'ID',
    'state-province': null,
    domains: ['ugm.ac.id', 'mail.ugm.ac.id'],
    web_pages: ['https://ugm.ac.id/'],
  },
  {
    name: 'Peking University',
    country: 'China',
    alpha_two_code: 'CN',
    'state-province': null,
    domains: ['pku.edu.cn'],
    web_pages: [],
  },
];

describe('colleges:import', () => {
  it('loads the university-domains JSON format idempotently and says what it did', async () => {
    const file = path.join(dataDir, 'world_universities_and_domains.json');
    fs.writeFileSync(file, JSON.stringify(universityDomains));
    const first = importFile(file);
    expect(first).toContain('import:world_universities_and_domains.json: 3 added, 0 updated, 0 unchanged');
    expect(first).toContain('4 domains added');
    expect(first).toContain('skipped 1: country not offered by the picker');
    const after = await rows();
    expect(after.colleges).toEqual([
      {
        name: 'Indian Institute of Technology Delhi',
        country: 'IN',
        state_code: 'DL',
        state_name: 'Delhi',
        city: null,
        source: 'import:world_universities_and_domains.json',
        status: 'listed',
      },
      // No state given: inferred from the name (Pune), as for the default data set.
      expect.objectContaining({ name: 'Savitribai Phule Pune University', state_code: 'MH', city: 'Pune' }),
      expect.objectContaining({ name: 'Universitas Gadjah Mada', country: 'ID', state_code: null }),
    ]);
    expect(importFile(file)).toContain('0 added, 0 updated, 3 unchanged; 0 domains added');
    expect(await rows()).toEqual(after);
  }, 60_000);

  it("loads a CSV (domains split by ';' or '|', quoted fields), idempotently; same name, country and state is the same college", async () => {
    const file = path.join(dataDir, 'colleges.csv');
    fs.writeFileSync(
      file,
      [
        'name,country,state,city,domains',
        '"Indian Institute of Technology Delhi",IN,DL,New Delhi,iitd.ac.in;cse.iitd.ac.in',
        '"College of Engineering, Guindy",India,Tamil Nadu,Chennai,annauniv.edu|ceg.annauniv.edu',
        'University of Toronto,CA,Ontario,Toronto,utoronto.ca',
        ',US,,,nameless.edu',
        '',
      ].join('\r\n'),
    );
    const first = importFile(file);
    // IIT Delhi is the JSON import's college: its city and new domain are filled in, not a second row.
    expect(first).toContain('import:colleges.csv: 2 added, 1 updated, 0 unchanged; 4 domains added');
    expect(first).toContain('skipped 1: no name');
    const after = await rows();
    expect(after.colleges).toContainEqual(
      expect.objectContaining({
        name: 'Indian Institute of Technology Delhi',
        city: 'New Delhi',
        source: 'import:world_universities_and_domains.json',
      }),
    );
    expect(after.colleges).toContainEqual(
      expect.objectContaining({
        name: 'College of Engineering, Guindy',
        state_code: 'TN',
        state_name: 'Tamil Nadu',
        city: 'Chennai',
        source: 'import:colleges.csv',
      }),
    );
    expect(after.colleges).toContainEqual(
      expect.objectContaining({ name: 'University of Toronto', country: 'CA', state_name: 'Ontario' }),
    );
    expect(after.domains).toEqual(
      expect.arrayContaining(['annauniv.edu', 'ceg.annauniv.edu', 'cse.iitd.ac.in', 'utoronto.ca']),
    );
    expect(importFile(file)).toContain('0 added, 0 updated, 3 unchanged; 0 domains added');
    expect(await rows()).toEqual(after);
  }, 60_000);

  it('refuses a file it cannot read', () => {
    expect(() => importFile(path.join(dataDir, 'missing.json'))).toThrow();
    expect(() => parseCollegeFile('a,b\n1,2')).toThrow(/header/);
    expect(() => parseCollegeFile('{"name": 1}')).toThrow();
  });
});
