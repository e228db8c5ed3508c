import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NOTES_SUBPROTOCOL, NOTES_TOKEN_PREFIX } from '@campus/protocol';
import type * as Sessions from '../src/lib/auth/sessions';
import { sql } from '../src/realtime/transaction';
import { createGroup, signUp, type Student } from './notes-helpers';
import { startTestServer, type TestServer } from './support/test-server';

/** Runs right after the session lookup of a request, before the route goes on. */
const hooks = vi.hoisted(() => ({ afterSessionLookup: undefined as (() => Promise<void>) | undefined }));
vi.mock('../src/lib/auth/sessions', async (importOriginal) => {
  const real = await importOriginal<typeof Sessions>();
  return {
    ...real,
    validateSessionToken: async (...args: Parameters<typeof real.validateSessionToken>) => {
      const found = await real.validateSessionToken(...args);
      await hooks.afterSessionLookup?.();
      return found;
    },
  };
});

let server: TestServer;
let owner: Student;
let stranger: Student;
let groupId: string;
beforeAll(async () => {
  server = await startTestServer();
  owner = await signUp(server, 'Owner');
  stranger = await signUp(server, 'Stranger');
  groupId = createGroup(server, owner);
});
afterAll(() => server.close());

const addMember = sql('INSERT INTO group_members (group_id, user_id, joined_at) VALUES (?, ?, ?)');

describe('the notes room checks membership outside other commits', () => {
  it('does not let a stranger in on a membership another commit wrote and then rolled back', async () => {
    let rolledBack: Promise<unknown> | undefined;
    hooks.afterSessionLookup = async () => {
      hooks.afterSessionLookup = undefined;
      // A commit is open, its membership row written but not committed, when the route checks membership.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      rolledBack = server.deps.transactor
        .commit(async (tx) => {
          await tx.run(addMember, groupId, stranger.userId, new Date().toISOString());
          await gate;
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      while (!server.deps.sqlite.inTransaction) await new Promise((resolve) => setImmediate(resolve));
      setTimeout(release, 50);
    };
    // Without the Upgrade header: 426 once past the membership check, 403 at it.
    const res = await fetch(`${server.url}/notes/${groupId}`, {
      headers: { 'sec-websocket-protocol': `${NOTES_SUBPROTOCOL}, ${NOTES_TOKEN_PREFIX}${stranger.token}` },
    });
    await rolledBack;
    expect(rolledBack).toBeDefined();
    expect(res.status).toBe(403);
  });
});
