import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CALL, RANDOM } from '@campus/protocol';
import { loadConfig } from '../src/config';
import { findRepoRoot, resolveDataDir } from '../src/data-dir';

describe('configuration', () => {
  it('raises the auth rate limits only for test runs, never in production', () => {
    expect(loadConfig({ NODE_ENV: 'test', AUTH_RATE_MULTIPLIER: '20' }).authRateMultiplier).toBe(20);
    expect(loadConfig({ NODE_ENV: 'production', AUTH_RATE_MULTIPLIER: '20' }).authRateMultiplier).toBe(1);
    expect(loadConfig({ AUTH_RATE_MULTIPLIER: '20' }).authRateMultiplier).toBe(1);
    expect(loadConfig({ NODE_ENV: 'test', AUTH_RATE_MULTIPLIER: 'lots' }).authRateMultiplier).toBe(1);
    expect(loadConfig({ NODE_ENV: 'test', REALTIME_RATE_MULTIPLIER: '1000' }).realtimeRateMultiplier).toBe(
      1000,
    );
    expect(
      loadConfig({ NODE_ENV: 'production', REALTIME_RATE_MULTIPLIER: '1000' }).realtimeRateMultiplier,
    ).toBe(1);
    expect(loadConfig({ REALTIME_RATE_MULTIPLIER: '1000' }).realtimeRateMultiplier).toBe(1);
  });
});

describe('calls', () => {
  it('reads TURN_URLS and TURN_SECRET, and refuses to start on a bad URL or a TURN server without a secret', () => {
    expect(loadConfig({})).toMatchObject({ turnUrls: [], turnSecret: undefined });
    const urls =
      'stun:turn.uni.example:3478, turn:turn.uni.example:3478?transport=tcp,turns:[2001:db8::1]:5349';
    expect(loadConfig({ TURN_URLS: urls, TURN_SECRET: 's' })).toMatchObject({
      turnUrls: [
        'stun:turn.uni.example:3478',
        'turn:turn.uni.example:3478?transport=tcp',
        'turns:[2001:db8::1]:5349',
      ],
      turnSecret: 's',
    });
    // STUN needs no credentials.
    expect(loadConfig({ TURN_URLS: 'stun:stun.uni.example' }).turnUrls).toEqual(['stun:stun.uni.example']);
    expect(() => loadConfig({ TURN_URLS: 'turn:turn.uni.example' })).toThrow(/TURN_SECRET/);
    for (const bad of [
      'http://turn.uni.example',
      'turn:',
      'turn:a b',
      'stun:host:99999',
      'turn:host?transport=sctp',
    ])
      expect(() => loadConfig({ TURN_URLS: bad, TURN_SECRET: 's' }), bad).toThrow(/TURN_URLS/);
  });

  it('takes the ring timeout and the reconnect grace from the environment, with the protocol defaults', () => {
    expect(loadConfig({})).toMatchObject({
      callRingTimeoutMs: CALL.ringTimeoutMs,
      callReconnectGraceMs: CALL.reconnectGraceMs,
    });
    expect(loadConfig({ CALL_RING_TIMEOUT_MS: '300', CALL_RECONNECT_GRACE_MS: '200' })).toMatchObject({
      callRingTimeoutMs: 300,
      callReconnectGraceMs: 200,
    });
    expect(() => loadConfig({ CALL_RING_TIMEOUT_MS: 'soon' })).toThrow(/CALL_RING_TIMEOUT_MS/);
    expect(() => loadConfig({ CALL_RECONNECT_GRACE_MS: '0' })).toThrow(/CALL_RECONNECT_GRACE_MS/);
  });

  it('takes the random room limit and reconnect grace from the environment, with the protocol defaults', () => {
    expect(loadConfig({})).toMatchObject({
      randomRoomLimitMs: RANDOM.roomLimitSeconds * 1000,
      randomReconnectGraceMs: RANDOM.reconnectGraceMs,
    });
    expect(loadConfig({ RANDOM_ROOM_LIMIT_MS: '900', RANDOM_RECONNECT_GRACE_MS: '200' })).toMatchObject({
      randomRoomLimitMs: 900,
      randomReconnectGraceMs: 200,
    });
    expect(() => loadConfig({ RANDOM_ROOM_LIMIT_MS: 'soon' })).toThrow(/RANDOM_ROOM_LIMIT_MS/);
    expect(() => loadConfig({ RANDOM_RECONNECT_GRACE_MS: '0' })).toThrow(/RANDOM_RECONNECT_GRACE_MS/);
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
