import { describe, expect, it, vi } from 'vitest';
import { IPC } from '@campus/protocol';
import type { IpcMain } from 'electron';
import { registerIpcHandlers, type IpcServices } from '../src/main/ipc-handlers';

vi.mock('electron', () => ({}));

type Handler = (event: { senderFrame: { url: string } | null }, payload: unknown) => Promise<unknown>;

function setup() {
  const handlers = new Map<string, Handler>();
  const ipcMain = { handle: (channel: string, handler: Handler) => handlers.set(channel, handler) };
  const services = {
    setServerUrl: vi.fn(async (_url: string) => undefined),
    notify: vi.fn(async () => undefined),
    openExternal: vi.fn(async (_url: string) => undefined),
    saveFile: vi.fn(async () => true),
    requestMediaAccess: vi.fn(async () => true),
  } satisfies IpcServices;
  registerIpcHandlers(ipcMain as unknown as Pick<IpcMain, 'handle'>, services);
  const fromApp = { senderFrame: { url: 'app://campus-talk/profile' } };
  const call = (channel: string, payload: unknown, event: Parameters<Handler>[0] = fromApp) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(event, payload);
  };
  return { handlers, services, call };
}

describe('IPC handlers', () => {
  it('handles every renderer → main channel of the protocol, and nothing for navigate (main → renderer)', () => {
    const { handlers } = setup();
    const expected = Object.entries(IPC)
      .filter(([key]) => key !== 'navigate')
      .map(([, channel]) => channel)
      .sort();
    expect([...handlers.keys()].sort()).toEqual(expected);
    expect(handlers.has(IPC.navigate)).toBe(false);
  });

  it('passes validated payloads on to the services', async () => {
    const { services, call } = setup();
    await call(IPC.setServerUrl, ' https://talk.campus.example/ ');
    expect(services.setServerUrl).toHaveBeenCalledWith('https://talk.campus.example');

    await call(IPC.notify, { title: 'New message', body: 'Hi', route: '/chat/u_1' });
    expect(services.notify).toHaveBeenCalledWith({ title: 'New message', body: 'Hi', route: '/chat/u_1' });

    await expect(call(IPC.saveFile, { name: 'notes.txt', data: new Uint8Array([1, 2]) })).resolves.toBe(true);
    await expect(call(IPC.mediaAccess, 'camera')).resolves.toBe(true);
    await call(IPC.openExternal, 'https://campus.example/help');
    expect(services.openExternal).toHaveBeenCalledWith('https://campus.example/help');
  });

  it.each([
    [IPC.setServerUrl, 'ftp://files.campus.example'],
    [IPC.setServerUrl, { url: 'http://x' }],
    [IPC.notify, { title: '', body: 'x' }],
    [IPC.notify, { title: 'Hi', body: 'x', route: 'https://evil.example/' }],
    [IPC.notify, { title: 'Hi', body: 'x', route: '//evil.example/' }],
    [IPC.openExternal, 'file:///etc/passwd'],
    [IPC.openExternal, 'javascript:alert(1)'],
    [IPC.saveFile, { name: 'a.txt', data: 'not bytes' }],
    [IPC.saveFile, { name: '', data: new Uint8Array() }],
    [IPC.mediaAccess, 'screen'],
    [IPC.mediaAccess, undefined],
  ])('rejects a bad payload on %s: %j', async (channel, payload) => {
    const { services, call } = setup();
    await expect(call(channel, payload)).rejects.toThrow();
    for (const service of Object.values(services)) expect(service).not.toHaveBeenCalled();
  });

  it('tells the user why a server URL was refused', async () => {
    const { call } = setup();
    await expect(call(IPC.setServerUrl, 'localhost')).rejects.toThrow(
      'Enter an http:// or https:// address.',
    );
  });

  it.each([
    { senderFrame: { url: 'https://evil.example/' } },
    { senderFrame: { url: 'app://campus-talk.evil/' } },
    { senderFrame: { url: 'file:///index.html' } },
    { senderFrame: null },
  ])('refuses calls from a frame outside the app: %j', async (event) => {
    const { services, call } = setup();
    await expect(call(IPC.mediaAccess, 'camera', event)).rejects.toThrow(/untrusted/);
    await expect(call(IPC.openExternal, 'https://campus.example', event)).rejects.toThrow(/untrusted/);
    expect(services.requestMediaAccess).not.toHaveBeenCalled();
    expect(services.openExternal).not.toHaveBeenCalled();
  });
});
