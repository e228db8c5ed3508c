import type { DocumentStatus } from '@campus/protocol';
import type { TestServer } from './test-server';

/**
 * Sets a test account's document status as an admin's decision would (a direct row update). Tests that are
 * not about verification make their students `verified`, so the access policy (on in tests, as by default)
 * lets them post, chat and react; access-policy tests move accounts between statuses with it.
 */
export function verifyStudent(
  server: Pick<TestServer, 'deps'>,
  userId: string,
  status: DocumentStatus = 'verified',
): void {
  server.deps.sqlite.prepare('UPDATE users SET document_status = ? WHERE id = ?').run(status, userId);
}
