import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_ORIGIN } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-web-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><title>Campus Talk</title><div id="root"></div>',
);
fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { webDist } });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('one URL is the whole product', () => {
  it('answers /healthz after a database round trip', async () => {
    const res = await server.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('serves the built web app with an SPA fallback for client routes', async () => {
    for (const route of ['/', '/talk', '/chat/42', '/admin/documents']) {
      const res = await fetch(server.url + route);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('<div id="root">');
    }
    const asset = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  // Rolling deploys: a browser holding the new index.html may ask an old node for the new build's assets.
  // HTML with 200 there would be run as the script (or cached as it by the service worker): a blank page.
  it('answers a missing hashed asset with 404, never the web app, and still falls back for client routes', async () => {
    for (const missing of ['/assets/missing.js', '/assets/index-newhash.css', '/assets/deep/chunk.js']) {
      const res = await fetch(server.url + missing);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type') ?? '').not.toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).not.toContain('<div id="root">');
    }
    for (const route of ['/some/client/route', '/confessions?confessionId=c1', '/assets-page']) {
      const res = await fetch(server.url + route);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('answers unknown API paths with JSON 404, never the web app', async () => {
    const res = await server.get('/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });

  it('sends secure headers with a CSP that forbids inline and third-party scripts', async () => {
    const res = await fetch(`${server.url}/talk`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('allows the desktop origin through CORS on API routes only', async () => {
    const preflight = await fetch(`${server.url}/api/auth/login`, {
      method: 'OPTIONS',
      headers: {
        origin: DESKTOP_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(DESKTOP_ORIGIN);
    const evil = await fetch(`${server.url}/api/auth/me`, { headers: { origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses oversized bodies', async () => {
    const res = await server.post('/api/auth/login', { email: 'a@b.co', password: 'x'.repeat(100_000) });
    expect(res.status).toBe(413);
  });

  it('lists dev mail as JSON and as escaped HTML', async () => {
    await server.post('/api/auth/signup', {
      firstName: '<b>Eve</b>',
      lastName: '',
      email: 'eve@uni.edu',
      password: 'secret12',
    });
    const json = await server.get('/dev/mailbox.json');
    const mails = json.body.mails as { to: string; text: string }[];
    expect(mails[0]?.to).toBe('eve@uni.edu');
    expect(mails[0]?.text).toMatch(/Your code: \d{6}/);
    const html = await (await fetch(`${server.url}/dev/mailbox`)).text();
    expect(html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(html).not.toContain('<b>Eve</b>');
  });
});

describe('production', () => {
  it('has no dev mailbox', async () => {
    const prod = await startTestServer({ config: { nodeEnv: 'production' } });
    try {
      expect((await prod.get('/dev/mailbox.json')).status).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
