import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@campus/protocol';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
beforeAll(async () => {
  // Default limits and dev mailbox; only the login delay is shortened (auth-lockout.test.ts covers it).
  server = await startTestServer({
    rateRules: { loginDelayPerEmail: { afterFailures: 5, baseMs: 1, maxMs: 4, windowMs: 15 * 60_000 } },
  });
});
afterAll(() => server.close());

describe('rate limits on auth routes', () => {
  it('answers 429 with a clear error after 10 wrong passwords for one address from one IP in 15 minutes', async () => {
    for (let i = 0; i < 10; i++) {
      expect(
        (await server.post('/api/auth/login', { email: 'target@uni.edu', password: `guess-${i}` })).status,
      ).toBe(401);
    }
    const blocked = await server.post('/api/auth/login', { email: 'target@uni.edu', password: 'guess-x' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe(SERVER_MSG.tooManyRequests);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits logins per IP across addresses', async () => {
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++) {
      status = (await server.post('/api/auth/login', { email: `spray-${i}@uni.edu`, password: 'x' })).status;
    }
    expect(status).toBe(429);
  });

  it('limits signups per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (
          await server.post('/api/auth/signup', {
            firstName: 'B',
            lastName: 'ot',
            email: `bot${i}@uni.edu`,
            password: 'secret12',
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
