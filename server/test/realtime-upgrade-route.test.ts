import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NOTES_PATH, SERVER_MSG } from '@campus/protocol';
import { isRealtimeTarget } from '../src/realtime/ws-route';
import { startTestServer, suiteServer } from './support/test-server';

const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const GOOD = { 'Sec-WebSocket-Key': KEY, 'Sec-WebSocket-Version': '13' };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
}

/**
 * A WebSocket upgrade request (`path` as sent, absolute form included) and the server's answer: the 101, or
 * the refusal; rejects when none comes within a second (a refused upgrade must be answered, not left hanging).
 */
function upgrade(port: number, method: string, path: string, headers: http.OutgoingHttpHeaders = GOOD) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method,
      path,
      agent: false,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', ...headers },
    });
    req.setTimeout(1000, () => req.destroy(new Error(`no answer to ${method} ${path}`)));
    req.on('upgrade', (res: http.IncomingMessage, socket: Duplex) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('response', (res: http.IncomingMessage) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('isRealtimeTarget', () => {
  it('names /ws with or without a query, in origin or absolute form, and nothing else', () => {
    for (const target of ['/ws', '/ws?x=1', '/ws?', 'http://host/ws', 'https://host:8443/ws?a=b'])
      expect(isRealtimeTarget(target), target).toBe(true);
    for (const target of [
      undefined,
      '',
      '/',
      '/wsx',
      '/ws/',
      '/ws/x',
      '/w',
      '/notes/g',
      'ws',
      'http://host/wsx',
      'http://host',
    ])
      expect(isRealtimeTarget(target), String(target)).toBe(false);
  });
});

describe('/ws upgrades outside Hono', () => {
  const server = suiteServer();

  it('upgrades /ws, with a query or in absolute form, without running the HTTP middleware', async () => {
    for (const target of ['/ws', '/ws?x=1', 'http://x/ws']) {
      const res = await upgrade(server().port, 'GET', target);
      expect(res.status, target).toBe(101);
      // The security headers are Hono's middleware's: a 101 carrying them went through the app.
      expect(res.headers['content-security-policy'], target).toBeUndefined();
    }
  });

  it('leaves other paths to the app: /wsx and /ws/ get its 404, a notes upgrade its own auth', async () => {
    for (const target of ['/wsx', '/ws/']) {
      const res = await upgrade(server().port, 'GET', target);
      expect(res.status, target).toBe(404);
      expect(res.headers['content-security-policy'], target).toBeDefined();
    }
    // No token: the notes route refuses before any upgrade (test/notes.test.ts covers the rest).
    expect((await upgrade(server().port, 'GET', `${NOTES_PATH}/g1`)).status).toBe(401);
    // Not an upgrade at all: an ordinary request, which the app answers.
    expect((await fetch(`${server().url}/ws`)).status).toBe(404);
  });

  it("answers a bad /ws upgrade at once with ws's refusal: 405 for another method, 400 for a bad key or version", async () => {
    expect((await upgrade(server().port, 'HEAD', '/ws')).status).toBe(405);
    expect((await upgrade(server().port, 'POST', '/ws')).status).toBe(405);
    expect((await upgrade(server().port, 'GET', '/ws', { 'Sec-WebSocket-Version': '13' })).status).toBe(400);
    const badKey = { ...GOOD, 'Sec-WebSocket-Key': 'short' };
    expect((await upgrade(server().port, 'GET', '/ws', badKey)).status).toBe(400);
    const badVersion = await upgrade(server().port, 'GET', '/ws', { ...GOOD, 'Sec-WebSocket-Version': '12' });
    expect(badVersion.status).toBe(400);
    expect(badVersion.headers['sec-websocket-version']).toBe('13, 8');
  });
});

describe('/ws upgrades while draining', () => {
  it('refuses one with 503 and Retry-After, and ends its socket even if the client keeps its side open', async () => {
    const server = await startTestServer();
    // Begun before the drain (the listener then takes no new connections, and closes idle ones), ended
    // after. allowHalfOpen: this client never closes its side on its own, as a stuck or hostile one might
    // not.
    const socket = net.connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => {});
    try {
      socket.write(
        'GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      let raw = '';
      const answered = new Promise<void>((resolve) => socket.on('end', resolve));
      socket.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      const started = Date.now();
      const drained = server.drain(5000);
      socket.write('\r\n');
      await answered;
      expect(raw).toMatch(/^HTTP\/1\.1 503 /);
      expect(raw).toMatch(/\r\nRetry-After: 1\r\n/i);
      // The server let go of the socket although the client did not: the listener, which waits for every
      // connection, closed without waiting out the drain's deadline.
      await drained;
      expect(Date.now() - started).toBeLessThan(3000);
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ error: SERVER_MSG.restarting });
    } finally {
      // Else, when the server holds it, the server's close would wait for it.
      socket.destroy();
      await server.close();
    }
  });
});
