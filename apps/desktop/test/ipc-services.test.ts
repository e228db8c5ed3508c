import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow } from 'electron';
import { createIpcServices } from '../src/main/ipc-services';
import type { MainWindowController } from '../src/main/main-window';
import { createSettingsStore } from '../src/main/settings-store';

const electron = vi.hoisted(() => ({
  shown: [] as Array<{ emit(event: string): void }>,
  openExternal: vi.fn(async (_url: string) => undefined),
}));

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  class Notification extends EventEmitter {
    static isSupported = () => true;
    show() {
      electron.shown.push(this);
    }
  }
  return {
    Notification,
    shell: { openExternal: electron.openExternal },
    systemPreferences: { askForMediaAccess: vi.fn(async () => true) },
    dialog: { showSaveDialog: vi.fn(async () => ({ canceled: true })) },
  };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'campus-desktop-services-'));
  electron.shown.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function fakeWindows(focused = false) {
  const window = { isFocused: () => focused } as unknown as BrowserWindow;
  return {
    current: vi.fn(() => window),
    open: vi.fn(() => window),
    showRoute: vi.fn(),
    recreate: vi.fn(),
  } satisfies MainWindowController;
}

describe('IPC services', () => {
  it('setServerUrl saves the URL, then replaces the window so the preload gets it', async () => {
    const settings = createSettingsStore(dir);
    const windows = fakeWindows();
    const deferred: Array<() => void> = [];
    const services = createIpcServices({
      settings,
      windows,
      downloadsDir: () => dir,
      defer: (t) => deferred.push(t),
    });

    await services.setServerUrl('https://talk.campus.example');
    expect(createSettingsStore(dir).get().serverUrl).toBe('https://talk.campus.example');
    expect(windows.recreate).not.toHaveBeenCalled();
    deferred.forEach((task) => task());
    expect(windows.recreate).toHaveBeenCalledTimes(1);
  });

  it("learns the new server's file origins before its window is created", async () => {
    const windows = fakeWindows();
    const order: string[] = [];
    const refreshWithin = vi.fn(async (serverUrl: string) => {
      order.push(`origins ${serverUrl}`);
      return [];
    });
    windows.recreate.mockImplementation(() => order.push('recreate'));
    const services = createIpcServices({
      settings: createSettingsStore(dir),
      windows,
      fileOrigins: { refreshWithin },
      downloadsDir: () => dir,
      defer: (task) => task(),
    });
    await services.setServerUrl(' https://talk.campus.example/ ');
    expect(order).toEqual(['origins https://talk.campus.example', 'recreate']);
  });

  it('keeps the window when the URL is refused', async () => {
    const windows = fakeWindows();
    const services = createIpcServices({
      settings: createSettingsStore(dir),
      windows,
      downloadsDir: () => dir,
      defer: (task) => task(),
    });
    await expect(services.setServerUrl('gopher://old.example')).rejects.toThrow();
    expect(windows.recreate).not.toHaveBeenCalled();
  });

  it('notify: a click on the notification opens its route in the app', async () => {
    const windows = fakeWindows(false);
    const services = createIpcServices({
      settings: createSettingsStore(dir),
      windows,
      downloadsDir: () => dir,
    });
    await services.notify({ title: 'Comment', body: 'New reply', route: '/confessions?confessionId=c9' });
    electron.shown[0]?.emit('click');
    expect(windows.showRoute).toHaveBeenCalledWith('/confessions?confessionId=c9');

    await services.notify({ title: 'Hello', body: '' });
    electron.shown[1]?.emit('click');
    expect(windows.open).toHaveBeenCalled();
  });

  it('openExternal hands only safe URLs to the OS', async () => {
    const services = createIpcServices({
      settings: createSettingsStore(dir),
      windows: fakeWindows(),
      downloadsDir: () => dir,
    });
    await services.openExternal('https://campus.example/rules');
    await services.openExternal('file:///etc/passwd');
    expect(electron.openExternal.mock.calls).toEqual([['https://campus.example/rules']]);
  });
});
