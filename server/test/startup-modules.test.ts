import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from './support/server-process';

const recorder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support/record-loads.mjs');

/**
 * What only some deployments use is imported where it is chosen (server/build.mjs): a node on the
 * defaults (SQLite, local storage, no Redis, no SMTP) never loads the S3 SDK, nodemailer, ioredis or pg,
 * nor sharp and tesseract.js before the first picture or document. Together they were ~10 MB of the idle
 * heap (36 → 26 MB) and ~30 MB of RSS, and a larger heap makes every major GC longer.
 */
describe('a node on the defaults', () => {
  it('starts and answers without loading the optional backends', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-startup-modules-'));
    const loads = path.join(dir, 'loads');
    fs.mkdirSync(loads);
    const server = await startServerProcess({
      DATA_DIR: path.join(dir, 'data'),
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${recorder}`.trim(),
      RECORD_LOADS_DIR: loads,
      DATABASE_URL: '',
      REDIS_URL: '',
      STORAGE: 'local',
    });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
    const packages = new Set(
      fs
        .readdirSync(loads)
        .flatMap((name) => fs.readFileSync(path.join(loads, name), 'utf8').split('\n'))
        .map((url) => /\/node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
        .filter((name): name is string => name !== undefined),
    );
    // The recorder saw the server's own dependencies load.
    expect(packages).toContain('better-sqlite3');
    expect(packages).toContain('hono');
    const optional = [
      '@aws-sdk/client-s3',
      '@aws-sdk/s3-request-presigner',
      'nodemailer',
      'ioredis',
      'pg',
      'sharp',
      'tesseract.js',
    ];
    expect([...packages].filter((name) => optional.includes(name))).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
