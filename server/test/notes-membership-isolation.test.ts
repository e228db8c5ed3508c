import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX } from '@campus/protocol';
import { sql, type Transactor } from '../src/realtime/transaction';
import { createGroup, signUp, type Student } from './notes-helpers';
import { startTestServer, type TestServer } from './support/test-server';

let server: TestServer;
let owner: Student;
let stranger: Student;
let groupId: string;
beforeAll(async () => {
  server = await startTestServer();
  owner = await signUp(server, 'Owner');
  stranger = await signUp(server, 'Stranger');
  groupId = await createGroup(server, owner);
});
afterAll(() => server.close());

const addMember = sql('INSERT INTO group_members (group_id, user_id, joined_at) VALUES (?, ?, ?)');

/**
 * Once, when the route reads membership (after its session lookup): a commit that writes the stranger's
 * membership is opened first and held open for 50 ms, then rolled back. A spy on the server's transactor
 * rather than a module mock: on PostgreSQL the server-pg setup file has loaded the server's modules already.
 */
function openCommitBeforeNextRead(): { rolledBack: () => Promise<unknown> | undefined } {
  const transactor: Transactor = server.deps.transactor;
  const read = transactor.read.bind(transactor);
  let rolledBack: Promise<unknown> | undefined;
  const spy = vi.spyOn(transactor, 'read');
  spy.mockImplementationOnce(async (fn) => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written = false;
    rolledBack = transactor
      .commit(async (tx) => {
        await tx.run(addMember, groupId, stranger.userId, new Date().toISOString());
        written = true;
        await gate;
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    while (!written) await new Promise((resolve) => setImmediate(resolve));
    setTimeout(release, 50);
    return read(fn);
  });
  return { rolledBack: () => rolledBack };
}

describe('the notes room checks membership outside other commits', () => {
  it('does not let a stranger in on a membership another commit wrote and then rolled back', async () => {
    const hook = openCommitBeforeNextRead();
    // Without the Upgrade header: 426 once past the membership check, 403 at it.
    const res = await fetch(`${server.url}/notes/${groupId}`, {
      headers: { 'sec-websocket-protocol': `${NOTES_SUBPROTOCOL}, ${NOTES_TOKEN_PREFIX}${stranger.token}` },
    });
    await hook.rolledBack();
    vi.restoreAllMocks();
    expect(hook.rolledBack()).toBeDefined();
    expect(res.status).toBe(403);
  });
});
