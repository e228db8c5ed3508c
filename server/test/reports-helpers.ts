import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { adminReportsResponseSchema, type ReportContext } from '@campus/protocol';
import { hashPassword } from '../src/lib/auth/password';
import { createSession } from '../src/lib/auth/sessions';
import { sendDirectMessage } from '../src/modules/chat';
import { insertUser } from '../src/modules/users/repo';
import type { TestServer } from './support/test-server';
import type { TestUser } from './support/ws-client';
import { execSql, rowOf } from './support/sql';

/** Helpers of the reports suites (reports-*.test.ts). */

export const PASSWORD = 'secret-pass-1';

/** An account with a real password (so it can sign in), verified unless told otherwise, with a session. */
export async function account(
  server: TestServer,
  name: string,
  role: 'user' | 'admin' = 'user',
): Promise<TestUser & { email: string }> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@uni.test`;
  const row = await insertUser(
    server.deps.db,
    {
      email,
      passwordHash: await hashPassword(PASSWORD),
      firstName: name,
      lastName: 'Student',
      phoneNumber: '',
      role,
      documentStatus: role === 'admin' ? 'not_required' : 'verified',
    },
    server.deps.now(),
  );
  const { token } = await createSession(server.deps.db, row.id, server.deps.now());
  return { id: row.id, token, name, email };
}

/** `a` wrote to `b`: both have the direct chat. */
export async function chatted(server: TestServer, a: TestUser, b: TestUser): Promise<void> {
  await sendDirectMessage(server.deps, a.id, { id: randomUUID(), to: b.id, content: 'hello' });
}

/** A call from `caller` to `callee` in the history (the server writes these when a call ends). */
export async function loggedCall(
  server: TestServer,
  caller: TestUser,
  callee: TestUser,
  hidden = false,
): Promise<string> {
  const id = randomUUID();
  await execSql(
    server,
    `INSERT INTO call_logs (id, caller_id, callee_id, call_type, status, started_at, duration, callee_hidden)
     VALUES (?, ?, ?, 'audio', 'completed', ?, 30, ?)`,
    id,
    caller.id,
    callee.id,
    new Date(server.deps.now()).toISOString(),
    hidden ? 1 : 0,
  );
  return id;
}

/** Two people who are friends: the friendship row, as an accepted request leaves it. */
export async function friends(server: TestServer, a: TestUser, b: TestUser): Promise<void> {
  const [x, y] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
  await execSql(
    server,
    'INSERT INTO friendships (user_a, user_b, created_at) VALUES (?, ?, ?)',
    x,
    y,
    new Date().toISOString(),
  );
}

export function report(
  server: TestServer,
  by: TestUser,
  context: Exclude<ReportContext, { kind: 'random_room' }>,
  extra: Record<string, unknown> = {},
) {
  return server.post('/api/reports', { context, reason: 'harassment', ...extra }, by.token);
}

/** Files a report that must be accepted; answers its id. */
export async function filed(
  server: TestServer,
  by: TestUser,
  context: Exclude<ReportContext, { kind: 'random_room' }>,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await report(server, by, context, extra);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

export async function queue(server: TestServer, admin: TestUser, query = '') {
  const res = await server.get(`/api/admin/reports${query}`, admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return adminReportsResponseSchema.parse(res.body);
}

export function decide(server: TestServer, admin: TestUser, reportId: string, body: Record<string, unknown>) {
  return server.post(`/api/admin/reports/${reportId}/decision`, body, admin.token);
}

export async function blocked(
  server: TestServer,
  blocker: TestUser,
  blockedUser: TestUser,
): Promise<boolean> {
  const found = await rowOf(
    server,
    'SELECT 1 AS one FROM blocks WHERE blocker_id = ? AND blocked_id = ?',
    blocker.id,
    blockedUser.id,
  );
  return found !== undefined;
}

export function reportRow(server: TestServer, id: string): Promise<Record<string, unknown> | undefined> {
  return rowOf<Record<string, unknown>>(server, 'SELECT * FROM reports WHERE id = ?', id);
}
