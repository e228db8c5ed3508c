import { describe, expect, it, vi } from 'vitest';
import type { Session } from 'electron';
import { installPermissionHandlers, isPermissionGranted } from '../src/main/permissions';

vi.mock('electron', () => ({}));

type RequestHandler = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl?: string; securityOrigin?: string; isMainFrame: boolean },
) => void;
type CheckHandler = (contents: unknown, permission: string, origin: string, details: unknown) => boolean;

function installOnFakeSession() {
  const handlers: { request?: RequestHandler; check?: CheckHandler; device?: () => boolean } = {};
  const session = {
    setPermissionRequestHandler: (handler: RequestHandler) => (handlers.request = handler),
    setPermissionCheckHandler: (handler: CheckHandler) => (handlers.check = handler),
    setDevicePermissionHandler: (handler: () => boolean) => (handlers.device = handler),
  };
  installPermissionHandlers(session as unknown as Session);
  return handlers;
}

function request(handlers: ReturnType<typeof installOnFakeSession>, permission: string, url: string) {
  let granted: boolean | undefined;
  handlers.request?.({}, permission, (value) => (granted = value), { requestingUrl: url, isMainFrame: true });
  return granted;
}

describe('permissions', () => {
  it('grants camera/microphone and notifications to the app origin only', () => {
    expect(isPermissionGranted('media', 'app://campus-talk')).toBe(true);
    expect(isPermissionGranted('notifications', 'app://campus-talk/talk')).toBe(true);
    expect(isPermissionGranted('media', 'https://evil.example')).toBe(false);
    expect(isPermissionGranted('media', 'app://campus-talk.evil')).toBe(false);
    expect(isPermissionGranted('media', 'file:///')).toBe(false);
    expect(isPermissionGranted('media', '')).toBe(false);
    expect(isPermissionGranted('media', null)).toBe(false);
  });

  it.each([
    'geolocation',
    'clipboard-read',
    'display-capture',
    'openExternal',
    'midiSysex',
    'hid',
    'unknown',
  ])('denies %s even to the app', (permission) => {
    expect(isPermissionGranted(permission, 'app://campus-talk')).toBe(false);
  });

  it('answers permission requests through the session', () => {
    const handlers = installOnFakeSession();
    expect(request(handlers, 'media', 'app://campus-talk/call')).toBe(true);
    expect(request(handlers, 'media', 'https://evil.example/')).toBe(false);
    expect(request(handlers, 'geolocation', 'app://campus-talk/')).toBe(false);
  });

  it('denies a media request whose security origin is foreign even from an app page', () => {
    const handlers = installOnFakeSession();
    let granted: boolean | undefined;
    handlers.request?.({}, 'media', (value) => (granted = value), {
      requestingUrl: 'app://campus-talk/call',
      securityOrigin: 'https://evil.example',
      isMainFrame: false,
    });
    expect(granted).toBe(false);
  });

  it('answers permission checks and refuses device access', () => {
    const handlers = installOnFakeSession();
    expect(handlers.check?.(null, 'media', 'app://campus-talk', {})).toBe(true);
    expect(handlers.check?.(null, 'notifications', 'http://localhost:8787', {})).toBe(false);
    expect(handlers.check?.(null, 'geolocation', 'app://campus-talk', {})).toBe(false);
    expect(handlers.device?.()).toBe(false);
  });
});
