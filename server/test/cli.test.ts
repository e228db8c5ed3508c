import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvFor, startTestServer } from './support/test-server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-cli-'));
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = path.join(serverDir, 'node_modules/.bin/tsx');
/** DATA_DIR, and under TEST_DATABASE=postgres the DATABASE_URL of the schema servers on it use. */
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  env = { ...process.env, ...(await cliEnvFor(dataDir)), NODE_ENV: 'test' };
});
const run = (script: string, ...args: string[]) =>
  execFileSync(tsx, [script, ...args], {
    cwd: serverDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
    encoding: 'utf8',
  });

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('command-line tools', () => {
  it('seeds the demo accounts once, printing their passwords, and they can log in', async () => {
    const first = run('src/cli/seed.ts');
    expect(first).toContain('admin@campustalk.test');
    expect(first).toContain('admin-demo-123');
    expect(run('src/cli/seed.ts')).toContain('already exist');

    const server = await startTestServer({ config: { dataDir } });
    try {
      const admin = await server.post('/api/auth/login', {
        email: 'admin@campustalk.test',
        password: 'admin-demo-123',
      });
      expect(admin.status).toBe(200);
      expect((admin.body.user as { role: string }).role).toBe('admin');
      const student = await server.post('/api/auth/login', {
        email: 'alex@campustalk.test',
        password: 'student-demo-123',
      });
      expect((student.body.user as { role: string }).role).toBe('user');
      // The pending demo student's document waits in the admin's queue, viewable and decidable.
      const token = admin.body.token as string;
      const queue = await server.get('/api/upload/admin/documents', token);
      const items = queue.body.users as {
        user: { email: string; id: string };
        document: { id: string } | null;
      }[];
      const priya = items.find((item) => item.user.email === 'priya@campustalk.test');
      expect(priya?.document?.id).toBeTruthy();
      const url = await server.get(`/api/upload/admin/document-url?userId=${priya!.user.id}`, token);
      const file = await fetch(server.url + (url.body.url as string));
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/jpeg');
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('admin:grant promotes an existing account and refuses an unknown one', async () => {
    expect(run('src/cli/admin-grant.ts', 'Alex@CampusTalk.test')).toContain('is now an admin');
    expect(run('src/cli/admin-grant.ts', 'alex@campustalk.test')).toContain('already an admin');
    expect(() => run('src/cli/admin-grant.ts', 'nobody@uni.edu')).toThrow();
  }, 60_000);
});
