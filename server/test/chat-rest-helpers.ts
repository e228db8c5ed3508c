import { randomUUID } from 'node:crypto';
import type { DocumentStatus, UserRef } from '@campus/protocol';
import { createSession } from '../src/lib/auth/sessions';
import { insertUser } from '../src/modules/users';
import type { TestServer } from './support/test-server';

export interface Student {
  id: string;
  token: string;
  ref: UserRef;
  email: string;
}

/**
 * A student account with a live session, made directly in the server's database (no mail round trip).
 * Verified unless told otherwise, so the access policy lets it take part.
 */
export async function addStudent(
  server: TestServer,
  firstName: string,
  lastName: string,
  documentStatus: DocumentStatus = 'verified',
): Promise<Student> {
  const email = `${firstName}.${lastName}.${randomUUID().slice(0, 6)}@uni.edu`.toLowerCase();
  const row = await insertUser(
    server.deps.db,
    { email, passwordHash: 'not-used', firstName, lastName, phoneNumber: '', role: 'user', documentStatus },
    server.deps.now(),
  );
  const { token } = await createSession(server.deps.db, row.id, server.deps.now());
  return { id: row.id, token, email, ref: { id: row.id, firstName, lastName, profilePictureUrl: null } };
}

/** POST multipart with the `attachment` file and the `id` field, as the web app sends it. */
export async function upload(
  server: TestServer,
  path: string,
  token: string,
  file: { bytes: Uint8Array; name: string; type?: string } | null,
  id: string = randomUUID(),
) {
  const form = new FormData();
  if (file)
    form.append(
      'attachment',
      new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  form.append('id', id);
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}
