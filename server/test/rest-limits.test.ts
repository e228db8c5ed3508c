import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MSG } from '@campus/protocol';
import { DIRECTORY_RATE } from '../src/modules/directory/routes';
import { SIGN_RATE } from '../src/modules/attachments/routes';
import { startTestServer, type TestServer } from './support/test-server';
import { createUser, type TestUser } from './support/ws-client';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'Ann');
  bob = await createUser(server, 'Bob');
});
afterAll(() => server.close());

describe('REST routes a bot could spam', () => {
  it('rate-limits directory searches and profile reads per user (each search scans the users table)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DIRECTORY_RATE.limit; i++)
      statuses.push((await server.get(`/api/users?q=s${i}`, ann.token)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await server.get(`/api/users/${bob.id}`, ann.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: SERVER_MSG.tooManyRequests });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user is not affected.
    expect((await server.get('/api/users?q=ann', bob.token)).status).toBe(200);
  });

  it('rate-limits signing file URLs per user', async () => {
    const keys = ['0'.repeat(32)];
    for (let i = 0; i < SIGN_RATE.limit; i++) {
      expect((await server.post('/api/files/sign', { keys }, bob.token)).status).toBe(200);
    }
    expect((await server.post('/api/files/sign', { keys }, bob.token)).status).toBe(429);
  });
});
