import { afterEach, describe, expect, it, vi } from 'vitest';
import { DESKTOP_BRIDGE_KEY, type DesktopBridge } from '@campus/protocol';
import { createBrowserPlatform } from '../src/platform/browser';
import { detectPlatform } from '../src/platform';

afterEach(() => vi.unstubAllGlobals());

function fakeBridge(): DesktopBridge {
  return {
    serverUrl: 'http://campus.example:8787/',
    appVersion: '1.2.3',
    setServerUrl: vi.fn(async () => undefined),
    notify: vi.fn(async () => undefined),
    onNavigate: vi.fn(() => () => undefined),
    openExternal: vi.fn(async () => undefined),
    saveFile: vi.fn(async () => true),
    requestMediaAccess: vi.fn(async () => true),
  };
}

describe('the platform', () => {
  it('is the browser one on the web: same-origin API, no server setting', () => {
    const platform = detectPlatform();
    expect(platform.serverUrl).toBe('');
    expect(platform.setServerUrl).toBeUndefined();
  });

  it('is the desktop bridge when the preload exposed it', async () => {
    const bridge = fakeBridge();
    vi.stubGlobal(DESKTOP_BRIDGE_KEY, bridge);
    const platform = detectPlatform();
    expect(platform.serverUrl).toBe('http://campus.example:8787');
    expect(platform.appVersion).toBe('1.2.3');
    await platform.saveFile('notes.txt', new Blob(['hi']));
    expect(bridge.saveFile).toHaveBeenCalledWith({ name: 'notes.txt', data: new Uint8Array([104, 105]) });
    await platform.requestMediaPermission('camera');
    expect(bridge.requestMediaAccess).toHaveBeenCalledWith('camera');
  });

  it('opens external links in a new, detached tab and refuses other schemes', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const platform = createBrowserPlatform('test');
    await platform.openExternal('https://example.org/page');
    expect(open).toHaveBeenCalledWith('https://example.org/page', '_blank', 'noopener,noreferrer');
    await expect(platform.openExternal('javascript:alert(1)')).rejects.toThrow();
    open.mockRestore();
  });

  it('reports no media permission where the browser has no camera API', async () => {
    expect(await createBrowserPlatform('test').requestMediaPermission('microphone')).toBe(false);
  });
});
