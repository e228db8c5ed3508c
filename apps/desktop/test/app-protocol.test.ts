import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAppFile } from '../src/main/app-files';
import { serveAppRequest } from '../src/main/app-response';
import { buildContentSecurityPolicy } from '../src/main/content-security-policy';

let sandbox: string;
let renderer: string;

beforeAll(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), 'campus-desktop-protocol-'));
  renderer = path.join(sandbox, 'renderer');
  await mkdir(path.join(renderer, 'assets'), { recursive: true });
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>Campus Talk</title>');
  await writeFile(path.join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(path.join(renderer, 'theme-init.js'), '/* theme */');
  await writeFile(path.join(sandbox, 'secret.txt'), 'outside the renderer');
  // A sibling whose name starts like the renderer folder: a prefix check would wrongly let it through.
  await mkdir(path.join(sandbox, 'renderer-private'));
  await writeFile(path.join(sandbox, 'renderer-private', 'key.txt'), 'private');
});
afterAll(async () => {
  await rm(sandbox, { recursive: true, force: true });
});

describe('app:// file resolver', () => {
  it('serves files of the built renderer', async () => {
    expect(await resolveAppFile(renderer, 'app://campus-talk/assets/index-abc.js')).toEqual({
      kind: 'file',
      path: path.join(renderer, 'assets', 'index-abc.js'),
    });
    expect(await resolveAppFile(renderer, 'app://campus-talk/theme-init.js?v=1')).toEqual({
      kind: 'file',
      path: path.join(renderer, 'theme-init.js'),
    });
  });

  it.each([
    'app://campus-talk/',
    'app://campus-talk/confessions?confessionId=c1',
    'app://campus-talk/chat/u_1',
  ])('falls back to index.html for the in-app route %s', async (url) => {
    expect(await resolveAppFile(renderer, url)).toEqual({
      kind: 'file',
      path: path.join(renderer, 'index.html'),
    });
  });

  it('answers 404, not index.html, for a missing file with an extension', async () => {
    expect(await resolveAppFile(renderer, 'app://campus-talk/assets/missing-123.js')).toEqual({
      kind: 'not-found',
    });
  });

  it.each([
    'app://campus-talk/..%2fsecret.txt',
    'app://campus-talk/..%2F..%2F..%2Fetc%2Fpasswd',
    'app://campus-talk/assets/..%2f..%2fsecret.txt',
    'app://campus-talk/%2e%2e%2fsecret.txt',
    'app://campus-talk/..%2frenderer-private%2fkey.txt',
    'app://campus-talk/..%5csecret.txt',
    'app://campus-talk/index.html%00.js',
    'app://campus-talk/index.html::$DATA',
    'app://campus-talk/C:%2fWindows%2fwin.ini',
    'app://campus-talk/%E0%A4%A',
  ])('blocks path traversal: %s', async (url) => {
    expect(await resolveAppFile(renderer, url)).toEqual({ kind: 'forbidden' });
  });

  it('resolves plain dot segments inside the renderer (the URL parser folds them)', async () => {
    expect(await resolveAppFile(renderer, 'app://campus-talk/../../secret.txt')).toEqual({
      kind: 'not-found',
    });
  });

  it('refuses other origins', async () => {
    expect(await resolveAppFile(renderer, 'app://campus-talk.evil/index.html')).toEqual({
      kind: 'forbidden',
    });
    expect(await resolveAppFile(renderer, 'file:///etc/passwd')).toEqual({ kind: 'forbidden' });
  });
});

describe('app:// responses', () => {
  const csp = buildContentSecurityPolicy('http://localhost:8787');

  it('serves the file with its type and the CSP', async () => {
    const response = await serveAppRequest(
      new Request('app://campus-talk/assets/index-abc.js'),
      renderer,
      csp,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(csp);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('console.log(1)');
  });

  it('serves index.html for routes and refuses traversal and writes', async () => {
    const route = await serveAppRequest(new Request('app://campus-talk/friends'), renderer, csp);
    expect(route.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await route.text()).toContain('<title>Campus Talk</title>');

    const traversal = await serveAppRequest(new Request('app://campus-talk/..%2fsecret.txt'), renderer, csp);
    expect(traversal.status).toBe(403);
    expect(await traversal.text()).not.toContain('outside');

    const post = await serveAppRequest(new Request('app://campus-talk/', { method: 'POST' }), renderer, csp);
    expect(post.status).toBe(405);
  });
});

describe('content security policy', () => {
  it('allows self, the configured server over http and ws, and blob:/data: images; no inline script', () => {
    const policy = buildContentSecurityPolicy('http://localhost:8787');
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("img-src 'self' blob: data: http://localhost:8787;");
    expect(policy).toContain("connect-src 'self' http://localhost:8787 ws://localhost:8787;");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain('frame-src http://localhost:8787/files/documents/');
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
  });

  it('uses wss for an https server and drops a path from the URL', () => {
    const policy = buildContentSecurityPolicy('https://talk.campus.example/api');
    expect(policy).toContain("connect-src 'self' https://talk.campus.example wss://talk.campus.example;");
  });

  it("allows the bucket's origin (STORAGE=s3) for images, media, fetches and frames", () => {
    const bucket = 'https://campus-files.s3.eu-west-1.amazonaws.com';
    const policy = buildContentSecurityPolicy('https://talk.campus.example', [bucket]);
    const directive = (name: string) =>
      policy
        .split('; ')
        .find((part) => part.startsWith(`${name} `))
        ?.split(' ')
        .slice(1) ?? [];
    for (const name of ['img-src', 'media-src', 'connect-src', 'frame-src']) {
      expect(directive(name), name).toContain(bucket);
    }
    expect(directive('frame-src')).toContain('https://talk.campus.example/files/documents/');
    for (const name of ['script-src', 'style-src', 'default-src', 'worker-src', 'font-src']) {
      expect(directive(name), name).toEqual(["'self'"]);
    }
  });

  it('drops a file origin that is not a bare http(s) origin', () => {
    const hostile = [
      'https://x.example; script-src *',
      'https://x.example/path',
      "'unsafe-inline'",
      'javascript:alert(1)',
      '*',
      'https://*.example',
      'https://a;b.example',
      "https://x'y.example",
      'https://x.example ',
      'data:',
      'ftp://files.example',
    ];
    const policy = buildContentSecurityPolicy('http://localhost:8787', hostile);
    expect(policy).toBe(buildContentSecurityPolicy('http://localhost:8787'));
    expect(policy).not.toContain('x.example');
    expect(policy).not.toContain('unsafe-inline');
    // A good entry among bad ones still gets in.
    const mixed = buildContentSecurityPolicy('http://localhost:8787', [...hostile, 'http://127.0.0.1:9000']);
    expect(mixed).toContain("img-src 'self' blob: data: http://localhost:8787 http://127.0.0.1:9000;");
    expect(mixed).toContain('frame-src http://localhost:8787/files/documents/ http://127.0.0.1:9000');
    expect(mixed).not.toContain('x.example');
  });

  it('never lets a malformed server URL inject sources', () => {
    const policy = buildContentSecurityPolicy("javascript:alert(1); script-src 'unsafe-inline'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("connect-src 'self';");
    expect(policy).toContain("frame-src 'none'");
  });
});
