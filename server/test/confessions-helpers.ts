import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { CollegeObject } from '@campus/protocol';
import { createSession } from '../src/lib/auth/sessions';
import { insertUser } from '../src/modules/users/repo';
import type { TestServer } from './support/test-server';

export interface Student {
  id: string;
  token: string;
  name: string;
  nickname: string | null;
}

/** A student with a real account, session and profile college (a name or a picker object). */
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
    },
    server.deps.now(),
  );
  // Stored as the profile stores it: JSON of a plain name or of the picker's college object.
  if (college !== null)
    server.deps.sqlite
      .prepare('UPDATE users SET college = ? WHERE id = ?')
      .run(JSON.stringify(college), row.id);
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
export async function postAs(
  server: TestServer,
  author: Student,
  content: string,
  emotionTag = '😊',
): Promise<string> {
  const res = await server.post('/api/confessions/post', { content, emotionTag }, author.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}
