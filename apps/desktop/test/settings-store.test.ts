import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_FILE, createSettingsStore } from '../src/main/settings-store';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'campus-desktop-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('settings store', () => {
  it('starts with the local server when nothing is saved', () => {
    expect(createSettingsStore(dir).get()).toEqual({ serverUrl: 'http://localhost:8787' });
    expect(DEFAULT_SETTINGS.serverUrl).toBe('http://localhost:8787');
  });

  it('saves a valid server URL (trimmed, without trailing slash) and reads it back after a restart', async () => {
    const store = createSettingsStore(dir);
    await store.setServerUrl('  https://talk.campus.example/  ');
    expect(store.get().serverUrl).toBe('https://talk.campus.example');

    const restarted = createSettingsStore(dir);
    expect(restarted.get().serverUrl).toBe('https://talk.campus.example');
    const saved = JSON.parse(await readFile(path.join(dir, SETTINGS_FILE), 'utf8')) as unknown;
    expect(saved).toEqual({ serverUrl: 'https://talk.campus.example' });
  });

  it.each([
    'ftp://files.campus.example',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'localhost:8787',
    '',
    42,
    null,
  ])('rejects %s and keeps the previous URL', async (url) => {
    const store = createSettingsStore(dir);
    await store.setServerUrl('http://10.0.0.5:8787');
    await expect(store.setServerUrl(url)).rejects.toThrow();
    expect(store.get().serverUrl).toBe('http://10.0.0.5:8787');
    expect(createSettingsStore(dir).get().serverUrl).toBe('http://10.0.0.5:8787');
  });

  it('falls back to the default when the file is corrupt or holds a bad URL', async () => {
    await writeFile(path.join(dir, SETTINGS_FILE), '{ not json');
    expect(createSettingsStore(dir).get().serverUrl).toBe('http://localhost:8787');
    await writeFile(path.join(dir, SETTINGS_FILE), JSON.stringify({ serverUrl: 'file:///etc' }));
    expect(createSettingsStore(dir).get().serverUrl).toBe('http://localhost:8787');
  });

  it('keeps the last of several quick saves', async () => {
    const store = createSettingsStore(dir);
    await Promise.all([
      store.setServerUrl('http://a.example'),
      store.setServerUrl('http://b.example'),
      store.setServerUrl('http://c.example'),
    ]);
    expect(createSettingsStore(dir).get().serverUrl).toBe('http://c.example');
  });
});
