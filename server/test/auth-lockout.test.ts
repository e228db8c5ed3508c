import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@campus/protocol';
import { hashPassword } from '../src/lib/auth/password';
import { loginDelayMs } from '../src/lib/login-throttle';
import { DEFAULT_AUTH_RATE_RULES } from '../src/lib/rate-limit';
import { insertUser } from '../src/modules/users/repo';
import { startTestServer, testClock, type TestServer } from './support/test-server';

const clock = testClock();
let server: TestServer;
const EMAIL = 'owner@uni.edu';
const PASSWORD = 'right-password';
// Small enough for a quick test, large enough to measure.
const DELAY = { afterFailures: 2, baseMs: 50, maxMs: 200, windowMs: 15 * 60_000 };

beforeAll(async () => {
  server = await startTestServer({ now: clock.now, rateRules: { loginDelayPerEmail: DELAY } });
  await insertUser(
    server.deps.db,
    {
      email: EMAIL,
      passwordHash: await hashPassword(PASSWORD),
      firstName: 'Owen',
      lastName: 'Er',
      phoneNumber: '',
      role: 'user',
    },
    clock.now(),
  );
});
afterAll(() => server.close());

interface LoginAnswer {
  status: number;
  ms: number;
  body: unknown;
  retryAfter: string | undefined;
}

/**
 * POST /api/auth/login from a chosen loopback address: the server reads the TCP peer (lib/client-ip.ts,
 * forwarded headers are ignored), and all of 127.0.0.0/8 reaches a listener on 127.0.0.1.
 */
function loginFrom(ip: string, password: string, email = EMAIL): Promise<LoginAnswer> {
  const body = JSON.stringify({ email, password });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/api/auth/login',
        method: 'POST',
        localAddress: ip,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            body: JSON.parse(text) as unknown,
            retryAfter: res.headers['retry-after'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('login limits that cannot lock a student out', () => {
  it('delays 0.5 s doubling to 8 s after the fifth failure for an address, by default', () => {
    const rule = DEFAULT_AUTH_RATE_RULES.loginDelayPerEmail;
    expect([0, 4, 5, 6, 7, 8, 9, 20].map((f) => loginDelayMs(rule, f))).toEqual([
      0, 0, 500, 1000, 2000, 4000, 8000, 8000,
    ]);
  });

  it('lets the right password in from a fresh IP after 10 failures from several IPs, after a capped delay', async () => {
    for (let i = 0; i < 10; i++)
      expect((await loginFrom(`127.0.0.${10 + (i % 5)}`, `guess-${i}`)).status).toBe(401);
    const owner = await loginFrom('127.0.0.50', PASSWORD);
    expect(owner.status).toBe(200);
    // Slowed by the address's failures (the cap, 200 ms here), not refused.
    expect(owner.ms).toBeGreaterThanOrEqual(DELAY.maxMs - 20);
    expect(owner.ms).toBeLessThan(DELAY.maxMs + 1500);
  });

  it('refuses an IP that failed 10 times for the address, even with the right password, until the window ends', async () => {
    clock.advance(DELAY.windowMs + 1000); // a clean slate for this address
    for (let i = 0; i < 10; i++) expect((await loginFrom('127.0.0.60', `guess-${i}`)).status).toBe(401);
    const blocked = await loginFrom('127.0.0.60', PASSWORD);
    expect(blocked.status).toBe(429);
    // The same IP may still sign in to another address; another IP still signs in to this one.
    expect((await loginFrom('127.0.0.60', 'x', 'someone-else@uni.edu')).status).toBe(401);
    expect((await loginFrom('127.0.0.61', PASSWORD)).status).toBe(200);

    clock.advance(DELAY.windowMs + 1000);
    expect((await loginFrom('127.0.0.60', PASSWORD)).status).toBe(200);
  });

  it('answers 429 with the usual error and a Retry-After', async () => {
    for (let i = 0; i < 10; i++) await loginFrom('127.0.0.70', `guess-${i}`, 'target@uni.edu');
    const refused = await loginFrom('127.0.0.70', 'x', 'target@uni.edu');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: SERVER_MSG.tooManyRequests });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  });
});
