import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebContents } from 'electron';
import { handleWindowOpen, isSafeExternalUrl } from '../src/main/external-links';
import { hardenWebContents, isAllowedNavigation, isAllowedSubframe } from '../src/main/navigation-guard';

const electron = vi.hoisted(() => ({
  shell: { openExternal: vi.fn(async (_url: string) => undefined) },
}));
vi.mock('electron', () => electron);

beforeEach(() => electron.shell.openExternal.mockClear());

describe('navigation guard', () => {
  it.each([
    'app://campus-talk/',
    'app://campus-talk/confessions?confessionId=abc',
    'app://campus-talk/chat/u_1#bottom',
  ])('allows the app origin: %s', (url) => {
    expect(isAllowedNavigation(url)).toBe(true);
  });

  it.each([
    'app://campus-talk.evil/',
    'app://evil/campus-talk',
    'app://campus-talk:8080/',
    'app://user@campus-talk/',
    'app://evil.com@campus-talk/',
    'apps://campus-talk/',
    'file:///etc/passwd',
    'file://campus-talk/index.html',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://localhost:8787/',
    'https://campus-talk/',
    'about:blank',
    'campustalk://open?action=open_confession&confessionId=1',
    'not a url',
    '',
  ])('blocks everything else: %s', (url) => {
    expect(isAllowedNavigation(url)).toBe(false);
  });
});

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
}

function navigationEvent(url?: string) {
  return { url, preventDefault: vi.fn() };
}

describe('hardened web contents', () => {
  function harden() {
    const contents = new FakeContents();
    hardenWebContents(contents as unknown as WebContents);
    return contents;
  }

  it('cancels a navigation out of the app and lets in-app navigation through', () => {
    const contents = harden();
    const away = navigationEvent();
    contents.emit('will-navigate', away, 'https://evil.example/phish');
    expect(away.preventDefault).toHaveBeenCalled();

    const inside = navigationEvent();
    contents.emit('will-navigate', inside, 'app://campus-talk/talk');
    expect(inside.preventDefault).not.toHaveBeenCalled();
  });

  it("lets a subframe show only the server's documents (the admin's PDF viewer), never the main frame", () => {
    const contents = new FakeContents();
    hardenWebContents(contents as unknown as WebContents, () => 'http://localhost:8787');
    const frame = (url: string, isMainFrame: boolean) => ({ url, isMainFrame, preventDefault: vi.fn() });
    const doc = frame('http://localhost:8787/files/documents/u1/abc?exp=1&sig=2', false);
    contents.emit('will-frame-navigate', doc);
    expect(doc.preventDefault).not.toHaveBeenCalled();
    for (const blocked of [
      frame('http://localhost:8787/files/documents/u1/abc', true),
      frame('http://localhost:8787/api/auth/me', false),
      frame('http://localhost:8788/files/documents/u1/abc', false),
      frame('https://evil.example/files/documents/x', false),
    ]) {
      contents.emit('will-frame-navigate', blocked);
      expect(blocked.preventDefault, blocked.url).toHaveBeenCalled();
    }
  });

  it("lets a subframe show the bucket's presigned documents (STORAGE=s3), read at each navigation", () => {
    const contents = new FakeContents();
    let origins: readonly string[] = [];
    hardenWebContents(
      contents as unknown as WebContents,
      () => 'https://talk.campus.example',
      () => origins,
    );
    const frame = (url: string, isMainFrame = false) => ({ url, isMainFrame, preventDefault: vi.fn() });
    const presigned = 'https://campus-files.s3.amazonaws.com/documents/u1/abc.pdf?X-Amz-Signature=1';

    const before = frame(presigned);
    contents.emit('will-frame-navigate', before);
    expect(before.preventDefault).toHaveBeenCalled();

    origins = ['https://campus-files.s3.amazonaws.com', 'https://x.example; script-src *'];
    const after = frame(presigned);
    contents.emit('will-frame-navigate', after);
    expect(after.preventDefault).not.toHaveBeenCalled();
    for (const blocked of [
      frame(presigned, true),
      frame('http://campus-files.s3.amazonaws.com/documents/u1/abc.pdf'),
      frame('https://other.s3.amazonaws.com/documents/u1/abc.pdf'),
      frame('https://campus-files.s3.amazonaws.com.evil.example/documents/x'),
      frame('https://x.example/documents/x'),
      frame('https://talk.campus.example/api/auth/me'),
    ]) {
      contents.emit('will-frame-navigate', blocked);
      expect(blocked.preventDefault, blocked.url).toHaveBeenCalled();
    }
  });

  it('refuses a file origin that is not a bare origin, and dot-dot paths there', () => {
    const server = 'https://talk.campus.example';
    const bucket = 'https://files.example';
    expect(isAllowedSubframe(`${bucket}/b/documents/u1/a.pdf`, server, [bucket])).toBe(true);
    expect(isAllowedSubframe(`${bucket}/b/documents/u1/a.pdf`, server, [`${bucket}/b`])).toBe(false);
    expect(isAllowedSubframe(`${bucket}/b/documents/u1/a.pdf`, server, [`${bucket}/`])).toBe(false);
    expect(isAllowedSubframe(`${bucket}/b/%2e%2e/..%2fsecret`, server, [bucket])).toBe(false);
    expect(isAllowedSubframe('javascript:alert(1)', server, ['javascript:alert(1)'])).toBe(false);
    expect(isAllowedSubframe('https://files.example/x', '', [])).toBe(false);
  });

  it('guards subframes and redirects too, and refuses <webview>', () => {
    const contents = harden();
    const frame = navigationEvent('file:///etc/passwd');
    contents.emit('will-frame-navigate', frame);
    expect(frame.preventDefault).toHaveBeenCalled();

    const redirect = navigationEvent();
    contents.emit('will-redirect', redirect, 'app://campus-talk.evil/');
    expect(redirect.preventDefault).toHaveBeenCalled();

    const webview = navigationEvent();
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('never opens an Electron window; web and mail links go to the OS', async () => {
    const contents = harden();
    expect(contents.openHandler?.({ url: 'https://example.com/a' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'mailto:help@campus.example' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'app://campus-talk/talk' })).toEqual({ action: 'deny' });
    await vi.waitFor(() => expect(electron.shell.openExternal).toHaveBeenCalledTimes(2));
    expect(electron.shell.openExternal.mock.calls.map(([url]) => url)).toEqual([
      'https://example.com/a',
      'mailto:help@campus.example',
    ]);
  });

  it.each([
    'file:///C:/Windows/System32/calc.exe',
    'javascript:alert(1)',
    'smb://host/share',
    'ms-settings:',
  ])('does not hand %s to the OS', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
    expect(handleWindowOpen({ url })).toEqual({ action: 'deny' });
    expect(electron.shell.openExternal).not.toHaveBeenCalled();
  });
});
