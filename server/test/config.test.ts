import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { findRepoRoot, resolveDataDir } from '../src/data-dir';

describe('configuration', () => {
  it('raises the auth rate limits only for test runs, never in production', () => {
    expect(loadConfig({ NODE_ENV: 'test', AUTH_RATE_MULTIPLIER: '20' }).authRateMultiplier).toBe(20);
    expect(loadConfig({ NODE_ENV: 'production', AUTH_RATE_MULTIPLIER: '20' }).authRateMultiplier).toBe(1);
    expect(loadConfig({ AUTH_RATE_MULTIPLIER: '20' }).authRateMultiplier).toBe(1);
    expect(loadConfig({ NODE_ENV: 'test', AUTH_RATE_MULTIPLIER: 'lots' }).authRateMultiplier).toBe(1);
  });
});

describe('DATA_DIR', () => {
  const serverDir = fileURLToPath(new URL('..', import.meta.url));
  const repoRoot = path.resolve(serverDir, '..');

  it('is ./data at the repository root by default, wherever the process runs from', () => {
    const cwd = process.cwd();
    // pnpm --filter @campus/server start runs here: the old behaviour put the data in server/data.
    process.chdir(serverDir);
    try {
      expect(findRepoRoot()).toBe(repoRoot);
      expect(loadConfig({}).dataDir).toBe(path.join(repoRoot, 'data'));
      expect(loadConfig({ DATA_DIR: 'var/db' }).dataDir).toBe(path.join(repoRoot, 'var', 'db'));
      expect(loadConfig({ DATA_DIR: '/srv/campus' }).dataDir).toBe('/srv/campus');
    } finally {
      process.chdir(cwd);
    }
  });

  it('finds the root from the built layout (server/dist, server/dist/cli) and falls back to the cwd', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-root-'));
    try {
      fs.writeFileSync(path.join(root, 'pnpm-workspace.yaml'), 'packages: []\n');
      const cli = path.join(root, 'server', 'dist', 'cli');
      fs.mkdirSync(cli, { recursive: true });
      expect(findRepoRoot(cli)).toBe(root);
      expect(findRepoRoot(path.dirname(cli))).toBe(root);
      expect(resolveDataDir('./data', findRepoRoot(cli))).toBe(path.join(root, 'data'));
      expect(findRepoRoot(os.tmpdir())).toBe(process.cwd());
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('puts the seed, run from server/ as pnpm does, in the same database the server opens', () => {
    const relative = `test-results/data-dir-${process.pid}-${Date.now()}`;
    const expected = loadConfig({ DATA_DIR: relative }).dataDir;
    try {
      execFileSync(path.join(serverDir, 'node_modules/.bin/tsx'), ['src/cli/seed.ts'], {
        cwd: serverDir,
        stdio: 'ignore',
        env: { ...process.env, DATA_DIR: relative, NODE_ENV: 'test' },
      });
      expect(fs.existsSync(path.join(expected, 'campus-talk.sqlite'))).toBe(true);
      expect(fs.existsSync(path.join(serverDir, relative))).toBe(false);
    } finally {
      fs.rmSync(expected, { recursive: true, force: true });
    }
  });
});
