import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@campus/protocol';
import { hashPassword } from '../src/lib/auth/password';
import { loginDelayMs } from '../src/lib/login-throttle';
import { DEFAULT_AUTH_RATE_RULES } from '../src/lib/rate-limit';
import { insertUser } from '../src/modules/users/repo';
import { loginFrom } from './support/login-from';
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

/** A login for the owner's address (or another) from `ip`; `ms` is how long the answer took. */
async function loginAs(ip: string, password: string, email = EMAIL) {
  const answer = await loginFrom(server, ip, email, password);
  return { ...answer, ms: answer.doneAt - answer.startedAt };
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
      expect((await loginAs(`127.0.0.${10 + (i % 5)}`, `guess-${i}`)).status).toBe(401);
    const owner = await loginAs('127.0.0.50', PASSWORD);
    expect(owner.status).toBe(200);
    // Slowed by the address's failures (the cap, 200 ms here), not refused.
    expect(owner.ms).toBeGreaterThanOrEqual(DELAY.maxMs - 20);
    expect(owner.ms).toBeLessThan(DELAY.maxMs + 1500);
  });

  it('refuses an IP that failed 10 times for the address, even with the right password, until the window ends', async () => {
    clock.advance(DELAY.windowMs + 1000); // a clean slate for this address
    for (let i = 0; i < 10; i++) expect((await loginAs('127.0.0.60', `guess-${i}`)).status).toBe(401);
    const blocked = await loginAs('127.0.0.60', PASSWORD);
    expect(blocked.status).toBe(429);
    // The same IP may still sign in to another address; another IP still signs in to this one.
    expect((await loginAs('127.0.0.60', 'x', 'someone-else@uni.edu')).status).toBe(401);
    expect((await loginAs('127.0.0.61', PASSWORD)).status).toBe(200);

    clock.advance(DELAY.windowMs + 1000);
    expect((await loginAs('127.0.0.60', PASSWORD)).status).toBe(200);
  });

  it('answers 429 with the usual error and a Retry-After', async () => {
    for (let i = 0; i < 10; i++) await loginAs('127.0.0.70', `guess-${i}`, 'target@uni.edu');
    const refused = await loginAs('127.0.0.70', 'x', 'target@uni.edu');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: SERVER_MSG.tooManyRequests });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  });
});
