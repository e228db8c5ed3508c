import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { CollegeObject, MutationOf } from '@campus/protocol';
import { createSession } from '../src/lib/auth/sessions';
import { confessionEnv } from '../src/modules/confessions/env';
import type { MutationHandler, MutationHandlers } from '../src/realtime/registry';
import { insertUser } from '../src/modules/users/repo';
import { execSql, rowsOf } from './support/sql';
import type { TestServer } from './support/test-server';

export interface Student {
  id: string;
  token: string;
  name: string;
  nickname: string | null;
}

/** A verified student with a real account, session and profile college (a name or a picker object). */
export async function createStudent(
  server: TestServer,
  name: string,
  college: string | CollegeObject | null = null,
): Promise<Student> {
  const row = await insertUser(
    server.deps.db,
    {
      email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@uni.test`,
      passwordHash: 'unused',
      firstName: name,
      lastName: 'Student',
      phoneNumber: '0000000000',
      role: 'user',
      documentStatus: 'verified',
    },
    server.deps.now(),
  );
  // Stored as the profile stores it: JSON of a plain name or of the picker's college object.
  if (college !== null)
    await execSql(server, 'UPDATE users SET college = ? WHERE id = ?', JSON.stringify(college), row.id);
  const { token } = await createSession(server.deps.db, row.id, server.deps.now());
  return { id: row.id, token, name, nickname: null };
}

/** Sets the student's nickname through the API (asserting it succeeds). */
export async function withNickname(server: TestServer, student: Student, nickname: string): Promise<Student> {
  const res = await server.post('/api/confessions/nickname/set', { nickname }, student.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...student, nickname };
}

export async function student(
  server: TestServer,
  name: string,
  college: string | CollegeObject | null = null,
): Promise<Student> {
  return withNickname(server, await createStudent(server, name, college), `${name}-nick`);
}

/** Posts through the API and returns the created confession's id. */
/** Posts over REST and has it announced at once (others see it only then), as a few seconds later. */
export async function postAs(
  server: TestServer,
  author: Student,
  content: string,
  emotionTag = '😊',
): Promise<string> {
  const id = await postUnannounced(server, author, content, emotionTag);
  await announcePosts(server);
  return id;
}

/** Posts over REST, leaving it to the publisher's delay: only its author sees it until then. */
export async function postUnannounced(
  server: TestServer,
  author: Student,
  content: string,
  emotionTag = '😊',
): Promise<string> {
  const res = await server.post('/api/confessions/post', { content, emotionTag }, author.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/**
 * Announces the posts waiting for the publisher's random delay now, as it would do a few seconds later
 * (`confession_posted` and `confession_mine` in one commit of their own).
 */
export function announcePosts(server: TestServer): Promise<void> {
  return confessionEnv(server.deps).publisher.flush();
}

/**
 * Sends the notices of anonymous acts waiting for their random delay now (a reaction's or a comment's
 * notification to the author, a deletion's `confession_deleted`), as a few seconds later.
 */
export function sendNotices(server: TestServer): Promise<void> {
  return confessionEnv(server.deps).notices.flush();
}

type ConfessionMutationType =
  'confession_react' | 'confession_comment' | 'confession_post' | 'confession_delete';
/** A confession outbox frame as the dispatcher hands it over. */
export type ConfessionFrame = MutationOf<ConfessionMutationType>;

/**
 * Runs one outbox frame through the module's handler in its own commit, as the engine's dispatcher does
 * (without the exactly-once bookkeeping, so a repeat tests the write's own idempotency).
 */
export async function applyConfessionFrame(
  server: TestServer,
  handlers: Pick<MutationHandlers, ConfessionMutationType>,
  frame: ConfessionFrame,
  userId: string,
): Promise<void> {
  // The table is keyed by the frame's own type, so the handler takes this frame.
  const handler = handlers[frame.type] as MutationHandler<ConfessionFrame>;
  await server.deps.transactor.commit((tx) => handler.apply(tx, frame, { userId }));
}

export interface LoggedChange {
  seq: number;
  type: string;
  payload: string;
  audiences: string[];
}

/**
 * Every change in the log whose payload names this confession, oldest first, with its audiences (sorted).
 * Portable SQL (the server-pg project): the ids are UUIDs, so LIKE needs no escaping.
 */
export async function changesAbout(server: TestServer, confessionId: string): Promise<LoggedChange[]> {
  const pattern = `%${confessionId}%`;
  const rows = await rowsOf<Omit<LoggedChange, 'audiences'>>(
    server,
    'SELECT seq, type, payload FROM change_log WHERE payload LIKE ? ORDER BY seq',
    pattern,
  );
  const audiences = await rowsOf<{ seq: number; audience: string }>(
    server,
    `SELECT a.seq, a.audience FROM change_audience a JOIN change_log l ON l.seq = a.seq
      WHERE l.payload LIKE ? ORDER BY a.audience`,
    pattern,
  );
  return rows.map((row) => ({
    ...row,
    audiences: audiences.filter((a) => a.seq === row.seq).map((a) => a.audience),
  }));
}
