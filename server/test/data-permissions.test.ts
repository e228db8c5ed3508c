import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../src/lib/db/database';
import { startTestServer } from './support/test-server';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-perms-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** From now on no mode under `dir` can be changed, as on a read-only mount (the node's keys, say). */
function readOnly(dir: string) {
  const chmod = fs.chmodSync.bind(fs);
  vi.spyOn(fs, 'chmodSync').mockImplementation((target, mode) => {
    if (String(target).startsWith(dir))
      throw Object.assign(new Error(`EROFS: read-only file system, chmod '${String(target)}'`), {
        code: 'EROFS',
      });
    chmod(target, mode);
  });
}
afterEach(() => vi.restoreAllMocks());

describe('DATA_DIR permissions', () => {
  it('creates the data folder, uploads/ and keys/ 0700, and the database, its WAL and SHM 0600', async () => {
    const dataDir = path.join(tmp, 'fresh', 'data');
    const server = await startTestServer({ config: { dataDir } });
    try {
      // A write, so the WAL surely holds something.
      await server.post('/api/auth/signup', {
        firstName: 'A',
        lastName: 'B',
        email: 'a@uni.edu',
        password: 'secret12',
      });
      const db = path.join(dataDir, 'campus-talk.sqlite');
      expect(modeOf(dataDir).toString(8)).toBe('700');
      expect(modeOf(path.join(dataDir, 'uploads')).toString(8)).toBe('700');
      expect(modeOf(path.join(dataDir, 'keys')).toString(8)).toBe('700');
      for (const file of [db, `${db}-wal`, `${db}-shm`]) expect(modeOf(file).toString(8), file).toBe('600');
    } finally {
      await server.close();
    }
  });

  it('tightens a data folder an earlier version left 0755 with 0644 files, on start', async () => {
    const dataDir = path.join(tmp, 'earlier', 'data');
    const first = await startTestServer({ config: { dataDir } });
    await first.stop(); // stop only: close() would delete the folder
    const folders = [dataDir, path.join(dataDir, 'uploads'), path.join(dataDir, 'keys')];
    const keys = ['otp.key', 'files.key', 'vapid.json'].map((name) => path.join(dataDir, 'keys', name));
    const files = [...keys, path.join(dataDir, 'campus-talk.sqlite')];
    for (const folder of folders) fs.chmodSync(folder, 0o755);
    for (const file of files) {
      expect(fs.existsSync(file), file).toBe(true);
      fs.chmodSync(file, 0o644);
    }

    const again = await startTestServer({ config: { dataDir } });
    try {
      for (const folder of folders) expect(modeOf(folder).toString(8), folder).toBe('700');
      for (const file of files) expect(modeOf(file).toString(8), file).toBe('600');
    } finally {
      await again.close();
    }
  });

  it('tightens a database file an earlier version left world-readable', async () => {
    const dir = path.join(tmp, 'old');
    fs.mkdirSync(dir, { mode: 0o700 });
    const file = path.join(dir, 'campus-talk.sqlite');
    const first = openDatabase(file);
    await first.close();
    fs.chmodSync(file, 0o644);
    const again = openDatabase(file);
    try {
      expect(modeOf(file).toString(8)).toBe('600');
      expect(modeOf(`${file}-wal`).toString(8)).toBe('600');
    } finally {
      await again.close();
    }
  });

  it('starts with keys on a read-only mount that are private already, and refuses ones others could read', async () => {
    const dataDir = path.join(tmp, 'mounted', 'data');
    const first = await startTestServer({ config: { dataDir } });
    await first.stop();
    const keys = path.join(dataDir, 'keys');
    // keys/ as another node gets it: a read-only volume (its folder's own mode does not matter).
    fs.chmodSync(keys, 0o755);
    readOnly(keys);
    const again = await startTestServer({ config: { dataDir } });
    await again.stop();

    vi.restoreAllMocks();
    fs.chmodSync(path.join(keys, 'otp.key'), 0o644);
    readOnly(keys);
    await expect(startTestServer({ config: { dataDir } })).rejects.toMatchObject({
      name: 'StartupRefused',
      message: expect.stringContaining(
        `${path.join(keys, 'otp.key')} can be read by other users (mode 0644)`,
      ),
    });
    vi.restoreAllMocks();
    fs.rmSync(path.join(tmp, 'mounted'), { recursive: true, force: true });
  });
});
