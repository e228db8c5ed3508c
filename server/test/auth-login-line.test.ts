import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@campus/protocol';
import { hashPassword } from '../src/lib/auth/password';
import { insertUser } from '../src/modules/users/repo';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
const EMAIL = 'target@uni.edu';
const PASSWORD = 'right-password';
// Every check after the first failure waits 300 ms; three logins may be in line for the address.
const DELAY = { afterFailures: 1, baseMs: 300, maxMs: 300, windowMs: 15 * 60_000, maxInLine: 3 };

beforeAll(async () => {
  server = await startTestServer({ rateRules: { loginDelayPerEmail: DELAY } });
  const passwordHash = await hashPassword(PASSWORD);
  const user = { passwordHash, firstName: 'Tar', lastName: 'Get', phoneNumber: '', role: 'user' as const };
  await insertUser(server.deps.db, { ...user, email: EMAIL }, server.deps.now());
});
afterAll(() => server.close());

interface Answer {
  status: number;
  doneAt: number;
  retryAfter: string | undefined;
  body: unknown;
}

/** POST /api/auth/login from a chosen loopback address (all of 127.0.0.0/8 reaches 127.0.0.1). */
function loginFrom(ip: string, password: string): Promise<Answer> {
  const body = JSON.stringify({ email: EMAIL, password });
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
            doneAt: performance.now(),
            retryAfter: res.headers['retry-after'],
            body: JSON.parse(text) as unknown,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('password checks for one address wait in a short line', () => {
  it('checks parallel guesses one at a time, each after the delay, and answers the rest 429 at once', async () => {
    expect((await loginFrom('127.0.1.1', 'first-guess')).status).toBe(401);

    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => loginFrom(`127.0.1.${10 + i}`, `guess-${i}`)),
    );
    const checked = answers.filter((a) => a.status === 401);
    const refused = answers.filter((a) => a.status === 429);
    expect(checked).toHaveLength(DELAY.maxInLine);
    expect(refused).toHaveLength(12 - DELAY.maxInLine);
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

  it('lets the owner in once the line has cleared', async () => {
    expect((await loginFrom('127.0.1.99', PASSWORD)).status).toBe(200);
  });
});
