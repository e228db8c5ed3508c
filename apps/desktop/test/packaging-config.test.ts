import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEEP_LINK_SCHEME } from '@campus/protocol';
import { APP_USER_MODEL_ID } from '../src/main/app-identity';

const read = (relative: string) => readFile(new URL(relative, import.meta.url), 'utf8');

/** The first `key: value` at the start of a line; enough for the flat keys checked here. */
function yamlValue(text: string, key: string): string | undefined {
  return new RegExp(`^\\s*${key}:\\s*(\\S+)\\s*$`, 'm').exec(text)?.[1];
}

describe('packaging configuration', () => {
  it('packages the Electron version that is installed (electron-builder cannot find it by itself)', async () => {
    const builder = await read('../../../electron-builder.yml');
    // Reads the package's metadata only; the electron module itself is never loaded in tests.
    const installed = JSON.parse(await read('../node_modules/electron/package.json')) as { version: string };
    expect(yamlValue(builder, 'electronVersion')).toBe(installed.version);
  });

  it('claims the installed app id on Windows, so notifications are attributed to the app', async () => {
    const builder = await read('../../../electron-builder.yml');
    expect(yamlValue(builder, 'appId')).toBe(APP_USER_MODEL_ID);
  });

  it('registers the deep-link scheme the main process parses', async () => {
    const builder = await read('../../../electron-builder.yml');
    expect(builder).toMatch(new RegExp(`schemes:\\s*\\n\\s*- ${DEEP_LINK_SCHEME}\\s*$`, 'm'));
  });

  it('lets the hardened macOS build reach the camera and microphone', async () => {
    const builder = await read('../../../electron-builder.yml');
    expect(yamlValue(builder, 'entitlements')).toBe('apps/desktop/build/entitlements.mac.plist');
    const entitlements = await read('../build/entitlements.mac.plist');
    for (const key of ['com.apple.security.device.camera', 'com.apple.security.device.audio-input']) {
      expect(entitlements).toMatch(new RegExp(`<key>${key.replaceAll('.', '\\.')}</key>\\s*<true/>`));
    }
    expect(builder).toMatch(/NSCameraUsageDescription: \S/);
    expect(builder).toMatch(/NSMicrophoneUsageDescription: \S/);
  });
});
