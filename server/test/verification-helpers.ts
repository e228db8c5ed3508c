import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { DocumentSignResponse } from '@campus/protocol';
import { createSession } from '../src/lib/auth/sessions';
import { insertUser } from '../src/modules/users/repo';
import type { TestServer } from './support/test-server';
import type { TestUser } from './support/ws-client';
import type { SqlParam } from '../src/realtime/transaction';
import { rowOf, rowsOf } from './support/sql';

/** Helpers of the verification suites (verification-*.test.ts). */

export async function createAccount(
  server: TestServer,
  firstName: string,
  role: 'user' | 'admin' = 'user',
): Promise<TestUser & { email: string }> {
  const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@uni.test`;
  const row = await insertUser(
    server.deps.db,
    { email, passwordHash: 'unused', firstName, lastName: 'Tester', phoneNumber: '', role },
    Date.now(),
  );
  const { token } = await createSession(server.deps.db, row.id, Date.now());
  return { id: row.id, token, name: firstName, email };
}

export function sign(server: TestServer, token: string, contentType: string, filename = 'card.png') {
  return server.post('/api/upload/document/sign', { filename, contentType }, token);
}

/** The signed PUT: no bearer token, only the URL. */
export async function put(server: TestServer, url: string, bytes: Uint8Array, contentType: string) {
  const res = await fetch(server.url + url, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: bytes,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

export function submit(server: TestServer, token: string, body: Record<string, unknown>) {
  return server.post('/api/upload/document/submit', body, token);
}

/** sign → PUT → submit, expecting each step to succeed; answers the signed upload. */
export async function uploadDocument(
  server: TestServer,
  token: string,
  bytes: Uint8Array,
  contentType: string,
  extra: { manual?: boolean; recognized?: unknown } = {},
): Promise<DocumentSignResponse> {
  const signed = await sign(server, token, contentType);
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  const upload = signed.body as DocumentSignResponse;
  const stored = await put(server, upload.url, bytes, contentType);
  expect(stored.status, JSON.stringify(stored.body)).toBe(200);
  const done = await submit(server, token, {
    bucket: upload.bucket,
    key: upload.key,
    manual: false,
    ...extra,
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return upload;
}

/** A small PDF (only its magic bytes matter to the server). */
export const PDF_BYTES = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/**
 * An admin's decision. A verify or reject names the document the admin looked at: the student's current one
 * unless the test passes `documentId` itself (or `null` to leave it out).
 */
export async function decide(
  server: TestServer,
  token: string,
  userId: string,
  body: Record<string, unknown>,
) {
  const current = (
    await row<{ current_document_id: string | null } | undefined>(
      server,
      'SELECT current_document_id FROM users WHERE id = ?',
      userId,
    )
  )?.current_document_id;
  const named =
    body.action === 'exempt' || 'documentId' in body
      ? body.documentId === null
        ? Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'documentId'))
        : body
      : { ...body, documentId: current ?? 'none' };
  return server.call('PATCH', `/api/upload/admin/documents/${userId}`, named, token);
}

/** Raw SQL through the server's transactor (support/sql.ts): portable, so on PostgreSQL too. */
export async function row<T>(server: TestServer, query: string, ...params: SqlParam[]): Promise<T> {
  return (await rowOf(server, query, ...params)) as T;
}

export function rows<T>(server: TestServer, query: string, ...params: SqlParam[]): Promise<T[]> {
  return rowsOf<T>(server, query, ...params);
}
