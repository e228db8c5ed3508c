import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@campus/protocol';
import { hashPassword } from '../src/lib/auth/password';
import { insertUser } from '../src/modules/users/repo';
import { loginFrom } from './support/login-from';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
const EMAIL = 'target@uni.edu';
const PASSWORD = 'right-password';
// Every check after the first failure waits 1 s (long enough that a busy machine still has all parallel
// requests in before the first check ends); three logins may be in line for the address.
const DELAY = { afterFailures: 1, baseMs: 1000, maxMs: 1000, windowMs: 15 * 60_000, maxInLine: 3 };
const guessers = Array.from({ length: 12 }, (_, i) => `127.0.1.${10 + i}`);

beforeAll(async () => {
  server = await startTestServer({ rateRules: { loginDelayPerEmail: DELAY } });
  const passwordHash = await hashPassword(PASSWORD);
  const user = { passwordHash, firstName: 'Tar', lastName: 'Get', phoneNumber: '', role: 'user' as const };
  await insertUser(server.deps.db, { ...user, email: EMAIL }, server.deps.now());
});
afterAll(() => server.close());

const loginAs = (ip: string, password: string) => loginFrom(server, ip, EMAIL, password);

describe('password checks for one address wait in a short line', () => {
  it('checks parallel guesses from failed IPs one at a time, each after the delay, and answers the rest 429 at once', async () => {
    // Each guesser fails once (a fresh IP is not queued, so these run side by side after the delay).
    const firsts = await Promise.all(guessers.map((ip, i) => loginAs(ip, `first-${i}`)));
    expect(firsts.map((a) => a.status)).toEqual(guessers.map(() => 401));

    const started = performance.now();
    const answers = await Promise.all(guessers.map((ip, i) => loginAs(ip, `guess-${i}`)));
    const checked = answers.filter((a) => a.status === 401);
    const refused = answers.filter((a) => a.status === 429);
    expect(checked).toHaveLength(DELAY.maxInLine);
    expect(refused).toHaveLength(guessers.length - DELAY.maxInLine);
    for (const answer of refused) {
      expect(answer.body).toEqual({ error: SERVER_MSG.tooManyRequests });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      // Refused without waiting: no socket is held for the delay.
      expect(answer.doneAt - started).toBeLessThan(DELAY.baseMs);
    }
    // One after another: each check came a full delay after the one before.
    const times = checked.map((a) => a.doneAt - started).sort((a, b) => a - b);
    for (let i = 0; i < times.length; i++)
      expect(times[i]).toBeGreaterThanOrEqual((i + 1) * DELAY.baseMs - 20);
  });

  it('lets the owner in from an IP that has not failed while guessers keep the line full', async () => {
    const flood = Promise.all(guessers.map((ip, i) => loginAs(ip, `again-${i}`)));
    // The line is full now; the owner does not join it and waits only the address's delay.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    const owner = await loginAs('127.0.1.99', PASSWORD);
    expect(owner.status).toBe(200);
    expect(owner.doneAt - started).toBeLessThan(DELAY.baseMs * 2);
    const floodStatuses = (await flood).map((a) => a.status);
    expect(floodStatuses.filter((status) => status === 429).length).toBeGreaterThan(0);
  });

  it('parallel guesses from one fresh IP: one checked at once, the others in line after it, the rest 429', async () => {
    const email = 'burst@uni.edu';
    const passwordHash = await hashPassword(PASSWORD);
    const user = { passwordHash, firstName: 'Bur', lastName: 'St', phoneNumber: '', role: 'user' as const };
    await insertUser(server.deps.db, { ...user, email }, server.deps.now());
    const ip = '127.0.1.60';
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => loginFrom(server, ip, email, `burst-${i}`)),
    );
    const checked = answers.filter((a) => a.status === 401);
    // The first try, then the line's room: never all twelve side by side (the pair allows ten failures).
    expect(checked).toHaveLength(1 + DELAY.maxInLine);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(12 - checked.length);
    // After the first failure each check waited the address's delay, one after another.
    const times = checked.map((a) => a.doneAt - a.startedAt).sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(i * DELAY.baseMs - 20);
  });
});
