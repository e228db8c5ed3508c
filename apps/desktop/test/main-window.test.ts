import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC, SERVER_URL_ARG } from '@campus/protocol';
import { createMainWindowController } from '../src/main/main-window';

const electron = vi.hoisted(() => ({ windows: [] as FakeWindowShape[] }));

interface FakeWindowShape {
  options: { webPreferences?: { additionalArguments?: string[] } };
  loaded: string[];
  sent: Array<[string, unknown]>;
  loading: boolean;
  url: string;
  closed: boolean;
  focused: number;
}

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  class BrowserWindow extends EventEmitter implements FakeWindowShape {
    loaded: string[] = [];
    sent: Array<[string, unknown]> = [];
    loading = true;
    url = '';
    closed = false;
    focused = 0;
    webContents = {
      isLoading: () => this.loading,
      getURL: () => this.url,
      send: (channel: string, payload: unknown) => this.sent.push([channel, payload]),
    };
    constructor(readonly options: FakeWindowShape['options']) {
      super();
      electron.windows.push(this);
    }
    async loadURL(url: string) {
      this.loaded.push(url);
      this.url = url;
    }
    isMinimized = () => false;
    isMaximized = () => false;
    isDestroyed = () => this.closed;
    getNormalBounds = () => ({ x: 10, y: 20, width: 900, height: 700 });
    restore() {}
    show() {}
    focus() {
      this.focused += 1;
    }
    maximize() {}
    close() {
      this.closed = true;
      this.emit('closed');
    }
  }
  return { BrowserWindow, nativeTheme: { shouldUseDarkColors: false } };
});

function controller(serverUrl = { value: 'http://localhost:8787' }) {
  return createMainWindowController({
    preloadPath: '/out/preload/index.cjs',
    appVersion: '1.0.0',
    devTools: false,
    serverUrl: () => serverUrl.value,
  });
}

beforeEach(() => {
  electron.windows.length = 0;
});

describe('main window', () => {
  it('opens one window on the app origin, at the route asked for', () => {
    const windows = controller();
    windows.open('/confessions?confessionId=c1');
    windows.open();
    expect(electron.windows).toHaveLength(1);
    expect(electron.windows[0]?.loaded).toEqual(['app://campus-talk/confessions?confessionId=c1']);
  });

  it('sends a route over IPC once the page is up, and loads it while the page is still loading', () => {
    const windows = controller();
    windows.open();
    const window = electron.windows[0]!;
    windows.showRoute('/friends');
    expect(window.loaded.at(-1)).toBe('app://campus-talk/friends');
    expect(window.sent).toEqual([]);

    window.loading = false;
    windows.showRoute('/confessions?confessionId=c2');
    expect(window.sent).toEqual([[IPC.navigate, '/confessions?confessionId=c2']]);
    expect(window.focused).toBeGreaterThan(0);
  });

  it('recreates the window with the new server URL on argv, at the same route', () => {
    const serverUrl = { value: 'http://localhost:8787' };
    const windows = controller(serverUrl);
    windows.open('/profile');
    serverUrl.value = 'https://talk.campus.example';
    windows.recreate();

    const [old, replacement] = electron.windows;
    expect(old?.closed).toBe(true);
    expect(replacement?.loaded).toEqual(['app://campus-talk/profile']);
    expect(replacement?.options.webPreferences?.additionalArguments).toContain(
      `${SERVER_URL_ARG}https://talk.campus.example`,
    );
    expect(windows.current()).toBe(replacement);
  });
});
