import type { DocumentStatus } from '@campus/protocol';
import { execSql } from './sql';
import type { TestServer } from './test-server';

/**
 * Sets a test account's document status as an admin's decision would (a direct row update). Tests that are
 * not about verification make their students `verified`, so the access policy (on in tests, as by default)
 * lets them post, chat and react; access-policy tests move accounts between statuses with it. Synchronous,
 * on SQLite only: setDocumentStatus below runs on PostgreSQL too.
 */
export function verifyStudent(
  server: Pick<TestServer, 'deps'>,
  userId: string,
  status: DocumentStatus = 'verified',
): void {
  server.deps.sqlite.prepare('UPDATE users SET document_status = ? WHERE id = ?').run(status, userId);
}

/** verifyStudent on SQLite and PostgreSQL alike (the server-pg project): through the server's transactor. */
export async function setDocumentStatus(
  server: Pick<TestServer, 'deps'>,
  userId: string,
  status: DocumentStatus = 'verified',
): Promise<void> {
  await execSql(server, 'UPDATE users SET document_status = ? WHERE id = ?', status, userId);
}
