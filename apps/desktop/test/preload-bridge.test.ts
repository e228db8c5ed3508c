import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { APP_VERSION_ARG, IPC, SERVER_URL_ARG } from '@campus/protocol';
import type { IpcRenderer } from 'electron';
import { createDesktopBridge } from '../src/preload/bridge';

vi.mock('electron', () => ({}));

function fakeIpc() {
  const emitter = new EventEmitter();
  const invoke = vi.fn(async (_channel: string, ..._args: unknown[]): Promise<unknown> => true);
  const ipc = {
    invoke,
    on: (channel: string, listener: (...args: unknown[]) => void) => emitter.on(channel, listener),
    removeListener: (channel: string, listener: (...args: unknown[]) => void) =>
      emitter.removeListener(channel, listener),
  };
  return { ipc: ipc as unknown as Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>, invoke, emitter };
}

const argv = [
  '/opt/Campus Talk/campus-talk',
  `${SERVER_URL_ARG}https://talk.campus.example`,
  `${APP_VERSION_ARG}2.0.1`,
];

describe('preload bridge', () => {
  it('reads the server URL and version the main process passed on argv', () => {
    const bridge = createDesktopBridge(fakeIpc().ipc, argv);
    expect(bridge.serverUrl).toBe('https://talk.campus.example');
    expect(bridge.appVersion).toBe('2.0.1');
  });

  it('exposes exactly the DesktopBridge members and no IPC object', () => {
    const bridge = createDesktopBridge(fakeIpc().ipc, argv);
    expect(Object.keys(bridge).sort()).toEqual(
      [
        'appVersion',
        'notify',
        'onNavigate',
        'openExternal',
        'requestMediaAccess',
        'saveFile',
        'serverUrl',
        'setServerUrl',
      ].sort(),
    );
  });

  it('invokes one fixed channel per call', async () => {
    const { ipc, invoke } = fakeIpc();
    const bridge = createDesktopBridge(ipc, argv);
    await bridge.setServerUrl('http://10.0.0.2:8787');
    await bridge.notify({ title: 'T', body: 'B', route: '/talk' });
    await bridge.openExternal('https://example.com');
    await expect(bridge.saveFile({ name: 'a.txt', data: new Uint8Array([1]) })).resolves.toBe(true);
    await expect(bridge.requestMediaAccess('microphone')).resolves.toBe(true);
    expect(invoke.mock.calls.map(([channel]) => channel)).toEqual([
      IPC.setServerUrl,
      IPC.notify,
      IPC.openExternal,
      IPC.saveFile,
      IPC.mediaAccess,
    ]);
  });

  it('delivers navigate routes without the IPC event, ignores non-routes, and unsubscribes', () => {
    const { ipc, emitter } = fakeIpc();
    const bridge = createDesktopBridge(ipc, argv);
    const listener = vi.fn();
    const unsubscribe = bridge.onNavigate(listener);

    emitter.emit(IPC.navigate, { sender: 'event' }, '/confessions?confessionId=c1');
    emitter.emit(IPC.navigate, { sender: 'event' }, 'https://evil.example/');
    expect(listener.mock.calls).toEqual([['/confessions?confessionId=c1']]);

    unsubscribe();
    emitter.emit(IPC.navigate, { sender: 'event' }, '/talk');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(emitter.listenerCount(IPC.navigate)).toBe(0);
  });
});
