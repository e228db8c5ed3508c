import { expect } from 'vitest';
import { manualCollegesResponseSchema, type User } from '@campus/protocol';
import type { TestServer } from './support/test-server';
import type { TestUser } from './support/ws-client';

/** Helpers of the admins' college review suites (colleges-admin*.test.ts). */

/** Saves the student's college (a name or a picker object) and answers what the profile stored. */
export async function saveCollege(server: TestServer, token: string, college: unknown) {
  const res = await server.call('PUT', '/api/users/profile', { college }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as unknown as User).college as { id: string; name: string };
}

export async function manualList(server: TestServer, token: string, query = '') {
  const res = await server.get(`/api/admin/colleges/manual${query}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return manualCollegesResponseSchema.parse(res.body);
}

export async function meOf(server: TestServer, user: TestUser): Promise<User> {
  return (await server.get('/api/auth/me', user.token)).body as unknown as User;
}
